// The prefix reports of every turn (iterateSessionPrefixes: a sessions folder's scan, the
// library's rows, a thread's summary) let the agent's walk hand out its two request lists in turn
// (PipelineHooks.reuseRequestLists) instead of copying each turn's context: only reports leave,
// and the analyzer keeps the previous turn's request only. On a session of many turns without a
// compaction a copy per turn was work per turn × context (a 30,000-turn scan took 56 s, now 4 s).
// The reports equal those of a walk that copies.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PipelineOptions } from "../../../src/core/model";
import type { PipelineHooks } from "../../../src/core/pipeline/types";
import { findAgent } from "../../../src/core/session/index";
import { iterateSessionPrefixes, iterateSessionPrefixesWithRequests } from "../../../src/core/session/sessionPrefixes";
import { assistant, sessionOf, user, type EntryInput } from "../agents/pi/sessionBuilder";

const OPTIONS: PipelineOptions = { profile: "pi", leafId: null, api: null, header: null, notes: false };

function longSession() {
  const entries: EntryInput[] = [];
  for (let turn = 1; turn <= 60; turn++) entries.push(user(`u${turn}`, `prompt ${turn}`), assistant(`a${turn}`, `answer ${turn}`));
  return sessionOf(entries);
}

describe("iterateSessionPrefixes", () => {
  afterEach(() => vi.restoreAllMocks());

  it("asks the walk for its reused request lists", () => {
    const pipeline = findAgent("pi")!.pipeline;
    const iterate = vi.spyOn(pipeline, "iterateTurnRequests");
    const reports = [...iterateSessionPrefixes(longSession(), OPTIONS, { prefix: { tokenizer: "estimate" } })];
    expect(reports).toHaveLength(60);
    expect(iterate).toHaveBeenCalledTimes(1);
    expect((iterate.mock.calls[0]![2] as PipelineHooks).reuseRequestLists).toBe(true);
  });

  it("gives the reports a walk that copies each turn's list gives", () => {
    const session = longSession();
    const reused = [...iterateSessionPrefixes(session, OPTIONS, { prefix: { tokenizer: "estimate" } })];
    const copied = [...iterateSessionPrefixesWithRequests(longSession(), OPTIONS, { prefix: { tokenizer: "estimate" } })].map((step) => step.report);
    expect(reused).toEqual(copied);
  });
});
