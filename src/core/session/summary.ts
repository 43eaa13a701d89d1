// A session's summary from its files' lines alone (`scan` without `--full`): the agent detected
// from the first file's first lines, and when its descriptor has a `summarize`, each file summarised
// in one pass — the first file is the session, the others its sub-agent files (each file's calls
// one thread, as `linkFiles` joins them). Calls are counted and priced the way the full pipeline's
// whole-session cost counts them (src/app/sessionPrices.ts): a call whose ids an earlier thread
// holds already is counted there only. Null when an agent has no summariser: the caller runs the
// full pipeline.
import { detectAgent, DETECTION_LINE_COUNT } from "./read";
import { findAgent } from "./agents";
import type { AgentDescriptor } from "../agents/descriptor";
import type { LineWanted, SessionSummary, SummaryCall, SummaryLines } from "../agents/descriptor";
import type { CostTurn, ThreadCostInput } from "../pricing/index";
import { providerReportedBreak } from "../prefix/server-verdict";

/** A file of the session: its name and a way to walk its lines (called once per pass). */
export interface SummaryFile {
  name: string;
  lines: SummaryLines;
  /** The agent its first lines were already detected as (a scan's discovery); absent or null: detected here. */
  agentId?: string | null;
}

/** The lines of `lines` that `wanted` accepts (or all of them), asked of each line's text. */
export function* wantedLines(lines: Iterable<string>, wanted?: LineWanted): Generator<string> {
  for (const line of lines) if (!wanted || wanted((marker) => line.includes(marker), (length) => line.slice(0, length))) yield line;
}

export interface SessionSummaryResult {
  /** The agent's id (`Session.formatId`). */
  agent: string;
  /** The main thread's calls. */
  turns: number;
  compactions: number;
  /** Sub-agent threads: those the file holds or names, and the sub-agent files read with it. */
  threads: number;
  project: string | null;
  /** Main-thread calls whose cache break the provider reported (its verdict, or its recorded usage). */
  reportedBreaks: number;
  /** Every thread's calls, to price (`wholeSessionCost`). */
  costInputs: ThreadCostInput[];
}

function firstLines(file: SummaryFile): string[] {
  const out: string[] = [];
  for (const line of file.lines()) {
    if (line.trim() === "") continue;
    out.push(line);
    if (out.length >= DETECTION_LINE_COUNT) break;
  }
  return out;
}

/** The file's agent: the one already detected, else the one its first lines say. */
function agentOfFile(file: SummaryFile): AgentDescriptor | null {
  const known = file.agentId ? findAgent(file.agentId) : null;
  return known ?? detectAgent(firstLines(file), file.name);
}

function reportedBreaks(calls: readonly SummaryCall[]): number {
  let breaks = 0;
  let previousInput: number | null = null;
  calls.forEach((call, index) => {
    if (index > 0 && providerReportedBreak(call.verdict, call.usage, previousInput)) breaks++;
    previousInput = call.usage ? call.usage.input + call.usage.cacheRead + call.usage.cacheWrite : null;
  });
  return breaks;
}

const costTurn = (call: SummaryCall): CostTurn => ({ model: call.model, at: call.at, usage: call.usage, ...(call.callId ? { callId: call.callId } : {}) });

/** The session's summary, or null when an agent of its files has no summariser. */
export function summarizeSession(files: readonly SummaryFile[]): SessionSummaryResult | null {
  const [main, ...others] = files;
  if (!main) return null;
  const agent = agentOfFile(main);
  if (!agent?.summarize) return null;
  const summaries: SessionSummary[] = [agent.summarize(main.lines, main.name)];
  for (const file of others) {
    if (agentOfFile(file) !== agent) return null;
    summaries.push(agent.summarize(file.lines, file.name));
  }
  const first = summaries[0]!;
  const counted = new Set<string>();
  const mainTurns = [...first.main, ...(first.auxiliary ?? [])].map(costTurn);
  for (const turn of mainTurns) if (turn.callId) counted.add(turn.callId);
  // A sub-agent's own file is its thread: the main file's thread of the same agent (its progress copies, or none) goes.
  const fileAgents = new Set(summaries.slice(1).flatMap((summary) => (summary.agentId !== null ? [summary.agentId] : [])));
  const threads: { id: string; calls: SummaryCall[] }[] = first.threads.filter((thread) => !fileAgents.has(thread.id));
  others.forEach((file, index) => {
    const summary = summaries[index + 1]!;
    threads.push({ id: summary.agentId ?? file.name, calls: [...summary.main, ...(summary.auxiliary ?? []), ...summary.threads.flatMap((thread) => thread.calls)] });
  });
  const costInputs: ThreadCostInput[] = [{ id: null, label: "Main thread", turns: mainTurns }];
  for (const thread of threads) {
    const input: ThreadCostInput = { id: thread.id, label: thread.id, turns: [] };
    for (const turn of thread.calls.map(costTurn)) {
      // A call another thread's file holds already (the same ids) was sent and paid once.
      if (turn.callId !== undefined && counted.has(turn.callId)) {
        input.replayed = (input.replayed ?? 0) + 1;
        continue;
      }
      if (turn.callId !== undefined) counted.add(turn.callId);
      input.turns.push(turn);
    }
    costInputs.push(input);
  }
  return {
    agent: agent.id,
    turns: first.main.length,
    compactions: first.compactions,
    threads: threads.length,
    project: first.project ?? summaries.find((summary) => summary.project !== null)?.project ?? null,
    reportedBreaks: reportedBreaks(first.main),
    costInputs,
  };
}
