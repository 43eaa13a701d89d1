// Canonical rendering of cache segments (PR-2, PD-5): what a segment "is" for prefix comparison.
// A segment's value is its body fragment with cache markers removed, a string content seen as one
// text block, and a message's content split off from its header. The rendering is the compact
// JSON of that value (PR-1 byte form); tokens are counted on its decoded text leaves (TK-8).
import { isNotRecorded } from "../model";
import type { TokenCounter } from "../tokens/counters";
import { isStoredText } from "../text/storedText";
import { renderingStoredTexts, textString, type Text } from "../text/text";
import type { CacheMarker, SegmentView } from "./types";
import { isObject } from "../util/is-object";

export type { SegmentView } from "./types";

/** Keys that hold cache markers, never content (PD-5). */
export const MARKER_KEYS: readonly string[] = ["cache_control", "prompt_cache_breakpoint"];

/**
 * Copies a body's assembly made only to set cache markers in, each with the object it copies: the
 * "strip" and "header" views of both are the same value, so their segment facts are kept under
 * the unmarked object, which the next turn's body sends as it is (the marker having moved on).
 */
const unmarkedForms = new WeakMap<object, object>();

/** Records that `marked` is `unmarked` with cache markers set in it (or in its content), and nothing else changed. */
export function recordUnmarkedForm(marked: object, unmarked: object): void {
  if (marked !== unmarked) unmarkedForms.set(marked, unmarked);
}

/** The object `value` is a marked copy of (`recordUnmarkedForm`), else `value`. */
export function unmarkedFormOf(value: object): object {
  return unmarkedForms.get(value) ?? value;
}

/** Keys whose string values are structure, not prompt text: not counted as text tokens. */
const STRUCTURAL_KEYS = new Set([
  "type",
  "id",
  "role",
  "tool_use_id",
  "tool_call_id",
  "call_id",
  "status",
  "signature",
  "thinkingSignature",
  "thoughtSignature",
  "media_type",
  "mimeType",
  "$notRecorded",
]);

/** Content keys split off a message header, per shape. */
const HEADER_EXCLUDED_KEYS: readonly string[] = ["content", "tool_calls", "parts"];

/** What a header leaves out: the content keys and the markers (made once, not per message). */
const HEADER_LEFT_OUT: readonly string[] = [...HEADER_EXCLUDED_KEYS, ...MARKER_KEYS];

/** The marker a `cache_control` value sets, or null (read without a block around it: a body's top-level one). */
export function cacheControlMarker(control: unknown): CacheMarker | null {
  return isObject(control) ? { kind: "cache_control", ttl: typeof control.ttl === "string" ? control.ttl : null } : null;
}

/** The marker a block carries (PD-5), or null. */
export function markerOf(block: unknown): CacheMarker | null {
  if (!isObject(block)) return null;
  const control = cacheControlMarker(block.cache_control);
  if (control) return control;
  const breakpoint = block.prompt_cache_breakpoint;
  if (breakpoint !== undefined && breakpoint !== null && breakpoint !== false) {
    const ttl = isObject(breakpoint) && typeof breakpoint.ttl === "string" ? breakpoint.ttl : null;
    return { kind: "prompt_cache_breakpoint", ttl };
  }
  return null;
}

function withoutKeys(source: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  // Own keys in Object.keys order, without the list of keys it would make (every new message's header comes here).
  for (const key in source) if (Object.prototype.hasOwnProperty.call(source, key) && !keys.includes(key)) result[key] = source[key];
  return result;
}

/** The canonical value of a segment (allocates only for stripped, header and text-block views). */
export function canonicalValue(source: unknown, view: SegmentView, textType = "text"): unknown {
  switch (view) {
    case "whole":
      return source;
    case "strip":
      return isObject(source) && markerOf(source) ? withoutKeys(source, MARKER_KEYS) : source;
    case "header":
      // A marker on the message itself (hermes' tool and empty messages, HS-42) is a marker too.
      return isObject(source) ? withoutKeys(source, HEADER_LEFT_OUT) : source;
    case "text-block":
      return { type: textType, text: source };
  }
}

/** Compact JSON (PR-1); `undefined` renders as `null` so every value has a rendering. */
export function renderCanonical(value: unknown): string {
  return JSON.stringify(value, renderingStoredTexts) ?? "null";
}

/**
 * The decoded text leaves of a value, in rendering order: what a tokenizer sees (TK-8). Strings
 * under structural keys (type, id, role, …) and `$notRecorded` markers are left out.
 */
export function tokenTextOf(value: unknown): string {
  return tokenPartsOf(value).map(textString).join("");
}

/**
 * The UTF-16 length of `tokenTextOf(value)`, without joining (or decoding) the texts: what a
 * counter that only needs the length (chars/4) reads.
 */
export function tokenLengthOf(value: unknown, key: string | null = null): number {
  if (typeof value === "string") return key === null || !STRUCTURAL_KEYS.has(key) ? value.length : 0;
  if (isStoredText(value)) return key === null || !STRUCTURAL_KEYS.has(key) ? value.units : 0;
  let length = 0;
  if (Array.isArray(value)) {
    for (const item of value) length += tokenLengthOf(item, null);
  } else if (isObject(value) && !isNotRecorded(value)) {
    for (const k of Object.keys(value)) length += tokenLengthOf(value[k], k);
  }
  return length;
}

function collectText(value: unknown, key: string | null, parts: Text[]): void {
  if (typeof value === "string" || isStoredText(value)) {
    if (key === null || !STRUCTURAL_KEYS.has(key)) parts.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) collectText(item, null, parts);
    return;
  }
  if (isObject(value)) {
    if (isNotRecorded(value)) return;
    for (const k of Object.keys(value)) collectText(value[k], k, parts);
  }
}

/**
 * The texts `tokenTextOf(value)` joins, in order, as they are: texts kept as bytes are not
 * decoded, so a counter keyed by them (`TokenCounter.countParts`) reads none of them.
 */
function tokenPartsOf(value: unknown): Text[] {
  const parts: Text[] = [];
  collectText(value, null, parts);
  return parts;
}

/**
 * The tokens of `tokenTextOf(value)` under `counter`, reading no more than the counter needs: the
 * length alone (chars/4), the parts as they are (a counter keyed by them), or the joined text.
 */
export function countTokenText(counter: TokenCounter, value: unknown): number {
  if (counter.countLength) return counter.countLength(tokenLengthOf(value));
  if (counter.countParts) return counter.countParts(tokenPartsOf(value));
  return counter.count(tokenTextOf(value));
}

/** Whether a string leaf under `key` counts as text (the rule of `tokenTextOf`). */
export function isTextKey(key: string | number | null): boolean {
  return typeof key !== "string" || !STRUCTURAL_KEYS.has(key);
}
