// Runs one input through every stage a user can reach, the way the app and the CLI call them:
// reading, analysis, every turn's request (the one-walk builder and the per-turn builder, which
// must agree on the turns), each provider shape, prefix analysis, the compaction simulator and
// the recorded-compaction replay, redacted JSON and curl export, and a share link round trip.
// Pure (no Node or DOM): the worker-thread runner and the Vitest subset both call it. An error
// thrown from here is a crash the fuzz run reports.
import { buildShare, exportRequest, sessionFromPayload } from "../../src/app/shareExport";
import { findAgent } from "../../src/core/session/agents";
import { API_IDS, type PipelineOptions, type Session } from "../../src/core/model";
import { analyzeSession, buildTurnRequest } from "../../src/core/session/pipeline";
import { iterateTurnRequests } from "../../src/core/session/turnRequests";
import { iterateSessionPrefixes } from "../../src/core/session/sessionPrefixes";
import { readSessionText } from "../../src/core/session/index";
import { decodeShareLink } from "../../src/core/share/fragment";
import { replayRecordedCompactions, simulateCompaction } from "../../src/core/session/simulate/index";
import { HEAVY_FAMILIES } from "./mutators";
import { loadTokenizerTables } from "../../src/core/tokens/tables";

// The core counts synchronously once the hosts have loaded the tokenizer tables.
await loadTokenizerTables(["o200k", "claude"]);

export interface ExerciseResult {
  session: Session;
  turns: number;
  /** Stages that ran, in order (for the report). */
  stages: string[];
}

export interface ExerciseOptions {
  /** Pick between the agent's profiles and provider shapes. */
  variant: number;
  /**
   * How many stages to run: "read" (reading and analysis), "build" (+ the turn-request agreement
   * and one request per provider shape), "view" (+ every turn's request, prefix analysis,
   * redacted export), "all" (+ simulator, recorded replay, share link round trip). Default "all".
   */
  depth?: ExerciseDepth;
}

/** The stage name is kept so that a crash report says where it happened. */
export class StageError extends Error {
  constructor(
    readonly stage: string,
    readonly original: unknown,
  ) {
    super(`${stage}: ${original instanceof Error ? `${original.name}: ${original.message}` : String(original)}`);
    if (original instanceof Error && original.stack) this.stack = `${this.message}\n${original.stack}`;
  }
}

/** Milliseconds spent per stage over the whole run (for tuning the harness). */
export const STAGE_MS = new Map<string, number>();

function stage<T>(stages: string[], name: string, run: () => T): T {
  stages.push(name);
  const started = Date.now();
  try {
    return run();
  } catch (error) {
    throw new StageError(name, error);
  } finally {
    STAGE_MS.set(name, (STAGE_MS.get(name) ?? 0) + Date.now() - started);
  }
}

export type ExerciseDepth = "read" | "build" | "view" | "all";

/**
 * How far one input goes, from its seed: every input is read and analysed; one in two also builds
 * requests (the turn-request agreement, one request per provider shape), one in eight gets the
 * view stages and one in thirty-two every stage. A run so covers many inputs and still reaches
 * the slow stages thousands of times. Huge inputs stop after the view stages.
 */
export function depthFor(seed: number, family: string): ExerciseDepth {
  if (HEAVY_FAMILIES.has(family)) return "view";
  if (seed % 32 === 0) return "all";
  if (seed % 8 === 0) return "view";
  return seed % 2 === 0 ? "build" : "read";
}

export function exerciseInput(fileName: string, text: string, options: ExerciseOptions): ExerciseResult {
  const stages: string[] = [];
  const session = stage(stages, "read", () => readSessionText(text, fileName));
  if (session.entries.length === 0) return { session, turns: 0, stages };
  const agent = findAgent(session.formatId);
  const profiles = agent?.profiles ?? [];
  const profile = profiles.length > 0 ? profiles[options.variant % profiles.length]!.id : "pi";
  const pipeline: PipelineOptions = { profile, notes: options.variant % 3 === 0 };
  const analysis = stage(stages, "analyze", () => analyzeSession(session, pipeline));
  const turns = analysis.turns.length;
  const depth = options.depth ?? "all";
  if (depth === "read") return { session, turns, stages };

  if (turns === 0) return { session, turns, stages };
  const last = turns;
  const some = 1 + (options.variant % turns);
  stage(stages, "request-turn", () => {
    buildTurnRequest(session, pipeline, last);
    buildTurnRequest(session, pipeline, some);
  });
  const api = API_IDS[options.variant % API_IDS.length]!;
  stage(stages, "provider-shape", () => JSON.stringify(buildTurnRequest(session, { ...pipeline, api }, some).body));
  if (depth === "build") return { session, turns, stages };

  let walked = 0;
  stage(stages, "requests", () => {
    for (const built of iterateTurnRequests(session, pipeline)) {
      walked++;
      void built;
    }
  });
  if (walked !== turns) throw new StageError("requests", new Error(`the analysis has ${turns} turns, the request walk ${walked}`));
  stage(stages, "prefix", () => {
    for (const report of iterateSessionPrefixes(session, pipeline, { analysis, prefix: { tokenizer: "estimate" } })) void report;
  });
  stage(stages, "export", () => {
    exportRequest(session, pipeline, { target: { kind: "turn", turn: some }, format: "json", redact: true, unmasked: [] });
    exportRequest(session, pipeline, { target: { kind: "turn", turn: last }, format: "curl", redact: true, unmasked: [] });
  });
  if (depth === "view") return { session, turns, stages };

  const policies = agent?.policies ?? [];
  if (policies.length > 0) {
    const policy = policies[options.variant % policies.length]!;
    stage(stages, "simulate", () => simulateCompaction({ session, options: pipeline, turn: some, policyId: policy.id, followingTurns: 1 }));
    if (agent?.recorded) stage(stages, "replay-recorded", () => replayRecordedCompactions(session, pipeline, policy.id));
  }
  stage(stages, "share", () => {
    const share = buildShare(session, pipeline, { turn: some, tab: "request", scope: options.variant % 2 === 0 ? "branch" : "full", redact: true, unmasked: [], pageUrlChars: 40 }, analysis);
    if (share.fragment === null) return;
    const decoded = decodeShareLink(share.fragment);
    if (!decoded.ok) throw new Error(`a link we made does not open: ${decoded.error.message}`);
    const reopened = sessionFromPayload(decoded.payload);
    analyzeSession(reopened, pipeline);
  });
  return { session, turns, stages };
}

/**
 * Lines of the input that are byte-identical to a line the unmutated fixture read as an entry,
 * yet are neither an entry nor named by a warning in the mutated session: a valid line lost.
 */
export function lostValidLines(validLines: ReadonlySet<string>, text: string, session: Session): number[] {
  const entryLines = new Set(session.entries.map((entry) => entry.line));
  const warned = new Set(session.warnings.map((warning) => warning.line));
  const lost: number[] = [];
  const lines = text.split("\n").map((line) => line.replace(/\r$/, ""));
  // A line that repeats, byte for byte, a line read as an entry carries nothing new: a reader may
  // skip such a copy on purpose (Claude Code re-writes earlier lines when a session is resumed).
  const readTexts = new Set([...entryLines].map((line) => lines[line - 1]).filter((line): line is string => line !== undefined));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!validLines.has(line)) continue;
    if (!entryLines.has(i + 1) && !warned.has(i + 1) && !readTexts.has(line)) lost.push(i + 1);
  }
  return lost;
}

/**
 * The lines of a fixture that its reader turns into entries, one each; null for files that are
 * not read line by line (an opencode export is one JSON document), where no line can be lost.
 */
export function validLinesOf(fileName: string, text: string): Set<string> | null {
  const session = readSessionText(text, fileName);
  const lines = text.split("\n").map((line) => line.replace(/\r$/, ""));
  const byLine = session.entries.filter((entry) => entry.line > 0);
  if (byLine.length === 0 || new Set(byLine.map((e) => e.line)).size !== byLine.length) return null;
  const valid = new Set<string>();
  for (const entry of byLine) {
    const line = lines[entry.line - 1];
    if (line !== undefined && line.trim().startsWith("{")) valid.add(line);
  }
  return valid.size > 0 ? valid : null;
}
