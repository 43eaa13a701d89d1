// Rebuilt requests against captured ones: each capture is matched to the turn whose rebuilt
// conversation it carries, the two bodies are compared under sorted keys (src/core/captures/
// diff.ts), and every differing path is named and classed — "not derivable" (the agent's list,
// with the reason), "learnt from another capture" (a fact another capture taught stands there)
// or "bug" (we should have rebuilt it). Used by the Request view's capture diff, the `captures`
// CLI command and the conformance test that measures every shared case.
import type { CaptureFact, PipelineOptions, Session } from "../core/model";
import { findAgent } from "../core/agents/registry";
import { buildTurnRequest, countTurns } from "../core/pipeline/index";
import { differingPaths, sortedJson } from "../core/captures/diff";
import { isObject } from "../core/util/is-object";

export type DifferenceClass = "not derivable" | "learnt from another capture" | "bug";

export interface PathDifference {
  path: string;
  class: DifferenceClass;
  reason: string;
}

export interface CaptureComparison {
  source: string;
  /** The turn the capture was matched to; null when no turn's conversation matches. */
  turn: number | null;
  equal: boolean;
  differences: PathDifference[];
}

export interface CaptureInput {
  source: string;
  body: unknown;
}

/** The conversation part of a body of any shape, without the system / developer prompt. */
export function conversationOf(body: unknown): unknown[] {
  if (!isObject(body)) return [];
  const list = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : Array.isArray(body.contents) ? body.contents : [];
  return list.filter((item) => !(isObject(item) && (item.role === "system" || item.role === "developer")));
}

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/**
 * The turn of each capture: the turn whose rebuilt conversation equals the capture's, else the one
 * sharing the longest leading run of items with it (ties: the closer length), else null. Every
 * turn is built once.
 */
export function matchCaptureTurns(session: Session, options: PipelineOptions, captures: readonly CaptureInput[]): (number | null)[] {
  const wanted = captures.map((capture) => conversationOf(capture.body).map((item) => sortedJson(item)));
  const best = captures.map(() => ({ turn: null as number | null, score: 0, gap: Infinity, exact: false }));
  const turns = countTurns(session, options);
  for (let turn = 1; turn <= turns; turn++) {
    const items = conversationOf(buildTurnRequest(session, options, turn).body).map((item) => sortedJson(item));
    wanted.forEach((target, i) => {
      const current = best[i]!;
      if (current.exact) return;
      const score = commonPrefix(items, target);
      const gap = Math.abs(items.length - target.length);
      if (score === target.length && gap === 0) best[i] = { turn, score, gap, exact: true };
      else if (score > current.score || (score === current.score && score > 0 && gap < current.gap)) best[i] = { turn, score, gap, exact: false };
    });
  }
  return best.map((item) => item.turn);
}

function covers(factPath: string, path: string): boolean {
  return path === factPath || path.startsWith(`${factPath}.`) || path.startsWith(`${factPath}[`) || path.startsWith(`${factPath}<`);
}

function patternCovers(pattern: string, path: string): boolean {
  const expression = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "\\d+")}(?=$|[.[<])`);
  return expression.test(path);
}

function allFacts(options: PipelineOptions): CaptureFact[] {
  return [...(options.header?.facts ?? []), ...(options.captures ?? []).flatMap((capture) => capture.facts ?? [])];
}

/** Classes one differing path of a comparison against the capture `source`. */
export function classifyPath(session: Session, options: PipelineOptions, source: string, path: string): PathDifference {
  const listed = findAgent(session.formatId)?.notDerivable?.filter((field) => patternCovers(field.path, path)) ?? [];
  const never = listed.find((field) => !field.fromCapture);
  if (never) return { path, class: "not derivable", reason: never.reason };
  const facts = allFacts(options).filter((item) => item.kind === "session" && covers(item.path, path));
  const other = facts.find((item) => item.source !== source);
  if (other) return { path, class: "learnt from another capture", reason: `${other.label}, learnt from ${other.source}` };
  const fromCapture = listed[0];
  if (fromCapture && facts.length === 0) return { path, class: "not derivable", reason: `${fromCapture.reason} (a capture of the session supplies it)` };
  return { path, class: "bug", reason: "the session file and the captures determine this field, but the rebuilt value differs" };
}

/** One capture against the rebuilt request of `turn`. */
export function compareWithCapture(session: Session, options: PipelineOptions, turn: number, capture: CaptureInput): CaptureComparison {
  const built = buildTurnRequest(session, options, turn).body;
  const differences = differingPaths(built, capture.body).map((path) => classifyPath(session, options, capture.source, path));
  return { source: capture.source, turn, equal: differences.length === 0, differences };
}

/** Every capture matched to its turn and compared; an unmatched capture is named with turn null. */
export function checkCaptures(session: Session, options: PipelineOptions, captures: readonly CaptureInput[], turns?: readonly (number | null)[]): CaptureComparison[] {
  const matched = turns ?? matchCaptureTurns(session, options, captures);
  return captures.map((capture, i) => {
    const turn = matched[i] ?? null;
    if (turn === null) return { source: capture.source, turn: null, equal: false, differences: [] };
    return compareWithCapture(session, options, turn, capture);
  });
}
