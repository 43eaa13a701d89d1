// Prices in the page: the price dataset's rows for the open session's models (asked of the worker,
// which holds the dataset, src/app/sessionPrices.ts), the user's price edits over them (kept in
// localStorage, like the model catalogue's, marked as edited in the table), and the costs priced
// with both: every turn of the thread shown (recorded, predicted and break cost, from the turn
// summaries and the prefix rows) and the whole session, its sub-agent threads included.
import { create } from "zustand";
import type { TurnSummary } from "../../core/model";
import {
  applyPriceOverrides,
  priceableOfUsage,
  sessionCost,
  wholeSessionCost,
  type PriceDatasetInfo,
  type PriceOverrides,
  type PriceRow,
  type PriceTable,
  type SessionCost,
  type TurnCostInput,
  type WholeSessionCost,
} from "../../core/pricing/index";
import type { SessionPricesResult } from "../../app/sessionPrices";
import type { PrefixRow } from "../prefix/protocol";
import { isStale } from "../../worker/client";
import { getAppState, useAppStore } from "../../page/store";
import { pipeline, pipelineOptions, shownKey } from "../../page/workerBridge";

const PRICE_OVERRIDES_KEY = "contextscope.priceOverrides";

function loadOverrides(): PriceOverrides {
  try {
    const text = typeof localStorage === "undefined" ? null : localStorage.getItem(PRICE_OVERRIDES_KEY);
    const parsed = text ? (JSON.parse(text) as unknown) : null;
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    const out: PriceOverrides = {};
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof value === "object" && value !== null && !Array.isArray(value) && key !== "__proto__") out[key] = value as Partial<PriceRow>;
    }
    return out;
  } catch {
    return {};
  }
}

interface PriceState {
  overrides: PriceOverrides;
  open: boolean;
  /** The open session's calls and its models' dataset rows; null until the worker answers. */
  session: SessionPricesResult | null;
  /** The options the session's prices were asked with. */
  sessionKey: string | null;
  /** The dataset's rows of the usual providers, asked when the price panel first opens. */
  listed: { dataset: PriceDatasetInfo; rows: PriceRow[] } | null;
}

export const usePriceStore = create<PriceState>()(() => ({ overrides: loadOverrides(), open: false, session: null, sessionKey: null, listed: null }));

/** Sets (or with null, removes) the user's edit of one row, keyed "provider/model". */
export function setPriceOverride(key: string, edit: Partial<PriceRow> | null): void {
  const overrides = { ...usePriceStore.getState().overrides };
  if (edit === null) delete overrides[key];
  else overrides[key] = edit;
  usePriceStore.setState({ overrides });
  try {
    if (Object.keys(overrides).length === 0) localStorage.removeItem(PRICE_OVERRIDES_KEY);
    else localStorage.setItem(PRICE_OVERRIDES_KEY, JSON.stringify(overrides));
  } catch {
    // Storage unavailable: the edits last for this page only.
  }
}

export function setPricesOpen(open: boolean): void {
  usePriceStore.setState({ open });
  if (open && !usePriceStore.getState().listed) {
    pipeline()
      .call("listedPrices", {}, "listed-prices")
      .then((listed) => usePriceStore.setState({ listed }))
      .catch(() => undefined); // the panel still shows the session's models
  }
}

/** The session's rows, plus the listed rows the user edited (an edit changes one figure of a whole row). */
function tableOf(session: SessionPricesResult | null, overrides: PriceOverrides, listed: PriceState["listed"]): PriceTable {
  const rows = [...(session?.rows ?? [])];
  const keys = new Set(rows.map((row) => `${row.provider}/${row.model}`));
  for (const row of listed?.rows ?? []) {
    const key = `${row.provider}/${row.model}`;
    if (overrides[key] && !keys.has(key)) rows.push(row);
  }
  const base: PriceTable = { rows };
  const dataset = session?.dataset ?? listed?.dataset;
  if (dataset) base.dataset = dataset;
  return applyPriceOverrides(base, overrides);
}

/** The last table made, shared by every component asking (its rows found are remembered per table). */
let lastTable: { session: SessionPricesResult | null; overrides: PriceOverrides; listed: PriceState["listed"]; table: PriceTable } | null = null;

function sharedTableOf(session: SessionPricesResult | null, overrides: PriceOverrides, listed: PriceState["listed"]): PriceTable {
  if (!lastTable || lastTable.session !== session || lastTable.overrides !== overrides || lastTable.listed !== listed) {
    lastTable = { session, overrides, listed, table: tableOf(session, overrides, listed) };
  }
  return lastTable.table;
}

/** The open session's price table: the dataset's rows for its models, under the user's edits. */
export function usePriceTable(): PriceTable {
  const overrides = usePriceStore((state) => state.overrides);
  const session = usePriceStore((state) => state.session);
  const listed = usePriceStore((state) => state.listed);
  return sharedTableOf(session, overrides, listed);
}

/** The cost inputs of every turn: recorded usage (pi's shape: input excludes cache reads and writes). */
function costInputs(turns: readonly TurnSummary[], rows: readonly PrefixRow[] | null): TurnCostInput[] {
  const byTurn = new Map<number, PrefixRow>();
  for (const row of rows ?? []) byTurn.set(row.turn, row);
  return turns.map((summary) => {
    const row = byTurn.get(summary.turn);
    const usage = summary.usage;
    return {
      turn: summary.turn,
      model: summary.model,
      at: summary.timestamp,
      recorded: usage ? priceableOfUsage(usage) : null,
      predicted: row?.predictedInput ?? null,
      rebilledTokens: row?.rebilledTokens ?? 0,
    };
  });
}

/**
 * The last session cost made, shared by the components showing it (the timeline, the overview, the
 * cost button): each made its own, which priced a 40,000-turn session three times over.
 */
let lastCost: { turns: readonly TurnSummary[]; rows: readonly PrefixRow[] | null; table: PriceTable; cost: SessionCost } | null = null;

/** The costs of the thread shown, turn by turn; null until its session's prices are known. */
export function useSessionCost(): SessionCost | null {
  const turns = useAppStore((state) => state.analysis?.turns ?? null);
  const rows = useAppStore((state) => state.prefix.rows);
  const ready = usePriceStore((state) => state.session !== null);
  const table = usePriceTable();
  if (!turns || !ready) return null;
  if (!lastCost || lastCost.turns !== turns || lastCost.rows !== rows || lastCost.table !== table) {
    lastCost = { turns, rows, table, cost: sessionCost(costInputs(turns, rows), table) };
  }
  return lastCost.cost;
}

/** The last whole-session cost made, shared by the components showing it. */
let lastWholeCost: { session: SessionPricesResult; table: PriceTable; cost: WholeSessionCost } | null = null;

function sharedWholeCost(session: SessionPricesResult, table: PriceTable): WholeSessionCost {
  if (!lastWholeCost || lastWholeCost.session !== session || lastWholeCost.table !== table) {
    lastWholeCost = { session, table, cost: wholeSessionCost(session.threads, table) };
  }
  return lastWholeCost.cost;
}

/**
 * The whole session's recorded cost, sub-agent threads included, with a line per thread (the main
 * thread first); null until the worker has listed the session's calls. The plain function for
 * code outside React is `currentWholeSessionCost`.
 */
export function useWholeSessionCost(): WholeSessionCost | null {
  const session = usePriceStore((state) => state.session);
  const table = usePriceTable();
  return session ? sharedWholeCost(session, table) : null;
}

/**
 * The whole session's recorded cost now (the same figures as `useWholeSessionCost`), or null.
 * @public for code outside React (the one-glance summary); kept although only the tests call it yet.
 */
export function currentWholeSessionCost(): WholeSessionCost | null {
  const { session, overrides, listed } = usePriceStore.getState();
  return session ? sharedWholeCost(session, sharedTableOf(session, overrides, listed)) : null;
}

/** The main thread's options (its branch and profile), whichever thread is shown. */
function mainThreadOptions() {
  const options = pipelineOptions();
  if (options.thread === undefined) return options;
  const { thread: _shown, ...rest } = options;
  // The branch chosen belongs to the thread shown; the main thread's is not known here.
  return { ...rest, leafId: null };
}

async function loadSessionPrices(): Promise<void> {
  const options = mainThreadOptions();
  // The session shown is part of the key: a late answer about the previous session is dropped.
  const key = shownKey(options);
  if (usePriceStore.getState().sessionKey === key) return;
  usePriceStore.setState({ sessionKey: key, session: null });
  try {
    const session = await pipeline().call("sessionPrices", { options }, "session-prices");
    if (usePriceStore.getState().sessionKey === key) usePriceStore.setState({ session });
  } catch (error) {
    if (isStale(error) || usePriceStore.getState().sessionKey !== key) return;
    // Without the worker's rows every turn would read "not priced": show no cost instead.
    usePriceStore.setState({ session: null });
  }
}

/** Asks the worker for the session's prices after every new analysis of the main thread (not while the file is still read). */
export function installSessionPricesLoader(): void {
  useAppStore.subscribe((state, previous) => {
    if (state.session !== previous.session) usePriceStore.setState({ session: null, sessionKey: null });
    if (state.analysis && state.analysis !== previous.analysis && !state.analysisProvisional) {
      // A thread shown keeps the whole session's figures asked for the main thread.
      if (getAppState().options.thread === null || usePriceStore.getState().sessionKey === null) void loadSessionPrices();
    }
  });
}
