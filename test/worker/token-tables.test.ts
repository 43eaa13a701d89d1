// Which tokenizer tables the pipeline worker loads before a call. Loading them blocks the worker
// for one to two seconds, so the calls of opening a session, stepping through its turns and the
// background passes must load none; the calls that count exact tokens load them first.
import { describe, expect, it } from "vitest";
import { tablesForCall } from "../../src/worker/tokenTables";
import type { WorkerMethod } from "../../src/worker/protocol";

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
