// A recorded compaction's rebuild and its trigger in words (what a step onto a compaction row asks
// the worker for) read the session's memoised tree and the compaction's own path: once the
// session's memo is built, they walk none of its entries again. On a large session each walk of
// every entry was the biggest part of such a step.
import { describe, expect, it } from "vitest";
import type { PipelineOptions, Session } from "../../../../../src/core/model";
import { analyzeSession } from "../../../../../src/core/session/pipeline";
import { simulateCompaction } from "../../../../../src/core/session/simulate/index";
import { compactionRequests } from "../../../../../src/features/compaction/compactionRequests";
import { fixtureCase } from "../../../../support/fixtures";

/** The session with its entry list counting the entries read from it (by index or by iteration). */
function countingReads(session: Session): { session: Session; reads: () => number; reset: () => void } {
  let reads = 0;
  const entries = new Proxy(session.entries, {
    get(target, key, receiver) {
      if (key === Symbol.iterator) reads += target.length;
      else if (typeof key === "string" && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { session: { ...session, entries }, reads: () => reads, reset: () => (reads = 0) };
}

describe("a step onto a recorded pi compaction", () => {
  const options: PipelineOptions = { profile: "pi", api: null, header: null, leafId: null };
  const fixture = fixtureCase("pi/print-openai-autocompact");

  it("rebuilds its summariser request and its trigger without walking the session's entries again", () => {
    const counted = countingReads(fixture.session);
    const analysis = analyzeSession(counted.session, options);
    const event = analysis.timeline.find((item) => item.kind === "compaction" && item.beforeTurn !== null);
    if (!event || event.kind !== "compaction" || event.beforeTurn === null) throw new Error("the fixture has a compaction followed by a turn");
    const trigger = () => simulateCompaction({ session: counted.session, options, turn: event.beforeTurn! - 1, policyId: "pi", recordedCompactionEntryId: event.entryId, manual: false, triggerOnly: true, followingTurns: 0 });
    // The first calls may build the session's memo (its tree, the branch path).
    expect(compactionRequests(counted.session, options, event.entryId).available).toBe(true);
    const first = trigger();
    expect(counted.reads()).toBeGreaterThan(0);
    counted.reset();
    expect(compactionRequests(counted.session, options, event.entryId).available).toBe(true);
    expect(counted.reads()).toBe(0);
    expect(trigger().trigger).toEqual(first.trigger);
    expect(counted.reads()).toBe(0);
  });
});
