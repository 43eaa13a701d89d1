// State and actions of the compare view: side B is a second session (read in the worker like the
// first) or another branch of the open session; the worker aligns the turns and compares each
// pair's requests; one pair at a time is materialised as two pretty JSON texts for the Monaco
// diff. A store of its own, reset whenever another main session opens; recomputed when the
// pipeline options change while it is shown.
import { create } from "zustand";
import type { CompareAgainst, ComparePairResult, CompareViewResult } from "./compareModel";
import { isStale } from "../../worker/client";
import { pipeline, pipelineOptions } from "../../page/workerBridge";
import { usePriceStore } from "../prices/pricesState";
import { useAppStore } from "../../page/store";

export interface CompareState {
  /** The compare view replaces the workspace while open. */
  open: boolean;
  against: CompareAgainst | null;
  /** Name of the second session, once read. */
  secondName: string | null;
  status: "idle" | "loading" | "ready" | "error";
  error: string | null;
  result: CompareViewResult | null;
  /** Index of the aligned pair shown in the diff. */
  selected: number | null;
  pair: { status: "idle" | "loading" | "ready" | "error"; index: number | null; result: ComparePairResult | null; error: string | null };
}

const initialPair: CompareState["pair"] = { status: "idle", index: null, result: null, error: null };
const initial: CompareState = { open: false, against: null, secondName: null, status: "idle", error: null, result: null, selected: null, pair: initialPair };

export const useCompareStore = create<CompareState>()(() => initial);
const setCompare = useCompareStore.setState;
const getCompare = useCompareStore.getState;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function openCompareView(): void {
  setCompare({ open: true });
}

export function closeCompareView(): void {
  setCompare({ open: false });
}

/** Selects an aligned pair and loads its two requests for the diff. */
export async function selectComparePair(index: number): Promise<void> {
  const { against } = getCompare();
  if (!against) return;
  setCompare({ selected: index, pair: { ...getCompare().pair, status: "loading", index, error: null } });
  try {
    const result = await pipeline().call("comparePair", { options: pipelineOptions(), against, index }, "compare-pair");
    if (getCompare().selected === index) setCompare({ pair: { status: "ready", index, result, error: null } });
  } catch (error) {
    if (!isStale(error) && getCompare().selected === index) setCompare({ pair: { status: "error", index, result: null, error: message(error) } });
  }
}

async function runComparison(against: CompareAgainst): Promise<void> {
  setCompare({ open: true, against, status: "loading", error: null, selected: null, pair: initialPair });
  try {
    const priceOverrides = usePriceStore.getState().overrides;
    const result = await pipeline().call("compareSessions", { options: pipelineOptions(), against, priceOverrides }, "compare");
    if (getCompare().against !== against) return;
    setCompare({ status: "ready", result });
    // Open on the first pair whose requests differ (else the first pair).
    const first = result.comparison.firstDifference ?? (result.comparison.pairs.length > 0 ? 0 : null);
    if (first !== null) void selectComparePair(first);
  } catch (error) {
    if (!isStale(error) && getCompare().against === against) setCompare({ status: "error", error: message(error) });
  }
}

/** Side B = a second session file (picked or dropped). */
export async function compareWithFile(file: File): Promise<void> {
  setCompare({ open: true, status: "loading", error: null, result: null, selected: null, pair: initialPair, secondName: file.name });
  try {
    const opened = await pipeline().call("openCompare", { source: { kind: "file", file } });
    setCompare({ secondName: opened.fileName });
    await runComparison({ kind: "file" });
  } catch (error) {
    if (!isStale(error)) setCompare({ status: "error", error: message(error) });
  }
}

/** Side B = another branch (leaf) of the open session. */
export function compareWithBranch(leafId: string): Promise<void> {
  return runComparison({ kind: "branch", leafId });
}

export function jumpToFirstDifference(): void {
  const first = getCompare().result?.comparison.firstDifference ?? null;
  if (first !== null) void selectComparePair(first);
}

// Another main session: side B and the comparison belonged to the old one (the worker drops them too).
useAppStore.subscribe((state, previous) => {
  if (state.session !== previous.session) setCompare({ ...initial });
  else if (state.options !== previous.options && getCompare().open && getCompare().against) void runComparison(getCompare().against!);
});

// Edited prices: the totals' cost is priced again with them, like the main view's.
usePriceStore.subscribe((state, previous) => {
  if (state.overrides !== previous.overrides && getCompare().open && getCompare().against) void runComparison(getCompare().against!);
});
