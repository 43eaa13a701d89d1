// `compare` command: two shared recordings of the same agent (pi and senpi, print mode, same
// prompts) name the first aligned turn whose requests differ for the cache; two branches of one
// session (committed pi/compare-branches) and a setting-only difference (pi/check-*).
import { describe, expect, it } from "vitest";
import { describeShared, fixtureCase } from "../support/fixtures";
import { runCliCaptured } from "./cli-helpers";

function byKind(lines: Record<string, unknown>[], kind: string): Record<string, unknown>[] {
  return lines.filter((line) => line.kind === kind);
}

describeShared("compare on shared recordings", (shared) => {
  it("pi vs senpi (print-openai-autocompact): turn 1 equal, turn 2 is the first differing pair", async () => {
    const a = shared.case("pi/print-openai-autocompact").sessionPath;
    const b = shared.case("senpi/print-openai-autocompact").sessionPath;
    const run = await runCliCaptured(["compare", a, b]);
    expect(run.code).toBe(0);
    const pairs = byKind(run.lines, "pair");
    expect(pairs).toHaveLength(15);
    expect(pairs.every((pair) => pair.by === "user-message" && pair.a === pair.b)).toBe(true);
    expect(pairs[0]).toMatchObject({ a: 1, b: 1, differs: false, path: null });
    // The recordings' tool calls carry different ids: an id is content the cache keys on.
    expect(byKind(run.lines, "first-difference")).toEqual([{ kind: "first-difference", pair: 1, a: 2, b: 2, path: "messages[2].tool_calls[0].id" }]);
    const [totals] = byKind(run.lines, "totals");
    expect(totals).toMatchObject({ a: { turns: 15, compactions: 2 }, b: { turns: 15, compactions: 1 } });
    // The recordings' scripted model has no price: "not priced", never $0.
    for (const side of ["a", "b"] as const) {
      const cost = (totals as Record<string, { cost: Record<string, unknown> }>)[side]!.cost;
      expect(cost.recorded).toEqual({ status: "not priced", dollars: null });
    }
  });

  it("pi print-openai vs pi rpc-anthropic: different wire shapes differ from turn 1 at `api`", async () => {
    const a = shared.case("pi/print-openai-autocompact").sessionPath;
    const b = shared.case("pi/rpc-anthropic-manualcompact").sessionPath;
    const run = await runCliCaptured(["compare", a, b]);
    expect(byKind(run.lines, "first-difference")[0]).toMatchObject({ pair: 0, a: 1, b: 1, path: "api" });
    const rendered = await runCliCaptured(["compare", a, b, "--provider", "anthropic-messages"]);
    const first = byKind(rendered.lines, "first-difference")[0]!;
    expect(first.path).not.toBe("api");
    expect(first.a).toBe(2);
  });
});

describe("compare two branches of one session", () => {
  const file = fixtureCase("pi/compare-branches").sessionPath;
  it("aligns the shared turn by user message, the edited prompt by position, the extra turn one-sided", async () => {
    const run = await runCliCaptured(["compare", file, file, "--leaf", "a2", "--leaf-b", "a3b"]);
    expect(run.code).toBe(0);
    expect(byKind(run.lines, "pair").map((pair) => [pair.a, pair.b, pair.by, pair.differs, pair.path])).toEqual([
      [1, 1, "user-message", false, null],
      [2, 2, "position", true, "messages[3].content[0].text"],
      [null, 3, "unmatched", true, null],
    ]);
    expect(byKind(run.lines, "first-difference")[0]).toMatchObject({ pair: 1, a: 2, b: 2 });
    expect(byKind(run.lines, "totals")[0]).toMatchObject({ a: { turns: 2, breaks: 0 }, b: { turns: 3, breaks: 0 } });
  });

  it("an unknown --leaf-b is an error", async () => {
    const run = await runCliCaptured(["compare", file, file, "--leaf-b", "nope"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("--leaf nope is not an entry");
  });
});

describe("compare: a setting that differs", () => {
  it("names settings.reasoning_effort when only the thinking level differs", async () => {
    const run = await runCliCaptured(["compare", fixtureCase("pi/check-steady").sessionPath, fixtureCase("pi/check-thinking-change").sessionPath]);
    const pairs = byKind(run.lines, "pair");
    expect(pairs[1]).toMatchObject({ a: 2, b: 2, differs: true, path: "settings.reasoning_effort", settingsChanged: ["reasoning_effort"] });
    expect(byKind(run.lines, "totals")[0]).toMatchObject({ a: { breaks: 0, unexpectedBreaks: 0 }, b: { breaks: 1, unexpectedBreaks: 1 } });
  });
});

describe("compare totals' cost", () => {
  it("is each side's prefix lines' recorded cost, summed, from the built-in prices", async () => {
    const a = "public/samples/pi-english-compaction.jsonl";
    const b = "public/samples/pi-korean.jsonl";
    const run = await runCliCaptured(["compare", a, b]);
    expect(run.code).toBe(0);
    const [totals] = byKind(run.lines, "totals");
    for (const [side, file] of [["a", a], ["b", b]] as const) {
      const prefix = await runCliCaptured(["prefix", file, "--tokenizer", "estimate"]);
      const recorded = prefix.lines.map((line) => (line.cost as { recorded: { status: string; dollars: number | null } }).recorded);
      const cost = (totals as Record<string, { cost: { recorded: { status: string; dollars: number } } }>)[side]!.cost;
      expect(recorded.every((item) => item.status === "priced")).toBe(true);
      expect(cost.recorded.status).toBe("priced");
      expect(cost.recorded.dollars).toBeGreaterThan(0);
      expect(cost.recorded.dollars).toBeCloseTo(recorded.reduce((sum, item) => sum + (item.dollars ?? 0), 0), 12);
    }
  });
});
