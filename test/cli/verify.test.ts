// `verify` on every recording in ../shared/fixtures: its session, and its requests/ as the captures.
// Every verdict is checked against a byte comparison done here, not through our diff code: the
// recorded body and the body rebuilt for the turn (or auxiliary row) verify named, each written
// with JSON.stringify after this file's own key sort; "equal" exactly when the two strings are
// equal. Facts are given as verify documents it takes them: the first main capture of each model.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { PipelineOptions, ProfileId, RequestHeader, Session } from "../../src/core/model";
import { learnCapture } from "../../src/core/session/captures";
import { buildTurnRequest, countTurns } from "../../src/core/session/pipeline";
import { findAgent } from "../../src/core/session/agents";
import { loadAnySession } from "../../src/cli/inputs";
import { decodeStoredText, isStoredText } from "../../src/core/text/storedText";
import { runCliCaptured } from "./cli-helpers";
import { describeShared, findSessionFile } from "../support/fixtures";

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

function rebuiltFor(session: Session, options: PipelineOptions, line: Record<string, unknown>): unknown {
  if (typeof line.turn === "number") return buildTurnRequest(session, options, line.turn).body;
  return findAgent(session.formatId)!.auxiliary!.build(session, options, line.auxiliary as number).request.body;
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
          if (line.turn === null && line.auxiliary === undefined) {
            expect(["unmatched", "not compared"], label).toContain(line.verdict);
            // Nothing we rebuild for a turn is this body.
            for (let turn = 1; turn <= countTurns(session, options); turn++) expect(canonical(buildTurnRequest(session, options, turn).body) === recorded, `${label} turn ${turn}`).toBe(false);
            continue;
          }
          const same = canonical(rebuiltFor(session, options, line)) === recorded;
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
      // Qwen Code: 010 (right after the automatic compression) has a clamped max_tokens the chat file does not hold.
      "qwen-code/p-continue-autocompress": "14 of 15 turns equal to the wire",
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
    // opencode's title and summariser prompts are not in its file: those rows differ.
    const opencode = shared.case("opencode/run-autocompact");
    const differs = await runCliCaptured(["verify", path.join(opencode.dir, "session/export.json"), "--captures", opencode.dir, "--fail-on", "differs"]);
    expect(differs.code).toBe(1);
    expect(differs.lines.at(-1)).toMatchObject({ differs: 3, turns: { equal: 17, total: 17 } });
  });
});
