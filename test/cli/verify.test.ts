// `verify` on every recording in ../shared/fixtures: its session, and its requests/ as the captures.
// Every verdict is checked against a byte comparison done here, not through our diff code: the
// recorded body and the body rebuilt for the turn (or auxiliary row) verify named, each written
// with JSON.stringify after this file's own key sort; "equal" exactly when the two strings are
// equal. Facts are given as verify documents it takes them: the first main capture of each model.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { PipelineOptions, ProfileId, RequestHeader, Session } from "../../src/core/model";
import { learnCapture } from "../../src/core/session/captures";
import { buildTurnRequest, countTurns } from "../../src/core/session/pipeline";
import { findAgent } from "../../src/core/session/agents";
import { loadAnySession } from "../../src/cli/inputs";
import { decodeStoredText, isStoredText } from "../../src/core/text/storedText";
import { runCliCaptured } from "./cli-helpers";
import { getPolicy, mergeSlotValues, rebuildRecordedCompaction, recordedCompactionPoints, recordedCompactionPolicy } from "../../src/core/session/simulate/index";
import { describeShared, findSessionFile, type FixtureCase } from "../support/fixtures";

interface Case {
  id: string;
  profile?: ProfileId;
  /** The session file, when it is not the case's first .jsonl. */
  session?: (dir: string) => string;
}

const CASES: Case[] = [
  { id: "pi/print-openai-autocompact" },
  { id: "pi/rpc-anthropic-manualcompact" },
  { id: "senpi/print-openai-autocompact", profile: "senpi" },
  { id: "claude/print-autocompact-manualcompact" },
  { id: "codex/exec-autocompact" },
  { id: "opencode/run-autocompact", session: (dir) => path.join(dir, "session/export.json") },
  { id: "deepseek-harness/headless-deepseek-manualcompact", session: (dir) => findSessionFile(path.join(dir, "session"), ".jsonl.zstd") },
  { id: "gemini-cli/p-resume-autocompress" },
  { id: "qwen-code/p-continue-autocompress" },
];

/** This test's own canonical form: keys sorted, stored texts as their strings. */
function canonical(value: unknown): string {
  const sort = (item: unknown): unknown => {
    if (isStoredText(item)) return decodeStoredText(item);
    if (Array.isArray(item)) return item.map(sort);
    if (item !== null && typeof item === "object") {
      const record = item as Record<string, unknown>;
      return Object.fromEntries(Object.keys(record).sort().map((key) => [key, sort(record[key])]));
    }
    return item;
  };
  return JSON.stringify(sort(value));
}

const io = {
  stdout: () => {},
  stderr: () => {},
  readFile: (file: string) => new Uint8Array(readFileSync(file)),
};

function factsOf(dir: string): Pick<PipelineOptions, "header" | "captures"> {
  const learnt: RequestHeader[] = [];
  const models = new Set<string>();
  for (const name of readdirSync(dir).filter((file) => /^\d{3}\.json$/.test(file)).sort()) {
    const meta = JSON.parse(readFileSync(path.join(dir, name.replace(".json", ".meta.json")), "utf8")) as { kind: string };
    if (meta.kind !== "main") continue;
    const header = learnCapture(JSON.parse(readFileSync(path.join(dir, name), "utf8")), name);
    if (models.has(header.model ?? "")) continue;
    models.add(header.model ?? "");
    learnt.push(header);
  }
  return { header: learnt[0] ?? null, captures: learnt.slice(1) };
}

/** The captures of one kind ("summary", "title"), in order: what verify teaches an auxiliary rebuild with. */
function capturesOfKind(fixture: FixtureCase, kind: unknown): { source: string; body: unknown }[] {
  return fixture.requests(String(kind)).map((request) => ({ source: request.file, body: request.body as unknown }));
}

function rebuiltFor(session: Session, options: PipelineOptions, line: Record<string, unknown>, fixture: FixtureCase): unknown {
  if (typeof line.turn === "number") return buildTurnRequest(session, options, line.turn).body;
  return findAgent(session.formatId)!.auxiliary!.build(session, options, line.auxiliary as number, capturesOfKind(fixture, line.type)).request.body;
}

/** Every summariser request rebuilt at the session's recorded compactions, the instruction texts from the case's summary captures. */
function rebuiltSummaries(session: Session, options: PipelineOptions, fixture: FixtureCase): string[] {
  const captures = capturesOfKind(fixture, "summary");
  return recordedCompactionPoints(session, options).flatMap((point) => {
    const policyId = recordedCompactionPolicy(session, point.entryId);
    if (policyId === null) return [];
    const policy = getPolicy(policyId);
    const instructions = mergeSlotValues(...captures.map((c) => policy.readCaptured?.(c.body, c.source)?.values ?? policy.extractInstructions?.(c.body, c.source)));
    return rebuildRecordedCompaction(session, options, point.entryId, { instructions }).requests.map((request) => canonical(request.body));
  });
}

describeShared("verify against an independent byte comparison", (shared) => {
  const totals: Record<string, string> = {};
  for (const item of CASES) {
    describe(item.id, () => {
      it("each verdict agrees with JSON.stringify of the recorded and the rebuilt body", async () => {
        const fixture = shared.case(item.id);
        const sessionPath = item.session ? item.session(fixture.dir) : fixture.sessionPath;
        const run = await runCliCaptured(["verify", sessionPath, "--captures", fixture.dir, ...(item.profile ? ["--profile", item.profile] : [])]);
        expect(run.code, run.stderr).toBe(0);
        const lines = run.lines.filter((line) => line.kind === "verify");
        expect(lines.map((line) => line.capture)).toEqual(fixture.requests().map((request) => request.file));
        const session = await loadAnySession(io, sessionPath);
        const options: PipelineOptions = { profile: item.profile ?? "pi", ...factsOf(fixture.requestsDir) };
        for (const line of lines) {
          const recorded = canonical(JSON.parse(fixture.requestText(Number(String(line.capture).slice(0, 3)))));
          const label = `${item.id} ${String(line.capture)}: ${String(line.verdict)}`;
          if (line.turn === null && line.auxiliary === undefined && line.type === "summary" && line.verdict !== "not compared") {
            // A summariser request paired with a recorded compaction: equal exactly when one rebuilt there is this body.
            expect(rebuiltSummaries(session, options, fixture).includes(recorded), label).toBe(line.verdict === "equal");
            continue;
          }
          if (line.turn === null && line.auxiliary === undefined) {
            expect(["unmatched", "not compared"], label).toContain(line.verdict);
            // Nothing we rebuild for a turn is this body.
            for (let turn = 1; turn <= countTurns(session, options); turn++) expect(canonical(buildTurnRequest(session, options, turn).body) === recorded, `${label} turn ${turn}`).toBe(false);
            continue;
          }
          const same = canonical(rebuiltFor(session, options, line, fixture)) === recorded;
          expect(same, label).toBe(line.verdict === "equal");
          if (line.verdict === "declared") expect((line.declared as unknown[]).length, label).toBeGreaterThan(0);
          if (line.verdict === "differs") expect(line.difference, label).toMatchObject({ part: expect.any(String), offset: expect.any(Number) });
        }
        const summary = run.lines.at(-1)!;
        totals[item.id] = String(summary.text);
      });
    });
  }
  it("per case (docs/fidelity.md)", () => {
    expect(totals).toEqual({
      "pi/print-openai-autocompact": "15 of 15 turns equal to the wire",
      "pi/rpc-anthropic-manualcompact": "15 of 15 turns equal to the wire",
      "senpi/print-openai-autocompact": "15 of 15 turns equal to the wire",
      "claude/print-autocompact-manualcompact": "15 of 15 turns equal to the wire",
      "codex/exec-autocompact": "15 of 15 turns equal to the wire (15 but for fields declared not derivable)",
      "opencode/run-autocompact": "17 of 17 turns equal to the wire",
      "deepseek-harness/headless-deepseek-manualcompact": "14 of 14 turns equal to the wire",
      "gemini-cli/p-resume-autocompress": "15 of 15 turns equal to the wire",
      // Qwen Code: 010, right after the automatic compression, is sent with max_tokens clamped to 4,000.
      "qwen-code/p-continue-autocompress": "15 of 15 turns equal to the wire",
    });
  });
});

describeShared("verify exit status", (shared) => {
  it("--fail-on differs: 0 when every difference is declared, 1 when a capture differs", async () => {
    const codex = shared.case("codex/exec-autocompact");
    const declared = await runCliCaptured(["verify", codex.sessionPath, "--captures", codex.dir, "--fail-on", "differs"]);
    expect(declared.code).toBe(0);
    expect(declared.lines.at(-1)).toMatchObject({ declaredFields: ['$.client_metadata["x-codex-turn-metadata"]<json>.turn_started_at_unix_ms'] });
    const strict = await runCliCaptured(["verify", codex.sessionPath, "--captures", codex.dir, "--fail-on", "declared"]);
    expect(strict.code).toBe(1);
    // opencode's recording verifies whole (main, title and summariser requests); one capture
    // edited where no capture teaches (a later main request's max_tokens) makes it differ.
    const opencode = shared.case("opencode/run-autocompact");
    const session = path.join(opencode.dir, "session/export.json");
    const clean = await runCliCaptured(["verify", session, "--captures", opencode.dir, "--fail-on", "differs"]);
    expect(clean.code).toBe(0);
    expect(clean.lines.at(-1)).toMatchObject({ differs: 0, equal: 20, turns: { equal: 17, total: 17 } });
    const edited = mkdtempSync(path.join(tmpdir(), "verify-edited-"));
    try {
      cpSync(opencode.requestsDir, edited, { recursive: true });
      const body = JSON.parse(readFileSync(path.join(edited, "005.json"), "utf8")) as Record<string, unknown>;
      writeFileSync(path.join(edited, "005.json"), JSON.stringify({ ...body, max_tokens: 1234 }));
      const differs = await runCliCaptured(["verify", session, "--captures", edited, "--fail-on", "differs"]);
      expect(differs.code).toBe(1);
      expect(differs.lines.at(-1)).toMatchObject({ differs: 1, turns: { equal: 16, total: 17 } });
    } finally {
      rmSync(edited, { recursive: true, force: true });
    }
  });
});
