// How a secret looks once masked. Deterministic and readable: a public vendor prefix stays
// (`sk-proj-`, `ghp_`, `AKIA`), then for long values a short head and tail around a count of the
// hidden characters, so a reader can still tell two keys apart and see how long they were:
//   sk-proj-Abcd…[redacted 148 chars]…9xQz
// Values shorter than 16 characters (after the prefix) are hidden entirely: `[redacted 9 chars]`.
// At most 4 characters are shown at each end, and never more than a quarter of the value.
import type { MaskStyle } from "./types";

/** Below this length (after the public prefix) nothing of the value is shown. */
export const FULL_MASK_BELOW = 16;
/** Most characters ever shown at each end of a masked value. */
export const MAX_VISIBLE_EDGE = 4;

export interface MaskOptions {
  /** Leading characters that are public structure (a vendor prefix) and stay visible. */
  prefixLength?: number;
  /** `edges` (default) shows a short head and tail of long values; `full` shows nothing. */
  style?: MaskStyle;
}

/** Characters shown at each end of a value of this length (edges style). */
export function visibleEdge(length: number): number {
  if (length < FULL_MASK_BELOW) return 0;
  if (length < 24) return 2;
  if (length < 32) return 3;
  return MAX_VISIBLE_EDGE;
}

function hiddenMarker(count: number): string {
  return `[redacted ${count} char${count === 1 ? "" : "s"}]`;
}

/** The masked form of one secret value (see the file header for the format). */
export function redactValue(value: string, options: MaskOptions = {}): string {
  const prefixLength = Math.max(0, Math.min(options.prefixLength ?? 0, value.length));
  const prefix = value.slice(0, prefixLength);
  const rest = value.slice(prefixLength);
  if (rest.length === 0) return prefix;
  const edge = options.style === "full" ? 0 : visibleEdge(rest.length);
  if (edge === 0) return `${prefix}${hiddenMarker(rest.length)}`;
  // Never cut a surrogate pair in half: show one character less instead.
  const headEnd = isHighSurrogate(rest.charCodeAt(edge - 1)) ? edge - 1 : edge;
  const tailStart = isLowSurrogate(rest.charCodeAt(rest.length - edge)) ? rest.length - edge + 1 : rest.length - edge;
  const hidden = tailStart - headEnd;
  return `${prefix}${rest.slice(0, headEnd)}\u2026${hiddenMarker(hidden)}\u2026${rest.slice(tailStart)}`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
