// Real OpenClaw sessions published by users (../shared/fixtures/realworld/openclaw, README.md
// there): pi's session format v3 as OpenClaw writes it, with its own entries (`custom`
// model-snapshot records, `custom_message` runtime context) and a provider switch mid-session.
// Every provider call is found: one turn per assistant message on the branch (the last entry's
// ancestry), counted here from the raw lines without the project's reader, errored calls included
// (OpenClaw records a failed call as an assistant message with its usage); one compaction per
// compaction entry on it. No warning and no record type unknown, in the core and through `check`.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { analyzeSession } from "../../src/core/session/pipeline";
import { readSessionText } from "../../src/core/session/index";
import { recordReport } from "../../src/core/session/recordReport";
import { runCliCaptured } from "../cli/cli-helpers";
import { describeShared } from "../support/fixtures";

type Json = Record<string, unknown>;

/** Calls and compactions on the branch, from the raw lines: the entries linked by id/parentId up from the last one. */
function expectedCounts(text: string): { calls: number; compactions: number } {
  const entries = text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Json)
    .filter((entry) => entry.type !== "session");
  const byId = new Map(entries.map((entry) => [entry.id as string, entry]));
  const branch: Json[] = [];
  for (let entry: Json | undefined = entries[entries.length - 1]; entry; entry = byId.get(entry.parentId as string)) branch.push(entry);
  const role = (entry: Json) => (entry.message as Json | undefined)?.role;
  return {
    calls: branch.filter((entry) => entry.type === "message" && role(entry) === "assistant").length,
    compactions: branch.filter((entry) => entry.type === "compaction").length,
  };
}

describeShared("real OpenClaw sessions (../shared/fixtures/realworld/openclaw)", (shared) => {
  const dir = shared.path("realworld/openclaw");
  const files = readdirSync(dir).filter((name) => name.endsWith(".jsonl")).sort();

  it("the folder holds the two sessions the README lists", () => {
    expect(files).toHaveLength(2);
  });

  for (const name of files) {
    const file = path.join(dir, name);
    it(`${name}: every call and compaction counted from its lines, no warning, no unknown record type`, async () => {
      const text = readFileSync(file, "utf8");
      const expected = expectedCounts(text);
      const session = readSessionText(text, name);
      expect(session.formatId).toBe("pi");
      const analysis = analyzeSession(session, { profile: "pi" });
      expect(analysis.turns).toHaveLength(expected.calls);
      expect(analysis.timeline.filter((item) => item.kind === "compaction")).toHaveLength(expected.compactions);
      expect([...session.warnings, ...analysis.warnings]).toEqual([]);
      const report = recordReport(session)!;
      expect(report.unknown).toEqual([]);
      expect(report.skipped).toContainEqual({ type: "custom", count: 2, why: expect.any(String) });

      const run = await runCliCaptured(["check", file, "--fail-on", "read-warning,unknown-records"]);
      expect(run.code).toBe(0);
      expect(run.lines.filter((line) => line.kind === "read-warning" || line.kind === "unknown-records")).toEqual([]);
    });
  }

  it("the README's figures: 6 calls in one session, 1 + 4 calls and 1 compaction in the other", () => {
    const counts = files.map((name) => expectedCounts(readFileSync(path.join(dir, name), "utf8")));
    expect(counts).toEqual([
      { calls: 6, compactions: 0 },
      { calls: 5, compactions: 1 },
    ]);
  });
});
