// What the worker sends the page when a followed session grows (src/app/analysisDelta.ts): the
// analysis before, with the delta applied, equals the analysis of the grown session — for agents
// that keep the earlier turn summaries (pi) and those that rebuild them (Claude Code, Codex) — and
// the delta carries only the changed tail.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analysisDelta, applyAnalysisDelta } from "../../src/app/analysisDelta";
import type { PipelineOptions, Session } from "../../src/core/model";
import { SessionFollower } from "../../src/core/session/follow";
import { analyzeSession, type SessionAnalysis } from "../../src/core/session/pipeline";
import { fixtureCase } from "../support/fixtures";

const decoder = new TextDecoder();
const OPTIONS: PipelineOptions = { profile: "pi", leafId: null, api: null, header: null, notes: false };

/** The session values a follower hands out as the file grows line by line (at most `limit` of them). */
function growingValues(caseName: string): Session[] {
  const bytes = new Uint8Array(readFileSync(fixtureCase(caseName).sessionPath));
  const follower = new SessionFollower(path.basename(fixtureCase(caseName).sessionPath), (chunk) => decoder.decode(chunk));
  const values: Session[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const newline = bytes.indexOf(0x0a, offset);
    const at = newline < 0 ? bytes.length : newline + 1;
    follower.append(bytes.subarray(offset, at));
    offset = at;
    const value = follower.session();
    if (value && value.entries.length > 0) values.push(value);
  }
  return values;
}

/** The analysis as the page receives it (a structured clone, as postMessage makes). */
function received(analysis: SessionAnalysis): SessionAnalysis {
  return structuredClone(analysis);
}

describe.each(["pi/print-openai-autocompact", "claude/print-autocompact-manualcompact", "codex/exec-autocompact"])("the analysis of %s grown line by line", (caseName) => {
  it("is the analysis before with each delta appended", () => {
    const values = growingValues(caseName);
    expect(values.length).toBeGreaterThan(3);
    let sent = analyzeSession(values[0]!, OPTIONS);
    let shown = received(sent);
    let appendedTurns = 0;
    for (const value of values.slice(1)) {
      const next = analyzeSession(value, OPTIONS);
      const delta = structuredClone(analysisDelta(sent, next));
      // Only the changed tail travels: the turns before it are the ones already shown.
      expect(delta.turns.from + delta.turns.items.length).toBe(next.turns.length);
      expect(delta.turns.items.length).toBeLessThanOrEqual(Math.max(0, next.turns.length - sent.turns.length) + 1);
      const grown = applyAnalysisDelta(shown, delta);
      expect(grown).not.toBeNull();
      expect(grown).toEqual(received(next));
      // The rows before the tail stay the objects the page already holds.
      for (let index = 0; index < delta.turns.from; index++) expect(grown!.turns[index]).toBe(shown.turns[index]);
      appendedTurns += Math.max(0, next.turns.length - sent.turns.length);
      sent = next;
      shown = grown!;
    }
    expect(appendedTurns).toBeGreaterThan(0);
  });
});

describe("a delta applied to another analysis than its own", () => {
  it("is refused, so the page asks for the whole analysis", () => {
    const values = growingValues("pi/print-openai-autocompact");
    const first = analyzeSession(values[0]!, OPTIONS);
    const last = analyzeSession(values[values.length - 1]!, OPTIONS);
    const delta = analysisDelta(first, last);
    expect(applyAnalysisDelta(last, delta)).toBeNull();
    expect(applyAnalysisDelta(first, delta)).toEqual(last);
  });
});
