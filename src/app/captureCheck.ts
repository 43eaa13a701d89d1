// Rebuilt requests against captured ones: each capture is matched to the turn whose rebuilt
// conversation it carries, the two bodies are compared under sorted keys (src/core/captures/
// diff.ts), and every differing path is named and classed — "not derivable" (the agent's list,
// with the reason), "learnt from another capture" (a fact another capture taught stands there)
// or "bug" (we should have rebuilt it). Used by the Request view's capture diff, the `captures`
// CLI command and the conformance test that measures every shared case.
import type { CaptureFact, PipelineOptions, Session } from "../core/model";
import { findAgent } from "../core/session/agents";
import { buildTurnRequest, countTurns } from "../core/session/pipeline";
import { differingLeaves, type DifferingLeaf, sortedJson, sortKeysDeep } from "../core/captures/diff";
import type { NotDerivableField } from "../core/agents/descriptor";
import { isObject } from "../core/util/is-object";
import { firstDifference, type BodyDifference } from "../core/captures/firstDifference";

type DifferenceClass = "not derivable" | "learnt from another capture" | "bug";

interface PathDifference {
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
function conversationOf(body: unknown): unknown[] {
  if (!isObject(body)) return [];
  const list = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : Array.isArray(body.contents) ? body.contents : [];
  return list.filter((item) => !(isObject(item) && (item.role === "system" || item.role === "developer")));
}

/** The role of each conversation item, in order: the shape a capture and a turn share when their contents differ. */
function roleShape(items: readonly unknown[]): string {
  return items.map((item) => (isObject(item) ? String(item.role ?? item.type ?? "?") : "?")).join(",");
}

/**
 * The turn of each capture: the first turn whose rebuilt conversation (every item but the system
 * prompt, compared under sorted keys) equals the capture's. Only an exact match counts there: a
 * summariser request carries a turn's conversation plus its own prompt, and must not be taken for
 * that turn. Every turn is built once. A capture left without a turn is then paired, in send
 * order, with the next turn nobody took whose items have the same roles in the same order, so a
 * rebuild that departs from the wire shows where (a verdict "differs") instead of "unmatched".
 */
export function matchCaptureTurns(session: Session, options: PipelineOptions, captures: readonly CaptureInput[]): (number | null)[] {
  const conversations = captures.map((capture) => conversationOf(capture.body));
  const wanted = conversations.map(sortedJson);
  const found: (number | null)[] = captures.map(() => null);
  const turns = countTurns(session, options);
  const shapes: string[] = [];
  for (let turn = 1; turn <= turns && found.some((item) => item === null); turn++) {
    const conversation = conversationOf(buildTurnRequest(session, options, turn).body);
    shapes[turn] = roleShape(conversation);
    const items = sortedJson(conversation);
    wanted.forEach((target, i) => {
      if (found[i] === null && target === items) found[i] = turn;
    });
  }
  const taken = new Set(found.filter((turn): turn is number => turn !== null));
  let after = 0;
  found.forEach((turn, i) => {
    if (turn !== null) {
      after = turn;
      return;
    }
    const shape = roleShape(conversations[i]!);
    for (let candidate = after + 1; candidate <= turns; candidate++) {
      if (taken.has(candidate) || shapes[candidate] !== shape) continue;
      found[i] = candidate;
      taken.add(candidate);
      after = candidate;
      return;
    }
  });
  return found;
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

/** Whether a declared field covers this difference: its path, and for a partly derivable field the part that differs. */
function declaredCovers(field: NotDerivableField, leaf: DifferingLeaf): boolean {
  if (!patternCovers(field.path, leaf.path)) return false;
  if (field.onlyWithin === undefined) return true;
  if (typeof leaf.ours !== "string" || typeof leaf.theirs !== "string") return false;
  const part = new RegExp(field.onlyWithin, "g");
  return leaf.ours.replace(part, "") === leaf.theirs.replace(part, "");
}

/** Classes one differing place of a comparison against the capture `source`. */
function classifyPath(session: Session, options: PipelineOptions, source: string, leaf: DifferingLeaf): PathDifference {
  const path = leaf.path;
  const listed = findAgent(session.formatId)?.notDerivable?.filter((field) => declaredCovers(field, leaf)) ?? [];
  const never = listed.find((field) => !field.fromCapture);
  if (never) return { path, class: "not derivable", reason: never.reason };
  const facts = allFacts(options).filter((item) => item.kind === "session" && covers(item.path, path));
  const other = facts.find((item) => item.source !== source);
  if (other) return { path, class: "learnt from another capture", reason: `${other.label}, learnt from ${other.source}` };
  const fromCapture = listed[0];
  if (fromCapture && facts.length === 0) return { path, class: "not derivable", reason: `${fromCapture.reason} (a capture of the session supplies it)` };
  return { path, class: "bug", reason: "the session file and the captures determine this field, but the rebuilt value differs" };
}

/** Every path where `built` differs from the capture `source`, named and classed. */
export function classifiedDifferences(session: Session, options: PipelineOptions, source: string, built: unknown, captured: unknown): PathDifference[] {
  return differingLeaves(built, captured).map((leaf) => classifyPath(session, options, source, leaf));
}

/** One capture against the rebuilt request of `turn`. */
function compareWithCapture(session: Session, options: PipelineOptions, turn: number, capture: CaptureInput): CaptureComparison {
  const built = buildTurnRequest(session, options, turn).body;
  const differences = differingLeaves(built, capture.body).map((leaf) => classifyPath(session, options, capture.source, leaf));
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

/** The Request view's capture diff: the selected turn's rebuilt body beside the capture matched to it. */
export interface CaptureDiffResult {
  source: string;
  turn: number;
  /** Both bodies pretty-printed with sorted keys, so the diff shows values, not key order. */
  capturedJson: string;
  rebuiltJson: string;
  differences: PathDifference[];
  /** Where the rebuilt body first departs from the wire (null: equal). */
  first: BodyDifference | null;
}

/** Captures that are still attached (the header and the further captures name their sources). */
export function attachedSources(options: PipelineOptions): Set<string> {
  return new Set([...(options.header ? [options.header.source] : []), ...(options.captures ?? []).map((capture) => capture.source)]);
}

/** The diff for `turn`, or null when no attached capture matches that turn. */
export function captureDiffForTurn(session: Session, options: PipelineOptions, bodies: readonly CaptureInput[], turn: number): CaptureDiffResult | null {
  const sources = attachedSources(options);
  const attached = bodies.filter((body) => sources.has(body.source));
  if (attached.length === 0) return null;
  const turns = matchCaptureTurns(session, options, attached);
  const index = turns.findIndex((matched) => matched === turn);
  if (index < 0) return null;
  const capture = attached[index]!;
  const built = buildTurnRequest(session, options, turn).body;
  return {
    source: capture.source,
    turn,
    capturedJson: JSON.stringify(sortKeysDeep(capture.body), null, 2),
    rebuiltJson: JSON.stringify(sortKeysDeep(built), null, 2), // sortKeysDeep writes stored texts as strings
    differences: differingLeaves(built, capture.body).map((leaf) => classifyPath(session, options, capture.source, leaf)),
    first: firstDifference(built, capture.body),
  };
}
