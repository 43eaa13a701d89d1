// A walk of every Codex turn whose reader keeps no request past the turn after
// (PipelineHooks.reuseRequestLists) is handed two lists in turn for each request's input and
// messages, not a copy of the whole context per turn, says how much of the previous turn's lists
// each one repeats (util/list-lineage.ts), and its requests are those the one-turn entry point
// builds, across compactions (a new window shares only input[0]).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateAgentSession } from "../../../../bench/generate-agent-session";
import type { BuiltRequest } from "../../../../src/core/model";
import { readSessionText } from "../../../../src/core/session/index";
import { buildTurnRequest } from "../../../../src/core/session/pipeline";
import { iterateTurnRequests } from "../../../../src/core/session/turnRequests";
import { sharedHeadWith } from "../../../../src/core/util/list-lineage";
import { expectListsHandedInTurn } from "../../../support/reusedWalk";

const generated = generateAgentSession("codex", { minBytes: 120 * 1024, seed: 5, callsPerCompaction: 6 });
const text = readFileSync(generated.file, "utf8");
const rollout = () => readSessionText(text, "rollout.jsonl")!;

const seen = (request: BuiltRequest) => JSON.stringify({ body: request.body, messages: request.messages, notRecorded: request.notRecorded, model: request.model });

describe("a Codex walk with reused request lists", () => {
  it("hands out two lists in turn, each brought up to date, with the requests of a plain walk", () => {
    expect(generated.compactions).toBeGreaterThan(0);
    expectListsHandedInTurn(rollout, generated.turns, (request) => [request.body.input as unknown[], request.messages]);
  });

  it("builds every turn as the one-turn entry point does", () => {
    const session = rollout();
    // Each request read while it is the current one, as the walk's reader must.
    const walked: { turn: number; seen: string }[] = [];
    for (const { turn, request } of iterateTurnRequests(session, {}, { reuseRequestLists: true })) walked.push({ turn, seen: seen(request) });
    const one = rollout();
    expect(walked.map(({ turn }) => turn)).toEqual(Array.from({ length: generated.turns }, (_, i) => i + 1));
    for (const { turn, seen: walkedRequest } of walked) expect(walkedRequest).toBe(seen(buildTurnRequest(one, {}, turn)));
  });

  it("records how much of the previous turn's input and messages each turn repeats, input[0] only after a compaction", () => {
    let previous: BuiltRequest | null = null;
    let afterCompaction = 0;
    for (const { request } of iterateTurnRequests(rollout(), {}, { reuseRequestLists: true })) {
      const input = request.body.input as unknown[];
      if (previous) {
        const before = previous.body.input as unknown[];
        let same = 0;
        while (same < Math.min(input.length, before.length) && input[same] === before[same]) same++;
        const recorded = sharedHeadWith(input, before);
        // Never more than the lists share; all of it, or input[0] after a compaction.
        expect(recorded).toBeLessThanOrEqual(same);
        expect(recorded === same || recorded === 1).toBe(true);
        if (recorded === 1 && same === 1) afterCompaction++;
        expect(sharedHeadWith(request.messages, previous.messages)).toBe(recorded);
      }
      // Kept one turn only, as the walk's reader may.
      previous = request;
    }
    expect(afterCompaction).toBeGreaterThan(0);
  });
});
