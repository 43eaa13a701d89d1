// Real pi sessions published by users (../shared/fixtures/realworld/pi, README.md there): every
// file opens, and its turn and compaction counts equal the figures counted here from the raw lines
// as that README says — one turn per assistant message on the branch, one compaction per
// compaction entry (on the branch the timeline shows: the last entry's) — in the core and through
// `requests`. thinking_level_change lines, model changes and mixed providers are never warnings.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { analyzeSession } from "../../src/core/session/pipeline";
import { readSessionText } from "../../src/core/session/index";
import { runCliCaptured } from "../cli/cli-helpers";
import { describeShared } from "../support/fixtures";

type Json = Record<string, unknown>;

/** The README's figures, counted from the raw lines without the project's reader. */
function expectedCounts(text: string): { turns: number; compactions: number } {
  const entries = text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Json)
    .filter((entry) => entry.type !== "session");
  // Version 2 and later link entries by id/parentId: the branch is the last entry's ancestry.
  // Version 1 files have no ids: the file is the branch.
  let branch = entries;
  if (entries.length > 0 && entries.every((entry) => typeof entry.id === "string")) {
    const byId = new Map(entries.map((entry) => [entry.id as string, entry]));
    branch = [];
    for (let entry: Json | undefined = entries[entries.length - 1]; entry; entry = byId.get(entry.parentId as string)) branch.unshift(entry);
  }
  const role = (entry: Json) => (entry.message as Json | undefined)?.role;
  return {
    turns: branch.filter((entry) => entry.type === "message" && role(entry) === "assistant").length,
    compactions: branch.filter((entry) => entry.type === "compaction").length,
  };
}

describeShared("real pi sessions (../shared/fixtures/realworld/pi)", (shared) => {
  const dir = shared.path("realworld/pi");
  const files = readdirSync(dir).filter((name) => name.endsWith(".jsonl")).sort();

  it("the folder holds sessions", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  for (const name of files) {
    const file = path.join(dir, name);
    it(`${name}: opens with the README's turn and compaction counts and no warning, in core and through requests`, async () => {
      const text = readFileSync(file, "utf8");
      const expected = expectedCounts(text);
      const session = readSessionText(text, name);
      expect(session.formatId).toBe("pi");
      const analysis = analyzeSession(session, { profile: "pi" });
      expect(analysis.turns.length).toBe(expected.turns);
      expect(analysis.timeline.filter((item) => item.kind === "compaction").length).toBe(expected.compactions);
      expect(session.warnings).toEqual([]);
      expect(analysis.warnings).toEqual([]);

      const run = await runCliCaptured(["requests", file]);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("");
      expect(run.lines.filter((line) => "turn" in line)).toHaveLength(expected.turns);
      expect(run.lines.filter((line) => line.kind === "compaction")).toHaveLength(expected.compactions);
    });
  }

  it("the v1 pi-mono session: each turn's provider and model as its assistant message records them (two providers), its 103 thinking-level changes read", () => {
    const text = readFileSync(path.join(dir, "pi-mono-large-session-v1.jsonl"), "utf8");
    const recorded = text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Json)
      .filter((entry) => entry.type === "message" && (entry.message as Json).role === "assistant")
      .map((entry) => `${(entry.message as Json).provider}/${(entry.message as Json).model}`);
    expect(new Set(recorded).size).toBe(2);
    const session = readSessionText(text, "large.jsonl");
    expect(session.formatVersion).toBe(1);
    expect(session.entries.filter((entry) => entry.type === "thinking_level_change")).toHaveLength(103);
    const analysis = analyzeSession(session, { profile: "pi" });
    expect(analysis.turns.map((turn) => `${turn.model?.provider}/${turn.model?.modelId}`)).toEqual(recorded);
  });
});
