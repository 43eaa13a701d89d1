// Finds the first difference inside one segment (PD-1, second step): the deepest JSON path, the
// character index inside a differing string, and the decoded text shared before it (for the token
// offset, TK-8). Walks both canonical values in rendering order (Object.keys order, as
// JSON.stringify), so the path agrees with the first differing byte of the renderings.
import { firstDifferingIndex } from "../util/utf8";
import { isTextKey } from "./canonical";
import { isObject } from "../util/is-object";
import { decodeStoredText, isStoredText } from "../text/storedText";

export type PathStep = string | number;

export interface DifferenceLocation {
  /** Path from the segment's canonical value to the differing node. */
  path: PathStep[];
  /** Index of the first differing character when both sides are strings, else null. */
  charIndex: number | null;
  /** Decoded text leaves of the next value before the difference (shared text). */
  sharedText: string;
}

/** Locates the first difference between two canonical values; null when they are equal. */
export function locateDifference(previous: unknown, next: unknown): DifferenceLocation | null {
  const shared: string[] = [];
  const found = walk(previous, next, null, [], shared);
  if (!found) return null;
  return { path: found.path, charIndex: found.charIndex, sharedText: shared.join("") };
}

interface Found {
  path: PathStep[];
  charIndex: number | null;
}

function walk(a: unknown, b: unknown, key: PathStep | null, path: PathStep[], shared: string[]): Found | null {
  // A text kept as bytes is compared as its characters (the same text read twice is one reference).
  if (isStoredText(a) || isStoredText(b)) {
    if (a === b) {
      if (isTextKey(key) && isStoredText(b)) shared.push(decodeStoredText(b));
      return null;
    }
    return walk(isStoredText(a) ? decodeStoredText(a) : a, isStoredText(b) ? decodeStoredText(b) : b, key, path, shared);
  }
  if (typeof a === "string" && typeof b === "string") {
    if (a === b) {
      if (isTextKey(key)) shared.push(b);
      return null;
    }
    const index = firstDifferingIndex(a, b);
    if (isTextKey(key)) shared.push(b.slice(0, index));
    return { path, charIndex: index };
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const common = Math.min(a.length, b.length);
    for (let i = 0; i < common; i++) {
      const found = walk(a[i], b[i], null, [...path, i], shared);
      if (found) return found;
    }
    return a.length === b.length ? null : { path: [...path, common], charIndex: null };
  }
  if (isObject(a) && isObject(b)) {
    const keysA = Object.keys(a).filter((k) => a[k] !== undefined);
    const keysB = Object.keys(b).filter((k) => b[k] !== undefined);
    const common = Math.min(keysA.length, keysB.length);
    for (let i = 0; i < common; i++) {
      const k = keysB[i]!;
      if (keysA[i] !== k) return { path: [...path, k], charIndex: null };
      const found = walk(a[k], b[k], k, [...path, k], shared);
      if (found) return found;
    }
    if (keysA.length === keysB.length) return null;
    return { path: [...path, (keysB[common] ?? keysA[common])!], charIndex: null };
  }
  return Object.is(a, b) ? null : { path, charIndex: null };
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `messages[12].content[0]` + ["text"] → `messages[12].content[0].text`. */
export function joinPath(label: string, steps: readonly PathStep[]): string {
  let result = label;
  for (const step of steps) {
    if (typeof step === "number") result += `[${step}]`;
    else if (IDENTIFIER.test(step)) result += `.${step}`;
    else result += `[${JSON.stringify(step)}]`;
  }
  return result;
}
