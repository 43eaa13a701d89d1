// The worker's second session for the compare view: read like the first (readSession, streamed),
// held until another main session opens, and the comparison of the open session with it — or
// with another branch of the open session — kept for the pair diffs that follow.
import { compareView, comparePair, sideOf, type CompareAgainst, type CompareOpened, type ComparePairResult, type CompareViewResult } from "./compareModel";
import type { CompareSide } from "../../core/compare/index";
import type { PipelineOptions, Session } from "../../core/model";
import type { OpenSource } from "../open/protocol";
import { applyPriceOverrides, type PriceOverrides } from "../../core/pricing/index";
import { datasetPriceTable } from "../../core/pricing/dataset";
import { readSession } from "../open/worker";
import { releaseSessionTexts } from "../../core/session/textStores";

export class CompareSlot {
  private second: Session | null = null;
  /** `key`: options and side B; `pricesKey`: the price edits the view's cost used. */
  private last: { key: string; pricesKey: string; a: CompareSide; b: CompareSide; view: CompareViewResult } | null = null;

  /** A new main session: the second one and any comparison belong to the old one. */
  reset(): void {
    releaseSessionTexts(this.second);
    this.second = null;
    this.last = null;
  }

  async open(source: OpenSource): Promise<CompareOpened> {
    if (source.kind !== "file" && source.kind !== "files" && source.kind !== "bytes" && source.kind !== "text") {
      throw new Error("Compare with: open a session file.");
    }
    const { session } = await readSession(source, { isCancelled: () => false, onProgress: () => undefined });
    if (session.entries.length === 0) {
      releaseSessionTexts(session);
      throw new Error(`${session.fileName}: no session entries to compare.`);
    }
    releaseSessionTexts(this.second, session);
    this.second = session;
    this.last = null;
    return { fileName: session.fileName, formatLabel: session.formatLabel, entryCount: session.entries.length };
  }

  private sides(main: Session, options: PipelineOptions, against: CompareAgainst): { key: string; a: CompareSide; b: CompareSide } {
    const key = JSON.stringify({ options, against });
    if (this.last?.key === key) return this.last;
    const a = sideOf(main, options);
    if (against.kind === "branch") return { key, a, b: sideOf(main, { ...options, leafId: against.leafId }) };
    if (!this.second) throw new Error("No second session is open: use “Compare with…” first.");
    // Side B is read with its own agent's defaults: only the view choices carry over.
    return { key, a, b: sideOf(this.second, { ...options, leafId: null }) };
  }

  /** `priceOverrides`: the user's price edits (the page's localStorage), applied to the totals' cost. */
  compare(main: Session, options: PipelineOptions, against: CompareAgainst, priceOverrides?: PriceOverrides): CompareViewResult {
    const { key, a, b } = this.sides(main, options, against);
    const pricesKey = JSON.stringify(priceOverrides ?? {});
    if (this.last?.key === key && this.last.pricesKey === pricesKey) return this.last.view;
    const view = compareView(a, b, against.kind === "branch", applyPriceOverrides(datasetPriceTable(), priceOverrides));
    this.last = { key, pricesKey, a, b, view };
    return view;
  }

  pair(main: Session, options: PipelineOptions, against: CompareAgainst, index: number): ComparePairResult {
    // The pairs do not depend on prices: the last comparison of these sides serves whatever its prices.
    if (this.last?.key !== JSON.stringify({ options, against })) this.compare(main, options, against);
    const { a, b, view } = this.last!;
    const pair = view.comparison.pairs[index];
    if (!pair) throw new Error(`No aligned pair ${index}.`);
    return comparePair(a, b, pair.a, pair.b, pair.path);
  }
}
