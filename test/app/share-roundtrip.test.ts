// Property: a share link reopens exactly what was shared. For every shared recording and real
// file of ../shared/fixtures, and the newer agents' files of test/fixtures, links are made (unredacted, so the bytes can be compared) at the
// first and last turn and at the first turn after each compaction, in both scopes; each link is
// decoded and its session read back as the page reads it. The reopened session must say nothing
// about the link itself (no warning the original has not), have the shared turn under the same
// number, and every turn of the shared scope must have the original's model and request — its
// tools, system prompt and messages — byte for byte; the full scope keeps every turn and thread.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildShare, sessionFromPayload } from "../../src/app/shareExport";
import { loadAnySession } from "../../src/cli/inputs";
import type { CliIo } from "../../src/cli/io";
import type { PipelineOptions, Session } from "../../src/core/model";
import { decodeShareLink } from "../../src/core/share/fragment";
import { analyzeSession, buildTurnRequest } from "../../src/core/session/pipeline";
import { stringifyWithTexts } from "../../src/core/text/text";
import { describeShared, fixturePath } from "../support/fixtures";

const io: CliIo = { stdout: () => undefined, stderr: () => undefined, readFile: (file) => readFileSync(file) };
const OPTIONS: PipelineOptions = { leafId: null };

/** Every session file under `dir` (a recording's session/ folder or a real file's folder). */
function sessionFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sessionFiles(full);
    return /\.(jsonl|jsonl\.zstd|db|json)$/.test(name) && !/(^projects|^logs|dump|-dump|export\.json$)/.test(name) ? [full] : [];
  });
}

interface Input {
  label: string;
  file: string;
  sessionId?: string;
}

function inputs(root: string): Input[] {
  const out: Input[] = [];
  const recordings = ["pi", "senpi", "claude", "codex", "deepseek-harness", "gemini-cli", "qwen-code", "opencode"].flatMap((agent) =>
    readdirSync(path.join(root, agent)).map((name) => path.join(root, agent, name, "session")),
  );
  for (const dir of recordings) for (const file of sessionFiles(dir)) out.push({ label: path.relative(root, file), file });
  // hermes-agent's database: each of its sessions; its snapshots beside it.
  for (const sessionId of ["20261201_090624_3e9952", "20261201_090624_d1fb52", "20261201_090624_dbb368"]) {
    out.push({ label: `hermes-storage/state.db ${sessionId}`, file: path.join(root, "hermes-storage/state.db"), sessionId });
  }
  for (const file of sessionFiles(path.join(root, "hermes-storage/sessions"))) out.push({ label: path.relative(root, file), file });
  for (const file of sessionFiles(path.join(root, "realworld"))) out.push({ label: path.relative(root, file), file });
  // The newer agents' recordings and fixtures of our own (test/fixtures).
  for (const relative of ["kilo/run-autocompact/session/kilo.db", "kimi-code/run-autocompact/session/wire.jsonl", "copilot-cli/recording-1.0.102/events.jsonl", "crush/hand-made/crush.db"]) {
    out.push({ label: `test/fixtures/${relative}`, file: fixturePath(relative) });
  }
  return out;
}

/** The turns a link is made at: the first, the last, and the first after each compaction. */
function linkTurns(session: Session): number[] {
  const analysis = analyzeSession(session, OPTIONS);
  const turns = new Set<number>();
  if (analysis.turns.length > 0) turns.add(1).add(analysis.turns.length);
  for (const item of analysis.timeline) if (item.kind === "compaction" && item.beforeTurn !== null) turns.add(item.beforeTurn);
  return [...turns].sort((a, b) => a - b);
}

function reopen(session: Session, turn: number, scope: "branch" | "full"): Session {
  const link = buildShare(session, OPTIONS, { turn, tab: "request", scope, redact: false, unmasked: [], pageUrlChars: 0 });
  expect(link.fragment, link.error).not.toBeNull();
  const decoded = decodeShareLink(link.fragment!, { maxBytes: 512 * 1024 * 1024 });
  if (!decoded.ok) throw new Error(decoded.error.message);
  return sessionFromPayload(decoded.payload);
}

/** The request of `turn` as text (stored texts written out, so a session read from a file and one read from a link compare). */
const bodyOf = (session: Session, turn: number) => stringifyWithTexts(buildTurnRequest(session, OPTIONS, turn).body);

describeShared("a share link reopens exactly what was shared", (shared) => {
  for (const input of inputs(shared.dir)) {
    describe(input.label, () => {
      it("in both scopes: the same turn, model and request, no warning about the link", { timeout: 300_000 }, async () => {
        const session = await loadAnySession(io, input.file, input.sessionId ?? null);
        const original = analyzeSession(session, OPTIONS);
        const originalWarnings = new Set(session.warnings.map((warning) => warning.reason));
        for (const scope of ["full", "branch"] as const) {
          for (const turn of linkTurns(session)) {
            const where = `${scope} link at turn ${turn}`;
            const reopened = reopen(session, turn, scope);
            expect(reopened.entries.length, `${where}: entries`).toBeGreaterThan(0);
            expect(reopened.warnings.map((warning) => warning.reason).filter((reason) => !originalWarnings.has(reason)), `${where}: warnings`).toEqual([]);
            const again = analyzeSession(reopened, OPTIONS);
            // A branch link holds the turns up to the shared one (more only when no smaller cut reproduces it).
            const last = scope === "full" ? original.turns.length : turn;
            if (scope === "full") expect(again.turns.length, `${where}: turns`).toBe(last);
            else expect(again.turns.length, `${where}: turns`).toBeGreaterThanOrEqual(last);
            for (const shown of new Set([1, turn, last])) {
              expect(again.turns[shown - 1]?.model ?? null, `${where}: model of turn ${shown}`).toEqual(original.turns[shown - 1]?.model ?? null);
              const same = bodyOf(reopened, shown) === bodyOf(session, shown);
              expect(same, `${where}: request of turn ${shown}`).toBe(true);
            }
            if (scope === "full") expect((reopened.threads ?? []).map((thread) => thread.id), `${where}: threads`).toEqual((session.threads ?? []).map((thread) => thread.id));
          }
        }
      });
    });
  }
});
