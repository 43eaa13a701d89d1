// The user's price edits (like the model catalogue's: kept in localStorage, marked as edited in the
// table) and the session's costs: every turn's recorded, predicted and break cost from the turn
// summaries and the prefix rows, priced with the built-in table plus the edits.
import { useMemo } from "react";
import { create } from "zustand";
import type { TurnSummary } from "../core/model";
import {
  applyPriceOverrides,
  BUILTIN_PRICE_TABLE,
  priceableOfUsage,
  sessionCost,
  type PriceOverrides,
  type PriceRow,
  type PriceTable,
  type SessionCost,
  type TurnCostInput,
} from "../core/pricing/index";
import type { PrefixRow } from "../worker/protocol";
import { useAppStore } from "./store";

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

export const usePriceStore = create<{ overrides: PriceOverrides; open: boolean }>()(() => ({ overrides: loadOverrides(), open: false }));

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
}

export function usePriceTable(): PriceTable {
  const overrides = usePriceStore((state) => state.overrides);
  return useMemo(() => applyPriceOverrides(BUILTIN_PRICE_TABLE, overrides), [overrides]);
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
      recorded: usage ? priceableOfUsage(usage) : null,
      predicted: row?.predictedInput ?? null,
      rebilledTokens: row?.rebilledTokens ?? 0,
    };
  });
}

/** The open session's costs, recomputed when its turns, prefix rows or the prices change. */
export function useSessionCost(): SessionCost | null {
  const turns = useAppStore((state) => state.analysis?.turns ?? null);
  const rows = useAppStore((state) => state.prefix.rows);
  const table = usePriceTable();
  return useMemo(() => (turns ? sessionCost(costInputs(turns, rows), table) : null), [turns, rows, table]);
}
