// What the page needs to price a whole session without the price dataset: every thread's provider
// calls (model, time, recorded usage) — the main thread on the selected branch, then each
// sub-agent thread in tree order — and the dataset's rows for the models they name. The page
// applies the user's edits and prices them (src/core/pricing/wholeSession.ts); the CLI prices the
// same inputs with the dataset table directly.
import { plural } from "../core/util/plural";
import type { ModelRef, PipelineOptions, Session } from "../core/model";
import { analyzeSession, type SessionAnalysis } from "../core/session/pipeline";
import { sessionUsageTotals } from "../core/session/storage";
import { datasetListedRows, datasetRowsFor, PRICE_DATASET } from "../core/pricing/dataset";
import type { CostTurn, PriceDatasetInfo, PriceRow, ThreadCostInput } from "../core/pricing/index";
import type { ModelRefLike } from "../core/pricing/lookup";
import { threadTree } from "./threads";

export interface SessionPricesResult {
  dataset: PriceDatasetInfo;
  threads: ThreadCostInput[];
  /** The dataset's rows for the models the threads name (models it lacks have none). */
  rows: PriceRow[];
}

type Calls = Pick<SessionAnalysis, "turns" | "timeline" | "auxiliary">;

const plainModel = (model: ModelRef | null | undefined) => (model ? { provider: model.provider, modelId: model.modelId } : null);

/**
 * Every provider call of a thread: its turns, and the summariser and auxiliary calls whose usage
 * the file records (Codex's compaction requests, opencode's summary messages).
 */
function costTurns(calls: Calls): CostTurn[] {
  const out: CostTurn[] = calls.turns.map((turn) => ({ model: plainModel(turn.model), at: turn.timestamp, usage: turn.usage, ...(turn.callId ? { callId: turn.callId } : {}) }));
  const seen = new Set<string>();
  for (const item of [...calls.timeline, ...(calls.auxiliary ?? [])]) {
    if (item.kind === "turn" || !item.usage) continue;
    const key = `${item.kind}:${item.entryId ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ model: plainModel(item.model), at: item.timestamp, usage: item.usage });
  }
  return out;
}

function callsOf(session: Session, options: PipelineOptions): Calls {
  try {
    return analyzeSession(session, options);
  } catch {
    // A thread whose entries cannot be analysed has no calls to price; its warnings say why.
    return { turns: [], timeline: [] };
  }
}

/**
 * The cost inputs of the open session: `options` name the main thread's branch and profile;
 * `mainTurns`, the main thread's turns when the caller has analysed it already.
 */
export function sessionCostInputs(session: Session, options: PipelineOptions, mainAnalysis?: Calls): ThreadCostInput[] {
  const main = mainAnalysis ?? callsOf(session, { ...options, thread: null });
  const mainTurns = costTurns(main);
  const threads: ThreadCostInput[] = [{ id: null, label: "Main thread", turns: mainTurns }];
  // An agent that counts tokens per stored session only (hermes-agent's state.db): its totals
  // stand for the calls, which record none.
  const totals = sessionUsageTotals(session);
  if (totals.length > 0 && mainTurns.every((turn) => turn.usage === null)) {
    threads[0] = {
      id: null,
      label: "Main thread",
      turns: totals.map((total) => ({ model: total.model, at: total.at, usage: total.usage })),
      countedAs: `the session totals ${totals[0]!.source} records (${plural(mainTurns.length, "call")}, no usage recorded per call)`,
    };
  }
  const counted = new Set(mainTurns.flatMap((turn) => (turn.callId ? [turn.callId] : [])));
  for (const { thread } of threadTree(session.threads ?? [], session)) {
    const input: ThreadCostInput = { id: thread.id, label: thread.label, turns: [] };
    for (const turn of costTurns(callsOf(thread.session, { ...options, leafId: null, thread: null }))) {
      // A call another thread's file already holds (a compaction summariser's transcript replays
      // the conversation's calls with their ids) was sent and paid once: count it there only.
      if (turn.callId !== undefined && counted.has(turn.callId)) {
        input.replayed = (input.replayed ?? 0) + 1;
        continue;
      }
      if (turn.callId !== undefined) counted.add(turn.callId);
      input.turns.push(turn);
    }
    threads.push(input);
  }
  return threads;
}

/** `mainAnalysis`: the main thread's analysis when the caller holds it (the worker does: analysing again would hold it for as long as opening did). */
export function sessionPrices(session: Session, options: PipelineOptions, mainAnalysis?: Calls): SessionPricesResult {
  const threads = sessionCostInputs(session, options, mainAnalysis);
  const models: ModelRefLike[] = [];
  for (const thread of threads) for (const turn of thread.turns) if (turn.model) models.push(turn.model);
  return { dataset: PRICE_DATASET, threads, rows: datasetRowsFor(models) };
}

/** The dataset's rows of the providers coding agents usually call, for the price panel. */
export function listedPrices(): { dataset: PriceDatasetInfo; rows: PriceRow[] } {
  return { dataset: PRICE_DATASET, rows: datasetListedRows() };
}
