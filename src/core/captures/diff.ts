// Comparing a rebuilt request body with a captured one the way the byte-for-byte check does:
// JSON.stringify after sorting every object's keys (key order is not compared: Codex sends
// `client_metadata` in hash-map order). Where they differ, the differing JSON paths, leaf by
// leaf; a string holding a JSON object on both sides (Codex's `x-codex-turn-metadata`) is
// compared inside, with "<json>" in the path.
import { isObject } from "../util/is-object";
import { decodeStoredText, isStoredText } from "../text/storedText";

/** `value` with every object's keys sorted (arrays keep their order). */
export function sortKeysDeep(value: unknown): unknown {
  if (isStoredText(value)) return decodeStoredText(value);
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeysDeep(value[key]);
    return out;
  }
  return value;
}

export function sortedJson(value: unknown): string {
  return JSON.stringify(sortKeysDeep(value)) ?? "undefined";
}

function jsonObject(text: string): Record<string, unknown> | null {
  if (!text.startsWith("{")) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function keyPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** One place the bodies differ: its path and the two values there. */
export interface DifferingLeaf {
  path: string;
  ours: unknown;
  theirs: unknown;
}

function walk(ours: unknown, theirs: unknown, path: string, out: DifferingLeaf[]): void {
  if (sortedJson(ours) === sortedJson(theirs)) return;
  if (Array.isArray(ours) && Array.isArray(theirs)) {
    if (ours.length !== theirs.length) {
      out.push({ path, ours, theirs });
      return;
    }
    ours.forEach((item, i) => walk(item, theirs[i], `${path}[${i}]`, out));
    return;
  }
  if (isObject(ours) && isObject(theirs)) {
    const keys = [...new Set([...Object.keys(ours), ...Object.keys(theirs)])].sort();
    for (const key of keys) walk(ours[key], theirs[key], keyPath(path, key), out);
    return;
  }
  if (typeof ours === "string" && typeof theirs === "string") {
    const a = jsonObject(ours);
    const b = jsonObject(theirs);
    if (a && b && sortedJson(a) !== sortedJson(b)) {
      walk(a, b, `${path}<json>`, out);
      return;
    }
  }
  out.push({ path, ours, theirs });
}

/** Every place the two bodies differ under sorted keys, with both values; [] when equal. */
export function differingLeaves(ours: unknown, theirs: unknown): DifferingLeaf[] {
  const out: DifferingLeaf[] = [];
  walk(ours, theirs, "$", out);
  return out;
}

/** Every JSON path ("$.a.b[0]") where the two bodies differ under sorted keys; [] when equal. */
export function differingPaths(ours: unknown, theirs: unknown): string[] {
  return differingLeaves(ours, theirs).map((leaf) => leaf.path);
}
