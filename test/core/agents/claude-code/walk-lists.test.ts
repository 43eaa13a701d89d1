// A walk of every Claude Code turn whose reader keeps no request past the turn after
// (PipelineHooks.reuseRequestLists) is handed two lists in turn for each request's body messages
// and context messages, not a copy of the whole context per turn; every request's context
// messages say how much of the previous request's they repeat (util/list-lineage.ts), so the
// composition of every turn compares only the new ones. Its requests are those of a plain walk.
import { describe, expect, it } from "vitest";
import { iterateTurnRequests } from "../../../../src/core/session/turnRequests";
import { sharedHeadWith } from "../../../../src/core/util/list-lineage";
import { expectListsHandedInTurn } from "../../../support/reusedWalk";
import { assistant, readClaude, user } from "./helpers";

const TURNS = 6;

function transcript() {
  const lines: unknown[] = [];
  let parent: string | null = null;
  for (let i = 1; i <= TURNS; i++) {
    lines.push(user(`u${i}`, parent, `prompt ${i}`));
    lines.push(assistant(`a${i}`, `u${i}`, `msg_${i}`, [{ type: "text", text: `answer ${i}` }], { input_tokens: 10 * i, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 5 }));
    parent = `a${i}`;
  }
  return readClaude(lines);
}

describe("a Claude Code walk with reused request lists", () => {
  it("hands out two lists in turn, each brought up to date, with the requests of a plain walk", () => {
    expectListsHandedInTurn(transcript, TURNS, (request) => [request.body.messages as unknown[], request.messages]);
  });

  it("records how much of the previous request's context messages each one repeats", () => {
    for (const hooks of [{}, { reuseRequestLists: true }]) {
      let previous: readonly unknown[] | null = null;
      for (const { request } of iterateTurnRequests(transcript(), {}, hooks)) {
        // The previous turn's messages all come back (a prompt and an answer are added).
        if (previous) expect(sharedHeadWith(request.messages, previous)).toBe(previous.length);
        previous = request.messages;
      }
      expect(previous).toHaveLength(2 * TURNS - 1);
    }
  });

  it("keeps each session's carry its own when two sessions' walks are read in alternation", () => {
    for (const hooks of [{}, { reuseRequestLists: true }]) {
      const plain = [...iterateTurnRequests(transcript(), {})].map(({ request }) => JSON.stringify(request.body));
      const walks = [iterateTurnRequests(transcript(), {}, hooks), iterateTurnRequests(transcript(), {}, hooks)];
      const previous: (readonly unknown[] | null)[] = [null, null];
      for (let turn = 0; turn < TURNS; turn++) {
        for (const side of [0, 1]) {
          const { request } = walks[side]!.next().value!;
          expect(JSON.stringify(request.body)).toBe(plain[turn]);
          // The other session's turn in between does not cut this session's lineage.
          const before = previous[side];
          if (before) expect(sharedHeadWith(request.messages, before)).toBe(before.length);
          previous[side] = request.messages;
        }
      }
    }
  });
});
