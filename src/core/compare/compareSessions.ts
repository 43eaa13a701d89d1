// Comparing two sessions (or two branches of one): each side is scanned once (user texts for the
// alignment, totals), the turns are aligned (align.ts), then both sides' requests are walked once
// more in step — the alignment is increasing on both sides — and each aligned pair's requests are
// segmented and compared in cache order (requestDiff.ts). Nothing holds every request at once.
import type { BuiltRequest } from "../model";
import { iterateTurnRequests } from "../session/turnRequests";
import type { PrefixAnalysisOptions } from "../prefix/analyze";
import { createSegmentCache } from "../prefix/segment-builder";
import { segmentRequest, type SegmentOptions } from "../prefix/segment-request";
import { alignTurns } from "./align";
import { compareSegmented } from "./requestDiff";
import type { PriceTable } from "../pricing/index";
import { datasetPriceTable } from "../pricing/dataset";
import { scanSide, type CompareSide } from "./side";
import type { ComparedPair, SessionComparison } from "./types";

export interface CompareOptions {
  /** Tokenizer and segmentation of both sides' prefix analysis (default chars/4 estimates). */
  prefix?: PrefixAnalysisOptions;
  /** Prices for the totals' `cost` (default: the price dataset); null leaves `cost` null. */
  prices?: PriceTable | null;
}

const USER_TEXT_CHARS = 120;

/** Walks a side's requests forward, handing out the one of a requested (increasing) turn. */
function requestCursor(side: CompareSide): (turn: number) => BuiltRequest | null {
  const iterator = iterateTurnRequests(side.session, side.options)[Symbol.iterator]();
  let current: { turn: number; request: BuiltRequest } | null = null;
  return (turn) => {
    while (!current || current.turn < turn) {
      const next = iterator.next();
      if (next.done) return null;
      current = next.value;
    }
    return current.turn === turn ? current.request : null;
  };
}

function cut(text: string | null): string | null {
  if (text === null) return null;
  return text.length > USER_TEXT_CHARS ? `${text.slice(0, USER_TEXT_CHARS - 1)}…` : text;
}

export function compareSessions(a: CompareSide, b: CompareSide, options: CompareOptions = {}): SessionComparison {
  const prefix: PrefixAnalysisOptions = { tokenizer: "estimate", ...(options.prefix ?? {}) };
  const prices = options.prices === undefined ? datasetPriceTable() : options.prices;
  const scanA = scanSide(a, prefix, prices);
  const scanB = scanSide(b, prefix, prices);
  const aligned = alignTurns(scanA.keys, scanB.keys);
  const { segmentCache: _unused, simulate: _simulate, cacheRules: _rules, ...segmentOptions } = prefix;
  const segmentation: SegmentOptions = { ...segmentOptions, cache: prefix.segmentCache ?? createSegmentCache() };
  const requestA = requestCursor(a);
  const requestB = requestCursor(b);
  const pairs: ComparedPair[] = aligned.map((pair) => {
    const left = pair.a !== null ? requestA(pair.a) : null;
    const right = pair.b !== null ? requestB(pair.b) : null;
    const base = {
      ...pair,
      userText: cut((pair.a !== null ? scanA.keys[pair.a - 1] : null) ?? (pair.b !== null ? scanB.keys[pair.b - 1] : null) ?? null),
      tokensA: pair.a !== null ? (scanA.tokens[pair.a - 1] ?? null) : null,
      tokensB: pair.b !== null ? (scanB.tokens[pair.b - 1] ?? null) : null,
    };
    if (!left || !right) return { ...base, differs: true, path: null, settingsChanged: [], sharedBytes: 0, sharedTokens: 0 };
    const difference = compareSegmented(segmentRequest(left.api, left.body, segmentation), segmentRequest(right.api, right.body, segmentation));
    return { ...base, ...difference };
  });
  const first = pairs.findIndex((pair) => pair.differs);
  return { pairs, firstDifference: first === -1 ? null : first, totals: { a: scanA.totals, b: scanB.totals } };
}
