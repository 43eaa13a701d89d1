// The byte-for-byte measure of docs/captures.md over every shared case: with the case's first main
// request attached as the capture, each recorded main request is matched to its turn and compared
// with the rebuilt one under JSON.stringify with sorted keys; every remaining difference must be a
// field the agent lists as not derivable. Summariser requests: replayed with the case's settings
// (as its README states them) and its captures given, each whole body must equal the recorded one.
import { describe, expect, it } from "vitest";
import type { PipelineOptions, ProfileId } from "../../src/core/model";
import { verifySession } from "../../src/app/captureVerify";
import { loadAnySession } from "../../src/cli/inputs";
import { learnCapture } from "../../src/core/session/captures";
import { checkCaptures, matchCaptureTurns } from "../../src/app/captureCheck";
import { replayRecordedCompactions, type LimitOverrides, type PolicyId, type PolicyParameters } from "../../src/core/session/simulate/index";
import { readSessionText } from "../../src/core/session/index";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describeShared, findSessionFile, type FixtureRoot } from "../support/fixtures";

interface Case {
  id: string;
  policy: PolicyId;
  parameters?: PolicyParameters;
  limits?: LimitOverrides;
  /** Main requests byte-equal with the first main request attached. */
  equal: number;
  /** The differing paths left, all classed "not derivable". */
  notDerivable: string[];
}

const TURN_START = '$.client_metadata["x-codex-turn-metadata"]<json>.turn_started_at_unix_ms';

const CASES: Case[] = [
  { id: "pi/print-openai-autocompact", policy: "pi", parameters: { reserveTokens: 11600, keepRecentTokens: 1800 }, limits: { contextWindow: 16000 }, equal: 15, notDerivable: [] },
  { id: "pi/rpc-anthropic-manualcompact", policy: "pi", parameters: { reserveTokens: 4000, keepRecentTokens: 40 }, equal: 15, notDerivable: [] },
  { id: "senpi/print-openai-autocompact", policy: "senpi", parameters: { reserveTokens: 4000, keepRecentTokens: 800 }, limits: { contextWindow: 28000, maxOutputTokens: 4000 }, equal: 15, notDerivable: [] },
  { id: "claude/print-autocompact-manualcompact", policy: "claude-code", parameters: { autoCompactWindow: 100000 }, equal: 15, notDerivable: [] },
  { id: "codex/exec-autocompact", policy: "codex", parameters: { autoCompactTokenLimit: 13500 }, equal: 0, notDerivable: [TURN_START] },
  { id: "opencode/run-autocompact", policy: "opencode", limits: { contextWindow: 15000, maxOutputTokens: 4000 }, equal: 17, notDerivable: [] },
];

function sessionOf(shared: FixtureRoot, id: string) {
  const fixture = shared.case(id);
  return readSessionText(readFileSync(fixture.sessionPath, "utf8"), path.basename(fixture.sessionPath));
}

describeShared("whole request bodies against the recorded ones, first main request attached", (shared) => {
  let mainEqual = 0;
  let mainTotal = 0;
  let summaryEqual = 0;
  let summaryTotal = 0;
  for (const item of CASES) {
    describe(item.id, () => {
      const fixture = shared.case(item.id);
      const session = sessionOf(shared, item.id);
      const mains = fixture.requests("main");
      const captures = mains.map((request) => ({ source: request.file, body: request.body as unknown }));
      const options: PipelineOptions = { profile: item.policy === "senpi" ? "senpi" : "pi", header: learnCapture(mains[0]!.body, mains[0]!.file) };

      it("matches every main request to its own turn by its conversation", () => {
        expect(matchCaptureTurns(session, options, captures)).toEqual(mains.map((_, i) => i + 1));
      });

      it(`rebuilds ${item.equal} of ${mains.length} whole bodies byte for byte; the rest differ only where not derivable`, () => {
        const results = checkCaptures(session, options, captures);
        const equal = results.filter((result) => result.equal).length;
        mainEqual += equal;
        mainTotal += results.length;
        expect(equal).toBe(item.equal);
        const left = [...new Set(results.flatMap((result) => result.differences.map((difference) => difference.path)))].sort();
        expect(left).toEqual(item.notDerivable);
        for (const result of results) for (const difference of result.differences) expect(difference.class, `${result.source} ${difference.path}`).toBe("not derivable");
      });

      it("rebuilds every recorded summariser request byte for byte with the case's settings and captures", () => {
        const captured = fixture.requests("summary").map((request) => ({ source: request.file, body: request.body as unknown }));
        const replay = { ...(item.parameters ? { parameters: item.parameters } : {}), ...(item.limits ? { limits: item.limits } : {}), captured };
        const lines = replayRecordedCompactions(session, options, item.policy, replay);
        let equal = 0;
        for (const line of lines) {
          line.summariserRequests.forEach((body, k) => {
            const source = line.matches[k]!.captured;
            const recorded = captured.find((c) => c.source === source)!.body;
            if (JSON.stringify(body) === JSON.stringify(recorded)) equal++;
          });
        }
        summaryEqual += equal;
        summaryTotal += captured.length;
        expect(equal).toBe(captured.length);
      });
    });
  }

  // Gemini CLI: its main requests are measured by `verify` below; its two compression requests
  // (the summary and the verification pass) replayed at the recorded point with the defaults its
  // README states (compressionThreshold 0.5 of gemini-2.5-flash's window).
  it("gemini-cli/p-resume-autocompress: rebuilds both compression requests byte for byte with its captures", () => {
    const fixture = shared.case("gemini-cli/p-resume-autocompress");
    const session = sessionOf(shared, "gemini-cli/p-resume-autocompress");
    const mains = fixture.requests("main");
    const captured = fixture.requests("summary").map((request) => ({ source: request.file, body: request.body as unknown }));
    const options: PipelineOptions = { header: learnCapture(mains[0]!.body, mains[0]!.file) };
    const lines = replayRecordedCompactions(session, options, "gemini-cli", { captured });
    const equal = lines.flatMap((line) => line.summariserRequests.map((body, k) => JSON.stringify(body) === JSON.stringify(captured.find((c) => c.source === line.matches[k]!.captured)?.body))).filter(Boolean).length;
    summaryEqual += equal;
    summaryTotal += captured.length;
    expect({ equal, total: captured.length }).toEqual({ equal: 2, total: 2 });
  });

  it("totals (docs/captures.md)", () => {
    expect({ mainEqual, mainTotal, summaryEqual, summaryTotal }).toEqual({ mainEqual: 77, mainTotal: 92, summaryEqual: 13, summaryTotal: 13 });
  });
});

// Every recording in ../shared/fixtures, its main requests verified the way `verify` does (facts
// only from the first main capture of each model; src/app/captureVerify.ts). The figures of
// docs/fidelity.md; a main request differing only where its agent declares a field not derivable
// is counted apart.
// Summariser and title captures (`aux`): equal, and not compared (pi: its summariser's output cap
// and cut come from settings the file does not hold; Qwen Code: no compaction read from its file).
interface Recording {
  id: string;
  profile?: ProfileId;
  session?: (dir: string) => string;
  equal: number;
  declared: number;
  total: number;
  aux: { equal: number; notCompared: number; total: number };
}

const ALL_RECORDINGS: Recording[] = [
  { id: "pi/print-openai-autocompact", equal: 15, declared: 0, total: 15, aux: { equal: 0, notCompared: 2, total: 2 } },
  { id: "pi/rpc-anthropic-manualcompact", equal: 15, declared: 0, total: 15, aux: { equal: 0, notCompared: 3, total: 3 } },
  { id: "senpi/print-openai-autocompact", profile: "senpi", equal: 15, declared: 0, total: 15, aux: { equal: 1, notCompared: 0, total: 1 } },
  { id: "claude/print-autocompact-manualcompact", equal: 15, declared: 0, total: 15, aux: { equal: 2, notCompared: 0, total: 2 } },
  { id: "codex/exec-autocompact", equal: 0, declared: 15, total: 15, aux: { equal: 1, notCompared: 0, total: 1 } },
  { id: "opencode/run-autocompact", session: (dir) => path.join(dir, "session/export.json"), equal: 17, declared: 0, total: 17, aux: { equal: 3, notCompared: 0, total: 3 } },
  { id: "deepseek-harness/headless-deepseek-manualcompact", session: (dir) => findSessionFile(path.join(dir, "session"), ".jsonl.zstd"), equal: 14, declared: 0, total: 14, aux: { equal: 2, notCompared: 0, total: 2 } },
  { id: "gemini-cli/p-resume-autocompress", equal: 15, declared: 0, total: 15, aux: { equal: 2, notCompared: 0, total: 2 } },
  // Qwen Code's max_tokens right after the compression is clamped to the room it leaves, rebuilt from the recorded counts.
  { id: "qwen-code/p-continue-autocompress", equal: 15, declared: 0, total: 15, aux: { equal: 1, notCompared: 0, total: 1 } },
];

describeShared("every recording's main requests, verified with the first capture of each model", (shared) => {
  const io = { stdout: () => {}, stderr: () => {}, readFile: (file: string) => new Uint8Array(readFileSync(file)) };
  const totals = { equal: 0, declared: 0, total: 0 };
  const auxTotals = { equal: 0, notCompared: 0, total: 0 };
  for (const item of ALL_RECORDINGS) {
    it(`${item.id}: ${item.equal} equal, ${item.declared} equal but for declared fields, of ${item.total}`, async () => {
      const fixture = shared.case(item.id);
      const session = await loadAnySession(io, item.session ? item.session(fixture.dir) : fixture.sessionPath);
      const captures = fixture.requests().map((request) => ({ source: request.file, body: request.body as unknown, kind: request.kind }));
      const results = verifySession(session, { profile: item.profile ?? "pi" }, captures);
      const mains = results.filter((result) => result.kind === "main");
      const figures = { equal: mains.filter((r) => r.verdict === "equal").length, declared: mains.filter((r) => r.verdict === "declared").length, total: mains.length };
      for (const key of ["equal", "declared", "total"] as const) totals[key] += figures[key];
      expect(figures).toEqual({ equal: item.equal, declared: item.declared, total: item.total });
      const others = results.filter((result) => result.kind === "summary" || result.kind === "title");
      const aux = { equal: others.filter((r) => r.verdict === "equal").length, notCompared: others.filter((r) => r.verdict === "not compared").length, total: others.length };
      for (const key of ["equal", "notCompared", "total"] as const) auxTotals[key] += aux[key];
      expect(aux).toEqual(item.aux);
      // A summariser or title capture equal to its rebuild is also equal under an independent byte comparison of sorted JSON.
      for (const result of others.filter((r) => r.verdict !== "not compared")) expect(result.verdict, `${item.id} ${result.source}`).toBe("equal");
    });
  }
  it("totals (docs/fidelity.md)", () => {
    expect(totals).toEqual({ equal: 121, declared: 15, total: 136 });
    expect(auxTotals).toEqual({ equal: 12, notCompared: 5, total: 17 });
  });
});
