// `prefix` command on the pi fixtures: one line per main request with exactly the documented keys;
// only the turns right after a compaction break, with cause history-rewritten; every other turn
// shares the whole previous request. Plus option validation and the Anthropic fixture (moved
// cache_control markers are not breaks).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "./cli-helpers";
import { committedFixtures, fixtureCase, type FixtureCase } from "../support/fixtures";

const KEYS = ["turn", "bytes", "sharedBytes", "tokens", "sharedTokens", "breakPath", "cause", "predictedCachedTokens", "unrecordedTokens", "serverVerdict", "serverMissedTokens", "serverAgreement", "unexplainedMiss", "thread", "cost", "composition"];

/** 1-based turn numbers of the main requests recorded right after a summariser request. */
function turnsAfterCompaction(fixture: FixtureCase): { turns: number; after: number[] } {
  let turn = 0;
  let summarySeen = false;
  const after: number[] = [];
  for (const { kind } of fixture.requests()) {
    if (kind === "summary") summarySeen = true;
    if (kind !== "main") continue;
    turn++;
    if (summarySeen) after.push(turn);
    summarySeen = false;
  }
  return { turns: turn, after };
}

describe.each(["pi/print-openai-autocompact", "pi/rpc-anthropic-manualcompact"])("prefix on %s", (name) => {
  const fixture = fixtureCase(name);
  const sessionFile = fixture.sessionPath;
  const expected = turnsAfterCompaction(fixture);

  it.each([
    ["without header", [] as string[]],
    ["with --header", ["--header", fixture.requestPath(1)]],
  ])("%s: only the turns right after a compaction break, caused by history-rewritten", async (_label, extra) => {
    const run = await runCliCaptured(["prefix", sessionFile, ...extra]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.lines).toHaveLength(expected.turns);
    expect(expected.after.length).toBeGreaterThanOrEqual(2);
    run.lines.forEach((line, i) => {
      expect(Object.keys(line)).toEqual(KEYS);
      expect(line.turn).toBe(i + 1);
      const previous = run.lines[i - 1];
      if (expected.after.includes(i + 1)) {
        expect(line.cause, `turn ${i + 1}`).toBe("history-rewritten");
        expect(typeof line.breakPath).toBe("string");
        expect(line.sharedBytes as number).toBeLessThan(previous!.bytes as number);
      } else {
        expect(line.cause, `turn ${i + 1}`).toBeNull();
        expect(line.breakPath).toBeNull();
        expect(line.sharedBytes).toBe(previous ? previous.bytes : 0);
      }
      expect(line.sharedTokens as number).toBeLessThanOrEqual(line.tokens as number);
      expect(typeof line.predictedCachedTokens).toBe("number");
    });
  });
});

describe("prefix options", () => {
  const sessionFile = fixtureCase("pi/print-openai-autocompact").sessionPath;

  it("--provider renders another wire shape; compactions still break and nothing else does", async () => {
    const run = await runCliCaptured(["prefix", sessionFile, "--provider", "anthropic-messages", "--tokenizer", "estimate"]);
    expect(run.code).toBe(0);
    const causes = run.lines.map((line) => line.cause);
    expect(causes.filter((cause) => cause !== null)).toEqual(["history-rewritten", "history-rewritten"]);
  });

  it("the exact o200k count of an OpenAI request differs from the chars/4 estimate", async () => {
    const exact = await runCliCaptured(["prefix", sessionFile]);
    const estimate = await runCliCaptured(["prefix", sessionFile, "--tokenizer", "estimate"]);
    expect(exact.lines.map((l) => l.bytes)).toEqual(estimate.lines.map((l) => l.bytes));
    expect(exact.lines.map((l) => l.tokens)).not.toEqual(estimate.lines.map((l) => l.tokens));
  });

  it("rejects an unknown provider and a missing file", async () => {
    const bad = await runCliCaptured(["prefix", sessionFile, "--provider", "nope"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("provider");
    const missing = await runCliCaptured(["prefix", path.join(committedFixtures.dir, "does-not-exist.jsonl")]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("no such file");
  });
});

describe("prefix: cost and composition fields", () => {
  it("prices each turn's recorded usage with the table and splits its tokens by kind", async () => {
    const file = "public/samples/pi-korean.jsonl";
    const run = await runCliCaptured(["prefix", file, "--tokenizer", "estimate"]);
    const lines = run.lines.map((l) => l as unknown as { turn: number; cost: { recorded: { status: string; dollars: number }; priceRow: string }; composition: Record<string, number> });
    const usages = readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.includes('"role":"assistant"'))
      .map((l) => (JSON.parse(l) as { message: { usage: { input: number; cacheRead: number; cacheWrite: number; output: number } } }).message.usage);
    // gpt-4.1: $2 input (and cache write), $0.50 cached input, $8 output per million.
    const first = usages[0]!;
    expect(lines[0]!.cost.recorded.status).toBe("priced");
    expect(lines[0]!.cost.recorded.dollars).toBeCloseTo((first.input * 2 + first.cacheRead * 0.5 + first.cacheWrite * 2 + first.output * 8) / 1e6, 12);
    expect(lines[0]!.cost.priceRow).toBe("openai/gpt-4.1");
    for (const line of lines) {
      const { total, ...kinds } = line.composition;
      expect(Object.values(kinds).reduce((a, b) => a + b, 0)).toBe(total);
    }
    expect(lines.some((l) => (l.composition["tool-result"] ?? 0) > 0)).toBe(true);
  });
});
