// The worker's search service: the background build runs in bounded slices until complete, a
// search after it reads the built index (no new walk), a search during it finishes the build, and
// both give the same hits; iterateTurnMessages gives exactly each turn's request messages, and within
// one walk a message a turn repeats is the object the turn before had (the index reads it once).
import { describe, expect, it } from "vitest";
import { SearchService, type SearchStepResult } from "../../../src/features/search/searchService";
import { iterateTurnMessages } from "../../../src/core/session/turnMessages";
import { iterateTurnRequests } from "../../../src/core/session/turnRequests";
import { committedFixtures } from "../../support/fixtures";

const options = { profile: "pi" as const };

function runSearch(service: SearchService, query: string, searchId: number): SearchStepResult[] {
  const slices: SearchStepResult[] = [];
  for (;;) {
    const slice = service.step({ options, query, searchId, budgetMs: 5 });
    slices.push(slice);
    if (slice.done) return slices;
  }
}

describe("SearchService", () => {
  const session = committedFixtures.case("pi/rpc-anthropic-manualcompact").session;

  it("builds the index in slices until complete; searches before and after it agree", () => {
    const early = new SearchService(session);
    const earlyHits = runSearch(early, "the", 1).flatMap((s) => s.hits);
    const service = new SearchService(session);
    let result = service.prepare({ options, budgetMs: 0 });
    let slices = 1;
    while (!result.complete) {
      result = service.prepare({ options, budgetMs: 0 });
      slices++;
    }
    expect(slices).toBeGreaterThan(2);
    expect(result.messages).toBeGreaterThan(0);
    const after = runSearch(service, "the", 1);
    expect(after.flatMap((s) => s.hits)).toEqual(earlyHits);
    expect(earlyHits.length).toBeGreaterThan(0);
    expect(after.at(-1)!.turn).toBe(result.turns);
    // Built once: another prepare walks nothing more.
    expect(service.prepare({ options })).toMatchObject({ complete: true, messages: result.messages, turns: result.turns });
  });
});

describe("iterateTurnMessages", () => {
  it.each(["pi/rpc-anthropic-manualcompact", "senpi/print-openai-autocompact", "claude/print-autocompact-manualcompact", "codex/exec-autocompact"])("%s: each turn's request messages, shared between turns", (id) => {
    const s = committedFixtures.case(id).session;
    const profile = id.startsWith("senpi/") ? ("senpi" as const) : ("pi" as const);
    const walked = [...iterateTurnMessages(s, { profile })];
    const requests = [...iterateTurnRequests(s, { profile })];
    expect(walked.map((t) => t.turn)).toEqual(requests.map((r) => r.turn));
    walked.forEach((turn, i) => {
      const request = requests[i]!.request.messages;
      expect(turn.messages.length).toBe(request.length);
      turn.messages.forEach((item, j) => expect(item.message).toEqual(request[j]!.message));
    });
    // The index reads each distinct message once (by identity): within one walk, a message a turn
    // repeats from the turn before is the same object.
    let repeated = 0;
    walked.forEach((turn, i) => {
      const before = walked[i - 1]?.messages ?? [];
      for (let j = 0; j < Math.min(before.length, turn.messages.length); j++) {
        if (JSON.stringify(before[j]!.message) !== JSON.stringify(turn.messages[j]!.message)) break;
        expect(turn.messages[j]!.message).toBe(before[j]!.message);
        repeated++;
      }
    });
    expect(repeated).toBeGreaterThan(0);
  });
});
