// What the page needs to price a whole session without the price dataset: every thread's provider
// calls (model, time, recorded usage) — the main thread on the selected branch, then each
// sub-agent thread in tree order — and the dataset's rows for the models they name. The page
// applies the user's edits and prices them (src/core/pricing/wholeSession.ts); the CLI prices the
// same inputs with the dataset table directly.
import type { PipelineOptions, Session, TurnSummary } from "../core/model";
import { analyzeSession } from "../core/session/pipeline";
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

function costTurns(turns: readonly TurnSummary[]): CostTurn[] {
  return turns.map((turn) => ({
    model: turn.model ? { provider: turn.model.provider, modelId: turn.model.modelId } : null,
    at: turn.timestamp,
    usage: turn.usage,
  }));
}

function turnsOf(session: Session, options: PipelineOptions): TurnSummary[] {
  try {
    return analyzeSession(session, options).turns;
  } catch {
    // A thread whose entries cannot be analysed has no calls to price; its warnings say why.
    return [];
  }
}

/**
 * The cost inputs of the open session: `options` name the main thread's branch and profile;
 * `mainTurns`, the main thread's turns when the caller has analysed it already.
 */
export function sessionCostInputs(session: Session, options: PipelineOptions, mainTurns?: readonly TurnSummary[]): ThreadCostInput[] {
  const main = mainTurns ?? turnsOf(session, { ...options, thread: null });
  const threads: ThreadCostInput[] = [{ id: null, label: "Main thread", turns: costTurns(main) }];
  for (const { thread } of threadTree(session.threads ?? [], session)) {
    threads.push({ id: thread.id, label: thread.label, turns: costTurns(turnsOf(thread.session, { ...options, leafId: null, thread: null })) });
  }
  return threads;
}

export function sessionPrices(session: Session, options: PipelineOptions): SessionPricesResult {
  const threads = sessionCostInputs(session, options);
  const models: ModelRefLike[] = [];
  for (const thread of threads) for (const turn of thread.turns) if (turn.model) models.push(turn.model);
  return { dataset: PRICE_DATASET, threads, rows: datasetRowsFor(models) };
}

/** The dataset's rows of the providers coding agents usually call, for the price panel. */
export function listedPrices(): { dataset: PriceDatasetInfo; rows: PriceRow[] } {
  return { dataset: PRICE_DATASET, rows: datasetListedRows() };
}
