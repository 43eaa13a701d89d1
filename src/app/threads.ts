// The thread tree the UI and the CLI show: each sub-agent thread of the open session under the
// thread that started it (depth-first; siblings in the order of their spawning calls), with its
// label, where it came from, the tool call that started it, its turns and requests, how many of
// its requests break the prefix, and the dollars its recorded usage cost (the price dataset; the page prices
// the same calls again with the user's edits, src/app/sessionPrices.ts).
import type { PipelineOptions, Session, SessionThread, ThreadSpawn } from "../core/model";
import { analyzeSession } from "../core/session/pipeline";
import { iterateSessionPrefixes } from "../core/session/sessionPrefixes";
import { SessionCostAccumulator, type CostTotal } from "../core/pricing/index";
import { datasetPriceTable } from "../core/pricing/dataset";

/** One sub-agent thread in the thread list (src/app/threads.ts). */
export interface ThreadInfo {
  id: string;
  label: string;
  origin: SessionThread["origin"];
  parentThreadId: string | null;
  spawnedBy: ThreadSpawn | null;
  /** Turns of the thread's own session (its default branch). */
  turns: number;
  entryCount: number;
  /** The file its entries came from (`<main file>#<id>` for entries inside the main file). */
  fileName: string;
  /** Depth in the thread tree: 1 for the main thread's children, 2 for theirs, … */
  depth: number;
  /** Requests the thread sent: its main requests, one per turn, plus its auxiliary requests. */
  requests: number;
  /** Prefix breaks of its requests (chars/4 pass); null when its requests could not be analysed. */
  breaks: number | null;
  /** Dollars of its recorded usage (built-in price table) with their status; null when its requests could not be analysed. */
  cost: CostTotal | null;
}

/**
 * Where a thread's spawning call sits in its parent's entries (siblings are listed in that
 * order); threads without a recorded start come after, in the order they were found.
 */
function spawnOrder(threads: readonly SessionThread[], main: Session | null): Map<string, number> {
  const byId = new Map(threads.map((thread) => [thread.id, thread]));
  const positions = new Map<Session, Map<string, number>>();
  const order = new Map<string, number>();
  for (const thread of threads) {
    const parent = thread.parentThreadId === null ? main : (byId.get(thread.parentThreadId)?.session ?? null);
    if (!parent || !thread.spawnedBy) continue;
    let index = positions.get(parent);
    if (!index) {
      index = new Map(parent.entries.map((entry, at) => [entry.id, at]));
      positions.set(parent, index);
    }
    const at = index.get(thread.spawnedBy.entryId);
    if (at !== undefined) order.set(thread.id, at);
  }
  return order;
}

/** The threads in tree order with their depth; a thread whose parent is not among them is a root. */
export function threadTree(threads: readonly SessionThread[], main: Session | null = null): { thread: SessionThread; depth: number }[] {
  const order = spawnOrder(threads, main);
  const found = new Map(threads.map((thread, index) => [thread.id, index]));
  const ids = new Set(threads.map((thread) => thread.id));
  const children = new Map<string | null, SessionThread[]>();
  for (const thread of threads) {
    const parent = thread.parentThreadId !== null && ids.has(thread.parentThreadId) && thread.parentThreadId !== thread.id ? thread.parentThreadId : null;
    const list = children.get(parent) ?? [];
    list.push(thread);
    children.set(parent, list);
  }
  const key = (thread: SessionThread) => order.get(thread.id) ?? Number.MAX_SAFE_INTEGER;
  for (const list of children.values()) list.sort((a, b) => key(a) - key(b) || found.get(a.id)! - found.get(b.id)!);
  const ordered: { thread: SessionThread; depth: number }[] = [];
  const seen = new Set<string>();
  const visit = (parent: string | null, depth: number) => {
    for (const thread of children.get(parent) ?? []) {
      if (seen.has(thread.id)) continue;
      seen.add(thread.id);
      ordered.push({ thread, depth });
      visit(thread.id, depth + 1);
    }
  };
  visit(null, 1);
  // Threads in a parent cycle are reached from no root: list them at the top level.
  for (const thread of threads) if (!seen.has(thread.id)) ordered.push({ thread, depth: 1 });
  return ordered;
}

function measured(session: Session, options: PipelineOptions): Pick<ThreadInfo, "turns" | "requests" | "breaks" | "cost"> {
  const threadOptions: PipelineOptions = { ...options, leafId: null, thread: null };
  let analysis;
  try {
    analysis = analyzeSession(session, threadOptions);
  } catch {
    // A thread whose entries cannot be analysed shows no turns; its warnings say why.
    return { turns: 0, requests: 0, breaks: null, cost: null };
  }
  const turns = analysis.turns.length;
  const byTurn = new Map(analysis.turns.map((turn) => [turn.turn, turn]));
  const cost = new SessionCostAccumulator(datasetPriceTable());
  let breaks: number | null = 0;
  try {
    for (const report of iterateSessionPrefixes(session, threadOptions, { analysis, prefix: { tokenizer: "estimate", simulate: false } })) {
      if (report.cause !== null) breaks += 1;
      const turn = byTurn.get(report.turn);
      cost.add(report, turn?.model ?? null, turn?.timestamp);
    }
  } catch {
    breaks = null;
  }
  return { turns, requests: turns + (analysis.auxiliary?.length ?? 0), breaks, cost: breaks === null ? null : cost.totals().recorded };
}

export function threadInfos(session: Session, options: PipelineOptions): ThreadInfo[] {
  return threadTree(session.threads ?? [], session).map(({ thread, depth }) => ({
    id: thread.id,
    label: thread.label,
    origin: thread.origin,
    parentThreadId: thread.parentThreadId,
    spawnedBy: thread.spawnedBy ? { ...thread.spawnedBy } : null,
    ...measured(thread.session, options),
    entryCount: thread.session.entries.length,
    fileName: thread.session.fileName,
    depth,
  }));
}
