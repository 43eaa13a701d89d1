// Prefix stability over the recorded main requests of every fixture.
import { describe, expect, it } from "vitest";
import type { ApiId } from "../../../src/core/model";
import { analyzePrefixes, type PrefixTurnInput } from "../../../src/core/prefix/analyze";
import { MARKER_KEYS } from "../../../src/core/prefix/canonical";
import { fixtureCase } from "../../support/fixtures";

const CASES: { dir: string; api: ApiId; compactionsBefore: string[] }[] = [
  { dir: "pi/print-openai-autocompact", api: "openai-completions", compactionsBefore: ["010", "015"] },
  { dir: "pi/rpc-anthropic-manualcompact", api: "anthropic-messages", compactionsBefore: ["013", "018"] },
  { dir: "senpi/print-openai-autocompact", api: "openai-completions", compactionsBefore: ["010"] },
  { dir: "claude/print-autocompact-manualcompact", api: "anthropic-messages", compactionsBefore: ["010", "016"] },
  { dir: "codex/exec-autocompact", api: "openai-responses", compactionsBefore: ["010"] },
  { dir: "opencode/run-autocompact", api: "openai-completions", compactionsBefore: ["011", "017"] },
];

interface Recorded {
  id: string;
  raw: string;
  body: Record<string, unknown>;
  compactionBefore: boolean;
  time: string;
}

/** Main requests in arrival order; a summary request between two mains means a compaction lies between. */
function mainRequests(dir: string): Recorded[] {
  const result: Recorded[] = [];
  let summarySeen = false;
  for (const request of fixtureCase(dir).requests()) {
    if (request.kind === "summary") summarySeen = true;
    if (request.kind !== "main") continue;
    result.push({ id: request.id, raw: request.text, body: request.body, compactionBefore: summarySeen, time: request.meta.time as string });
    summarySeen = false;
  }
  return result;
}

describe("fixtures: every turn extends the previous one except after a compaction", () => {
  it.each(CASES)("$dir", ({ dir, api, compactionsBefore }) => {
    const mains = mainRequests(dir);
    expect(mains.filter((m) => m.compactionBefore).map((m) => m.id)).toEqual(compactionsBefore);
    const inputs: PrefixTurnInput[] = mains.map((m, i) => ({
      turn: i + 1,
      api,
      body: m.body,
      timestamp: m.time,
      facts: { compactionBetween: m.compactionBefore },
    }));
    const reports = analyzePrefixes(inputs, { tokenizer: "estimate" });
    reports.forEach((report, i) => {
      const recorded = mains[i]!;
      if (i === 0) return;
      if (recorded.compactionBefore) {
        expect(report.cause, `${dir} ${recorded.id}`).toBe("history-rewritten");
        expect(report.breakPath).not.toBeNull();
        expect(report.sharedBytes).toBeLessThan(reports[i - 1]!.bytes);
      } else {
        expect(report.breakPath, `${dir} ${recorded.id}`).toBeNull();
        expect(report.cause).toBeNull();
        expect(report.sharedBytes).toBe(reports[i - 1]!.bytes);
      }
    });
  });

  it("codex 010 vs 008: history-rewritten, divergence at input[1] (spec §5 case 11)", () => {
    const mains = mainRequests("codex/exec-autocompact");
    const pair = [mains.find((m) => m.id === "008")!, mains.find((m) => m.id === "010")!];
    const reports = analyzePrefixes(
      pair.map((m, i) => ({ turn: i + 1, api: "openai-responses" as const, body: m.body, facts: { compactionBetween: i === 1 } })),
      { tokenizer: "estimate" },
    );
    expect(reports[1]!.cause).toBe("history-rewritten");
    expect(reports[1]!.breakSegment).toBe("input[1]");
  });

  it("claude: the compaction also changed the billing header (system-changed contributing)", () => {
    const mains = mainRequests("claude/print-autocompact-manualcompact");
    const reports = analyzePrefixes(
      mains.map((m, i) => ({ turn: i + 1, api: "anthropic-messages" as const, body: m.body, facts: { compactionBetween: m.compactionBefore } })),
      { tokenizer: "estimate" },
    );
    const first = reports[mains.findIndex((m) => m.id === "010")]!;
    expect(first.breakPath).toBe("system[0].text");
    expect(first.contributing).toContain("system-changed");
  });

  it("without the caller's facts, a compaction is still a break (named by content)", () => {
    const mains = mainRequests("pi/print-openai-autocompact");
    const reports = analyzePrefixes(
      mains.map((m, i) => ({ turn: i + 1, api: "openai-completions" as const, body: m.body })),
      { tokenizer: "estimate" },
    );
    const after = reports[mains.findIndex((m) => m.id === "010")]!;
    expect(after.cause).toBe("mutation");
    expect(after.breakPath).toBe("messages[1].content[0].text");
  });
});

/** Common prefix length of two strings. */
function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

describe("canonicalisation is what removes the false breaks at Anthropic turns", () => {
  it.each(["pi/rpc-anthropic-manualcompact", "claude/print-autocompact-manualcompact"])("%s", (dir) => {
    const mains = mainRequests(dir);
    let naiveBreaks = 0;
    let pairs = 0;
    for (let i = 1; i < mains.length; i++) {
      const previous = mains[i - 1]!;
      const next = mains[i]!;
      if (next.compactionBefore) continue;
      pairs++;
      // Naive: the raw bytes diverge before the previous request's messages array ends.
      const messagesEnd = previous.raw.indexOf('"messages":') + '"messages":'.length + JSON.stringify(previous.body.messages).length;
      const naiveShared = commonPrefix(previous.raw, next.raw);
      if (naiveShared < messagesEnd - 1) {
        naiveBreaks++;
        // ...and it is a moved cache marker or a single text block sent as a plain string (PD-5).
        const markerMoved = MARKER_KEYS.some((key) => previous.raw.slice(naiveShared, naiveShared + 40).includes(key));
        const stringBlockSwitch =
          previous.raw.slice(naiveShared - 11, naiveShared + 20).includes('"content":[{"type":"text"') &&
          next.raw.slice(naiveShared - 10, naiveShared + 1) === '"content":"';
        expect(markerMoved || stringBlockSwitch, `${dir} ${previous.id}→${next.id}`).toBe(true);
      }
      const reports = analyzePrefixes(
        [previous, next].map((m, k) => ({ turn: k + 1, api: "anthropic-messages" as const, body: m.body })),
        { tokenizer: "estimate" },
      );
      expect(reports[1]!.breakPath).toBeNull();
    }
    expect(pairs).toBeGreaterThan(8);
    expect(naiveBreaks).toBe(pairs);
  });
});
