// The compare view's view-models, shared by the worker and the tests: what side B is (a second
// session, or another branch of the open one), the comparison of the two sides (src/core/compare)
// with their labels, and one aligned pair's requests as pretty JSON with the first difference
// located for the Monaco diff (the same boundary rule as the Diff tab, locateBoundary).
import { analyzeSession } from "../../core/session/pipeline";
import { buildTurnRequest } from "../../core/session/pipeline";
import { compareSessions, type CompareSide, type SessionComparison } from "../../core/compare/index";
import type { PriceTable } from "../../core/pricing/index";
import { formatRequestJson } from "../../core/export/request-json";
import type { PipelineOptions, Session } from "../../core/model";
import { locateBoundary } from "../../core/prefix/pretty-offset";

/** Side B: the second session opened for comparison, or a branch (leaf) of the open session. */
export type CompareAgainst = { kind: "file" } | { kind: "branch"; leafId: string };

/** The second session, once the worker has read it. */
export interface CompareOpened {
  fileName: string;
  formatLabel: string;
  entryCount: number;
}

interface CompareSideInfo {
  /** "session.jsonl", or "session.jsonl, branch ending at a3b". */
  label: string;
  fileName: string;
  formatLabel: string;
  leafId: string | null;
}

export interface CompareViewResult {
  a: CompareSideInfo;
  b: CompareSideInfo;
  comparison: SessionComparison;
}

export interface ComparePairResult {
  a: number | null;
  b: number | null;
  /** Pretty JSON of A's request ("" when A has no such turn). */
  leftJson: string;
  rightJson: string;
  /** UTF-16 offset in `rightJson` of the first difference, null when unknown or equal. */
  boundaryOffset: number | null;
  path: string | null;
}

export function sideOf(session: Session, options: PipelineOptions): CompareSide {
  return { session, options, analysis: analyzeSession(session, options) };
}

function info(side: CompareSide, branch: boolean): CompareSideInfo {
  const leafId = side.analysis.leafId;
  return {
    label: branch && leafId ? `${side.session.fileName}, branch ending at ${leafId}` : side.session.fileName,
    fileName: side.session.fileName,
    formatLabel: side.session.formatLabel,
    leafId,
  };
}

/** `prices`: the table the totals' cost uses (the page's, with the user's edits); default the built-in one. */
export function compareView(a: CompareSide, b: CompareSide, branches: boolean, prices?: PriceTable): CompareViewResult {
  return { a: info(a, branches), b: info(b, branches), comparison: compareSessions(a, b, prices ? { prices } : {}) };
}

/** The JSON path `locateBoundary` can follow for a comparison path (`settings.x` → `x`; `api` has none). */
function boundaryPath(path: string | null): string | null {
  if (path === null || path === "api") return null;
  return path.startsWith("settings.") ? path.slice("settings.".length) : path;
}

export function comparePair(a: CompareSide, b: CompareSide, turnA: number | null, turnB: number | null, path: string | null): ComparePairResult {
  const left = turnA !== null ? buildTurnRequest(a.session, a.options, turnA).body : null;
  const right = turnB !== null ? buildTurnRequest(b.session, b.options, turnB).body : null;
  if (!right) return { a: turnA, b: turnB, leftJson: left ? formatRequestJson(left) : "", rightJson: "", boundaryOffset: null, path };
  const located = locateBoundary(left, right, boundaryPath(path));
  return {
    a: turnA,
    b: turnB,
    leftJson: left ? formatRequestJson(left) : "",
    rightJson: located.text,
    boundaryOffset: path === null && left ? null : located.offset,
    path,
  };
}
