// A walk of every Claude Code turn whose reader keeps no request past the turn after
// (PipelineHooks.reuseRequestLists) is handed two lists in turn for each request's body messages
// and context messages, not a copy of the whole context per turn; every request's context
// messages say how much of the previous request's they repeat (util/list-lineage.ts), so the
// composition of every turn compares only the new ones. Its requests are those of a plain walk.
import { describe, expect, it } from "vitest";
import type { BuiltRequest } from "../../../../src/core/model";
import { iterateTurnRequests } from "../../../../src/core/session/turnRequests";
import { sharedHeadWith } from "../../../../src/core/util/list-lineage";
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

/** What a reader of the walk sees of each request while it is the current one. */
function seen(request: BuiltRequest) {
  return { body: JSON.stringify(request.body), messages: JSON.stringify(request.messages) };
}

describe("a Claude Code walk with reused request lists", () => {
  it("hands out two lists in turn, each brought up to date, with the requests of a plain walk", () => {
    const plain = [...iterateTurnRequests(transcript(), {})].map(({ request }) => seen(request));
    const bodies: unknown[][] = [];
    const messages: unknown[][] = [];
    const reused: ReturnType<typeof seen>[] = [];
    for (const { request } of iterateTurnRequests(transcript(), {}, { reuseRequestLists: true })) {
      reused.push(seen(request));
      bodies.push(request.body.messages as unknown[]);
      messages.push(request.messages);
    }
    expect(plain).toHaveLength(TURNS);
    expect(reused).toEqual(plain);
    // Turn 3's lists are turn 1's arrays again; turn 2's are others.
    expect(bodies[2]).toBe(bodies[0]);
    expect(messages[2]).toBe(messages[0]);
    expect(bodies[1]).not.toBe(bodies[0]);
    expect(messages[1]).not.toBe(messages[0]);
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
});
