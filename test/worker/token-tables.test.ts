// Which tokenizer tables the pipeline worker loads before a call. Loading them blocks the worker
// for one to two seconds, so the calls of opening a session, stepping through its turns and the
// background passes must load none; the calls that count exact tokens load them first.
import { describe, expect, it, vi } from "vitest";
import type { PipelineOptions } from "../../src/core/model";
import { tablesForCall as tablesOfHandler } from "../../src/worker/tokenTables";
import type { WorkerMethod } from "../../src/worker/protocol";
import { composeHandlers } from "../../src/worker/features";
import { SessionHost } from "../../src/worker/sessionHost";

/** The tables the worker loads before answering `method`, as its handler says. */
const HANDLERS = composeHandlers(new SessionHost());
function tablesForCall(method: WorkerMethod) {
  return tablesOfHandler(HANDLERS[method].tables);
}

describe("tablesForCall", () => {
  it("loads no table for opening, stepping, searching and the background passes", () => {
    const quiet: WorkerMethod[] = ["analyze", "buildRequest", "requestBody", "sessionComposition", "searchPrepare", "searchStep", "openCompare", "parseHeader"];
    for (const method of quiet) expect(tablesForCall(method), method).toEqual([]);
  });

  it("leaves the exact prefix pass and the Tokens and Diff tabs to load their session's tables themselves", () => {
    expect(tablesForCall("prefixReports")).toEqual([]);
    expect(tablesForCall("tokenComposition")).toEqual([]);
    expect(tablesForCall("turnDiff")).toEqual([]);
  });

  it("loads o200k alone for the token view, which cuts any session's text at o200k boundaries", () => {
    expect(tablesForCall("tokenView")).toEqual(["o200k"]);
  });

  it("loads both tables for the calls that count with either tokenizer", () => {
    for (const method of ["simulate", "exportRequest", "comparePair"] as const) {
      expect([...tablesForCall(method)].sort(), method).toEqual(["claude", "o200k"]);
    }
  });
});

describe("stepping onto a compaction row", () => {
  it("loads no table: its outcome and rebuilt summariser requests count no exact token", async () => {
    expect(tablesForCall("compactionRequests")).toEqual([]);
    // Fresh modules, so the tables the test set-up loaded are not there: a count that needs one throws.
    vi.resetModules();
    const tables = await import("../../src/core/tokens/tables");
    const { fixtureCase } = await import("../support/fixtures");
    const { analyzeSession } = await import("../../src/core/session/pipeline");
    const { compactionOutcome } = await import("../../src/features/compaction/compactionOutcomeModel");
    const { compactionRequests } = await import("../../src/features/compaction/compactionRequests");
    const cases = [
      ["pi/print-openai-autocompact", "pi"],
      ["pi/rpc-anthropic-manualcompact", "pi"],
      ["senpi/print-openai-autocompact", "senpi"],
      ["claude/print-autocompact-manualcompact", "pi"],
      ["codex/exec-autocompact", "pi"],
      ["opencode/run-autocompact", "pi"],
    ] as const;
    let rows = 0;
    for (const [id, profile] of cases) {
      const { session } = fixtureCase(id);
      const options: PipelineOptions = { profile, api: null, header: null, leafId: null };
      const analysis = analyzeSession(session, options);
      for (const item of analysis.timeline) {
        if (item.kind !== "compaction") continue;
        rows++;
        expect(compactionOutcome(session, options, analysis, item.entryId), id).not.toBeNull();
        expect(compactionRequests(session, options, item.entryId).entryId, id).toBe(item.entryId);
      }
    }
    expect(rows).toBeGreaterThan(cases.length);
    expect(tables.isTableLoaded("o200k")).toBe(false);
    expect(tables.isTableLoaded("claude")).toBe(false);
  });
});
