// Where a prefix break lies in the text the Diff tab shows: the request pretty-printed exactly as
// `JSON.stringify(body, null, 2)`, plus the UTF-16 offset at which the value at a JSON path starts
// (the deepest part of the path the body has: a canonical path such as `messages[3].content[0].text`
// may end inside a string content, which the body holds as a plain string). Linear in the body.
import { firstDifferingIndex } from "../util/utf8";
import type { PathStep } from "./locate";
import { decodeStoredText, isStoredText } from "../text/storedText";
import { isText, textString } from "../text/text";

/** `messages[12].content[0].text` / `tools[3]` / `a["odd key"]` → path steps. */
export function parsePath(path: string): PathStep[] {
  const steps: PathStep[] = [];
  const pattern = /([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const match of path.matchAll(pattern)) {
    if (match[1] !== undefined) steps.push(match[1]);
    else if (match[2] !== undefined) steps.push(Number(match[2]));
    else if (match[3] !== undefined) steps.push(JSON.parse(match[3]) as string);
  }
  return steps;
}

export interface PrettyLocation {
  /** `JSON.stringify(value, null, 2)` (equal byte for byte for plain data). */
  text: string;
  /** Offset where the value at the deepest reachable part of the path starts; null without a path. */
  offset: number | null;
  /** How many steps of the path the value has. */
  depth: number;
  /** The value found there. */
  found: unknown;
}

function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

/** Pretty-prints `value` like JSON.stringify(value, null, 2) and locates `path` in the output. */
export function prettyJsonWithOffset(value: unknown, path: readonly PathStep[] | null): PrettyLocation {
  const parts: string[] = [];
  let length = 0;
  let best: { depth: number; offset: number; found: unknown } | null = null;
  const emit = (text: string) => {
    parts.push(text);
    length += text.length;
  };

  // `matched`: how many leading steps of `path` the current value's path equals (-1: diverged).
  const print = (node: unknown, indent: string, matched: number): void => {
    if (path && matched >= 0 && (best === null || matched > best.depth)) best = { depth: matched, offset: length, found: node };
    if (isStoredText(node)) return emit(JSON.stringify(decodeStoredText(node)));
    if (node === null || typeof node !== "object") {
      if (typeof node === "number") emit(Number.isFinite(node) ? String(node) : "null");
      else if (typeof node === "string" || typeof node === "boolean") emit(JSON.stringify(node));
      else emit("null");
      return;
    }
    const inner = `${indent}  `;
    const next = (step: PathStep): number => (path && matched >= 0 && matched < path.length && path[matched] === step ? matched + 1 : -1);
    if (Array.isArray(node)) {
      if (node.length === 0) return emit("[]");
      emit("[\n");
      node.forEach((item, i) => {
        emit(inner);
        print(isSkipped(item) ? null : item, inner, next(i));
        emit(i < node.length - 1 ? ",\n" : "\n");
      });
      return emit(`${indent}]`);
    }
    const keys = Object.keys(node).filter((key) => !isSkipped((node as Record<string, unknown>)[key]));
    if (keys.length === 0) return emit("{}");
    emit("{\n");
    keys.forEach((key, i) => {
      emit(`${inner}${JSON.stringify(key)}: `);
      print((node as Record<string, unknown>)[key], inner, next(key));
      emit(i < keys.length - 1 ? ",\n" : "\n");
    });
    emit(`${indent}}`);
  };

  print(value, "", path ? 0 : -1);
  const located = best as { depth: number; offset: number; found: unknown } | null;
  return { text: parts.join(""), offset: located?.offset ?? null, depth: located?.depth ?? 0, found: located?.found };
}

/**
 * Offset inside a pretty-printed JSON string value (starting at its opening quote) of the raw
 * character `charIndex`: escapes make the text longer than the string.
 */
export function offsetInJsonString(raw: string, charIndex: number): number {
  return JSON.stringify(raw.slice(0, charIndex)).length - 1;
}

/** The list a body's conversation lives in (`messages`, `input`, `contents`). */
function conversationKey(body: Record<string, unknown>): string | null {
  for (const key of ["messages", "input", "contents"]) if (Array.isArray(body[key])) return key;
  return null;
}

function valueAt(value: unknown, steps: readonly (string | number)[]): unknown {
  let node = value;
  for (const step of steps) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string | number, unknown>)[step];
  }
  return node;
}

/**
 * The current request's pretty JSON and the offset where it stops sharing the previous one: at
 * the break path (inside a string, at the first differing character), or — when the request
 * extends the previous one — at the first conversation item the previous request did not have.
 */
export function locateBoundary(
  previous: Record<string, unknown> | null,
  current: Record<string, unknown>,
  breakPath: string | null,
): { text: string; offset: number | null } {
  if (!previous) return { text: prettyJsonWithOffset(current, null).text, offset: 0 };
  if (breakPath) {
    const steps = parsePath(breakPath);
    const located = prettyJsonWithOffset(current, steps);
    let offset = located.offset;
    const before = valueAt(previous, steps.slice(0, located.depth));
    if (offset !== null && isText(located.found) && isText(before)) {
      const found = textString(located.found);
      offset += offsetInJsonString(found, firstDifferingIndex(textString(before), found));
    }
    return { text: located.text, offset };
  }
  const key = conversationKey(current);
  const previousLength = key && Array.isArray(previous[key]) ? (previous[key] as unknown[]).length : 0;
  const currentLength = key ? (current[key] as unknown[]).length : 0;
  if (key && previousLength < currentLength) {
    const located = prettyJsonWithOffset(current, [key, previousLength]);
    return { text: located.text, offset: located.depth === 2 ? located.offset : null };
  }
  return { text: prettyJsonWithOffset(current, null).text, offset: null };
}

