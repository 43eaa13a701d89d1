// The facts of one session as the sessions library shows them in a row: its agent, the project
// it worked in, when it started and was last active, its turns, compactions, prefix breaks and
// cost. One walk of the default branch with the prefix analysis at estimated token counts (the
// library does not need exact counts to count breaks), its cost accumulated as it goes.
import type { PipelineOptions, Session } from "../core/model";
import { analyzeSession } from "../core/session/pipeline";
import { iterateSessionPrefixes } from "../core/session/sessionPrefixes";
import { fileLineage } from "../core/session/threads";
import { SessionCostAccumulator, type CostTotal } from "../core/pricing/index";
import { datasetPriceTable } from "../core/pricing/dataset";
import { agentInfo } from "../features/open/agentInfo";

export interface LibraryRowFacts {
  agent: string;
  /** The folder the agent worked in, as its file records it; null when it does not say. */
  project: string | null;
  started: string | null;
  lastActive: string | null;
  turns: number;
  compactions: number;
  breaks: number;
  /** The recorded usage priced; the cache simulation's prediction when nothing was recorded. */
  cost: CostTotal & { source: "recorded" | "predicted" };
  threads: number;
  warnings: number;
  /** The session the file is, and the session whose sub-agent it is (a Codex child rollout), as its agent says. */
  sessionId: string | null;
  parentSessionId: string | null;
}

const PIPELINE: PipelineOptions = { profile: "pi", leafId: null, api: null, header: null, notes: false };

/** Header fields agents use for the working folder (pi and Claude Code `cwd`, opencode `directory`). */
const PROJECT_KEYS = ["cwd", "directory", "project", "workdir"];

export function projectOf(session: Session): string | null {
  const header = session.header ?? {};
  for (const key of PROJECT_KEYS) {
    const value = (header as Record<string, unknown>)[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return null;
}

function timestamps(session: Session): { first: string | null; last: string | null } {
  let first: string | null = null;
  let last: string | null = null;
  for (const entry of session.entries) {
    if (!entry.timestamp) continue;
    first ??= entry.timestamp;
    last = entry.timestamp;
  }
  return { first, last };
}

export function libraryRowFacts(session: Session): LibraryRowFacts {
  const analysis = analyzeSession(session, PIPELINE);
  const turns = new Map(analysis.turns.map((turn) => [turn.turn, turn]));
  const cost = new SessionCostAccumulator(datasetPriceTable());
  let breaks = 0;
  let recorded = false;
  for (const report of iterateSessionPrefixes(session, PIPELINE, { analysis, prefix: { tokenizer: "estimate" } })) {
    const turn = turns.get(report.turn);
    cost.add(report, turn?.model ?? null, turn?.timestamp);
    if (report.cause !== null) breaks++;
    if (report.recordedUsage) recorded = true;
  }
  const totals = cost.totals();
  const { first, last } = timestamps(session);
  const lineage = fileLineage(session);
  return {
    agent: agentInfo(session)?.label ?? session.formatLabel,
    project: projectOf(session),
    started: first,
    lastActive: last,
    turns: analysis.turns.length,
    compactions: analysis.timeline.filter((item) => item.kind === "compaction").length,
    breaks,
    cost: recorded ? { ...totals.recorded, source: "recorded" } : { ...totals.predicted, source: "predicted" },
    threads: session.threads?.length ?? 0,
    warnings: session.warnings.length + analysis.warnings.length,
    sessionId: lineage.id,
    parentSessionId: lineage.parentId,
  };
}
