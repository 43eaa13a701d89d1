// The built-in samples in public/samples: up to date with scripts/make-samples.ts, readable
// without warnings, with the expected turns, branches and compactions, and compaction entries
// that agree with pi's rules under pi's default settings.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateSamples } from "../../../../../scripts/make-samples";
import { buildCompactionRequests } from "../../../../../src/core/agents/pi/compaction";
import { analyzeSession } from "../../../../../src/core/session/pipeline";
import { readSessionText } from "../../../../../src/core/session/index";
import { repoPath } from "../../../../support/fixtures";

const SAMPLES_DIR = repoPath("public/samples");

const EXPECTED: Record<string, { turns: number; branches: number; compactions: number; split: boolean; apis: string[] }> = {
  "pi-english-compaction": { turns: 34, branches: 2, compactions: 1, split: true, apis: ["anthropic-messages"] },
  "pi-korean": { turns: 26, branches: 1, compactions: 1, split: true, apis: ["openai-completions"] },
};

const generated = generateSamples();

describe("public/samples", () => {
  it("index.json lists every generated sample with id, title, file and description", () => {
    const index = JSON.parse(readFileSync(path.join(SAMPLES_DIR, "index.json"), "utf8")) as Record<string, string>[];
    expect(index.map((s) => s.id)).toEqual(Object.keys(EXPECTED));
    for (const entry of index) {
      expect(Object.keys(entry)).toEqual(["id", "title", "file", "description"]);
      expect(entry.file).toBe(`${entry.id}.jsonl`);
    }
  });

  it.each(generated.map((s) => [s.id, s] as const))("%s: the committed file equals the generator output", (_id, sample) => {
    expect(readFileSync(path.join(SAMPLES_DIR, sample.file), "utf8")).toBe(sample.text);
  });

  it.each(generated.map((s) => [s.id, s] as const))("%s reads without warnings, with the expected turns, branches and compactions", (id, sample) => {
    const session = readSessionText(sample.text, sample.file);
    expect(session.warnings).toEqual([]);
    expect(session.formatId).toBe("pi");
    expect(session.formatVersion).toBe(3);
    const analysis = analyzeSession(session, { profile: "pi" });
    expect(analysis.warnings).toEqual([]);
    const expected = EXPECTED[id]!;
    expect(analysis.turns).toHaveLength(expected.turns);
    expect(analysis.branches).toHaveLength(expected.branches);
    expect(analysis.timeline.filter((t) => t.kind === "compaction")).toHaveLength(expected.compactions);
    expect([...new Set(analysis.turns.map((t) => t.api))]).toEqual(expected.apis);
    // Message kinds the samples must show.
    const roles = new Set(session.entries.map((e) => (e.raw.message as { role?: string } | undefined)?.role));
    for (const role of ["user", "assistant", "toolResult", "bashExecution"]) expect(roles.has(role)).toBe(true);
    expect(session.entries.slice(0, 2).map((e) => e.type)).toEqual(["model_change", "thinking_level_change"]);
  });

  it.each(generated.map((s) => [s.id, s] as const))("%s: compaction fields follow pi's rules with default settings", (id, sample) => {
    const session = readSessionText(sample.text, sample.file);
    for (const entry of session.entries.filter((e) => e.type === "compaction")) {
      const rebuild = buildCompactionRequests(session, { profile: "pi" }, entry.id);
      expect(rebuild.computedCut.firstKeptEntryId).toBe(entry.raw.firstKeptEntryId);
      expect(rebuild.tokensBefore.computed).toBe(entry.raw.tokensBefore);
      expect(rebuild.fileLists).toEqual(entry.raw.details);
      expect(rebuild.isSplitTurn).toBe(EXPECTED[id]!.split);
      // Split turn with history: two requests (PI-K28), and something was summarised.
      expect(rebuild.requests.map((r) => r.role)).toEqual(["history", "turn-prefix"]);
      expect(rebuild.serializedConversation.length).toBeGreaterThan(1000);
      // Only the summariser texts are missing (no instructions attached); nothing else is off.
      expect(rebuild.lints.filter((l) => !l.endsWith("not recorded"))).toEqual([]);
    }
  });
});
