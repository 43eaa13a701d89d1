// A walk of every Gemini CLI turn whose reader keeps no request past the turn after
// (PipelineHooks.reuseRequestLists) is handed two lists in turn for each request's contents and
// messages, not a copy of the whole context per turn, and says how much of the previous turn's
// lists each one repeats (util/list-lineage.ts); its requests are those of a plain walk.
import { describe, expect, it } from "vitest";
import type { BuiltRequest } from "../../../../src/core/model";
import { readSessionText } from "../../../../src/core/session/index";
import { iterateTurnRequests } from "../../../../src/core/session/turnRequests";
import { sharedHeadWith } from "../../../../src/core/util/list-lineage";
import { expectListsHandedInTurn } from "../../../support/reusedWalk";

const meta = { sessionId: "s1", projectHash: "p".repeat(64), startTime: "2026-12-03T09:00:00.000Z", lastUpdated: "2026-12-03T09:00:00.000Z", kind: "main" };
const TURNS = 6;
const lines = [JSON.stringify(meta)];
for (let i = 1; i <= TURNS; i++) {
  lines.push(JSON.stringify({ id: `u${i}`, timestamp: "2026-12-03T09:00:01.000Z", type: "user", content: [{ text: `prompt ${i}` }] }));
  lines.push(JSON.stringify({ id: `g${i}`, timestamp: "2026-12-03T09:00:02.000Z", type: "gemini", content: `answer ${i}`, tokens: { input: 10 * i, output: 1, cached: 0, thoughts: 0, tool: 0, total: 10 * i + 1 }, model: "gemini-2.5-flash" }));
}
const jsonl = lines.join("\n");

function chat() {
  return readSessionText(jsonl, "session-2026-12-03T09-00-s1.jsonl")!;
}

describe("a Gemini CLI walk with reused request lists", () => {
  it("hands out two lists in turn, each brought up to date, with the requests of a plain walk", () => {
    expectListsHandedInTurn(chat, TURNS, (request) => [request.body.contents as unknown[], request.messages]);
  });

  it("records how much of the previous turn's contents and messages each turn repeats", () => {
    for (const hooks of [{}, { reuseRequestLists: true }]) {
      let previous: BuiltRequest | null = null;
      let previousContents = 0;
      for (const { request } of iterateTurnRequests(chat(), {}, hooks)) {
        const contents = request.body.contents as unknown[];
        if (previous) {
          // The previous turn's contents and messages all come back (a prompt and an answer are added).
          expect(sharedHeadWith(contents, previous.body.contents as unknown[])).toBe(previousContents);
          expect(sharedHeadWith(request.messages, previous.messages)).toBe(previousContents);
        }
        previousContents = contents.length;
        // Kept one turn only, as the walk's reader may.
        previous = request;
      }
    }
  });
});
