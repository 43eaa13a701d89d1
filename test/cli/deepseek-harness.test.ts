// The CLI on deepseek-harness sessions: a session.jsonl.zstd is recognised by its bytes (the
// decoder loaded on demand), its requests and auxiliary requests printed; a failed compaction is a
// compaction line with "failed" and no request.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureCase, findSessionFile } from "../support/fixtures";
import { runCliCaptured } from "./cli-helpers";

const recorded = fixtureCase("deepseek-harness/headless-deepseek-manualcompact");
const forked = fixtureCase("deepseek-harness/fork-failed-compaction");

describe("contextscope requests on deepseek-harness sessions", () => {
  it("reads the Zstandard artifact and prints 14 turns, the title and the compaction request", async () => {
    const run = await runCliCaptured(["requests", findSessionFile(recorded.path("session"), ".jsonl.zstd")]);
    expect(run.code).toBe(0);
    const out = run.lines;
    expect(out.filter((line) => "turn" in line)).toHaveLength(14);
    expect(out.filter((line) => line.kind === "auxiliary").map((line) => line.purpose)).toEqual(["title", "summary"]);
    expect(JSON.stringify(out.find((line) => line.turn === 1)!.request)).toBe(JSON.stringify(recorded.request(1)));
  });

  it("prints a failed compaction as a compaction line with its error", async () => {
    const run = await runCliCaptured(["requests", forked.path(path.join("session/--home-dev-demo--/session-parent-1/session.jsonl"))]);
    expect(run.code).toBe(0);
    const compaction = run.lines.find((line) => line.kind === "compaction");
    expect(compaction).toEqual({ kind: "compaction", entryId: "seq-16", beforeTurn: 3, failed: expect.stringMatching(/^summary is not smaller/), requests: [] });
  });
});
