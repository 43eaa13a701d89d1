// The worker's prefix passes over a followed session that grows (src/features/prefix/prefixService.ts `grow`):
// the rows of a pass finished over an earlier value are extended with the new turns, and equal
// the rows of a pass over the grown session from its first turn — for the estimate pass, the
// exact pass counted here, and the exact pass counted by a pool (the browser's counting workers),
// and for the composition chart's rows.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PrefixService } from "../../../src/features/prefix/prefixService";
import type { PipelineOptions, Session } from "../../../src/core/model";
import { SessionFollower } from "../../../src/core/session/follow";
import { analyzeSession } from "../../../src/core/session/pipeline";
import { countClaudeVocabulary } from "../../../src/core/tokens/claude";
import { o200kCounter } from "../../../src/core/tokens/counters";
import type { TableCountPool } from "../../../src/core/tokens/precounted";
import type { TokenizerTable } from "../../../src/core/tokens/tables";
import { fixtureCase } from "../../support/fixtures";
import { textDigest } from "../../../src/core/tokens/textDigest";
import { textString, type Text } from "../../../src/core/text/text";

const decoder = new TextDecoder();
const OPTIONS: PipelineOptions = { profile: "pi", leafId: null, api: null, header: null, notes: false };
const KEY = JSON.stringify(OPTIONS);

/** The session values a follower hands out as the file grows, cut at `parts` line boundaries. */
function growingValues(caseName: string, parts: number): Session[] {
  const file = fixtureCase(caseName).sessionPath;
  const bytes = new Uint8Array(readFileSync(file));
  const follower = new SessionFollower(path.basename(file), (chunk) => decoder.decode(chunk));
  const values: Session[] = [];
  let offset = 0;
  for (let part = 1; part <= parts; part++) {
    const at = part === parts ? bytes.length : bytes.indexOf(0x0a, Math.floor((bytes.length * part) / parts)) + 1;
    if (at <= offset) continue;
    follower.append(bytes.subarray(offset, at));
    offset = at;
    const value = follower.session();
    if (value && value.entries.length > 0) values.push(value);
  }
  return values;
}

/** An in-process stand-in for the browser's counting workers: counts on finish, keeps every count. */
function countingPool(): TableCountPool & { submitted: number } {
  const counts = new Map<TokenizerTable, Map<string, number>>();
  const waiting: [TokenizerTable, string][] = [];
  const byParts: [TokenizerTable, string, string][] = [];
  const pool = {
    submitted: 0,
    submit(table: TokenizerTable, text: string) {
      pool.submitted++;
      waiting.push([table, text]);
    },
    submitParts(table: TokenizerTable, parts: readonly Text[], key: string) {
      pool.submitted++;
      byParts.push([table, parts.map(textString).join(""), key]);
    },
    belowPending: () => Promise.resolve(),
    async finish() {
      for (const [table, text] of waiting.splice(0)) {
        const made = counts.get(table) ?? new Map<string, number>();
        counts.set(table, made);
        made.set(textDigest(text), table === "o200k" ? o200kCounter.count(text) : countClaudeVocabulary(text));
      }
      for (const [table, text, key] of byParts.splice(0)) {
        const made = counts.get(table) ?? new Map<string, number>();
        counts.set(table, made);
        made.set(key, table === "o200k" ? o200kCounter.count(text) : countClaudeVocabulary(text));
      }
      return counts;
    },
  };
  return pool;
}

describe.each(["pi/print-openai-autocompact", "claude/print-autocompact-manualcompact", "codex/exec-autocompact"])("the passes over %s as it grows", (caseName) => {
  const values = growingValues(caseName, 5);

  it.each(["estimate", "exact"] as const)("extend the %s rows to those of a pass from the first turn", async (pass) => {
    expect(values.length).toBeGreaterThan(2);
    const service = new PrefixService(values[0]!, () => true);
    let lastRows = 0;
    for (const [index, value] of values.entries()) {
      if (index > 0) service.grow(value);
      const analysis = analyzeSession(value, OPTIONS);
      const rows = await service.reports(OPTIONS, pass, analysis, KEY);
      const fresh = await new PrefixService(value, () => true).reports(OPTIONS, pass, analysis, KEY);
      expect(rows).toEqual(fresh);
      expect(rows.length).toBe(analysis.turns.length);
      lastRows = rows.length;
    }
    expect(lastRows).toBeGreaterThan(1);
  });

  it("extend the exact rows counted by a pool, asking it only for the new turns' texts", async () => {
    const pool = countingPool();
    const service = new PrefixService(values[0]!, () => true, pool);
    for (const [index, value] of values.entries()) {
      if (index > 0) service.grow(value);
      const analysis = analyzeSession(value, OPTIONS);
      const before = pool.submitted;
      const rows = await service.reports(OPTIONS, "exact", analysis, KEY);
      const freshPool = countingPool();
      const fresh = await new PrefixService(value, () => true, freshPool).reports(OPTIONS, "exact", analysis, KEY);
      expect(rows).toEqual(fresh);
      // Growing asks the pool for no more texts than a pass from the first turn would.
      if (index > 0) expect(pool.submitted - before).toBeLessThanOrEqual(freshPool.submitted);
    }
  });

  it("extend the composition rows to those of a pass from the first turn", async () => {
    const service = new PrefixService(values[0]!, () => true);
    for (const [index, value] of values.entries()) {
      if (index > 0) service.grow(value);
      const analysis = analyzeSession(value, OPTIONS);
      const rows = await service.sessionComposition(OPTIONS, KEY, analysis);
      expect(rows).toEqual(await new PrefixService(value, () => true).sessionComposition(OPTIONS, KEY, analysis));
      expect(rows.length).toBe(analysis.turns.length);
    }
  });
});
