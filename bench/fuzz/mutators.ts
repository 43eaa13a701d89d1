// Mutation families for the fuzz harness: each takes a fixture's text and a seeded random source
// and returns a damaged copy. Pure (no Node or DOM), so the Vitest subset and the worker-thread
// runner make byte-identical inputs from the same (fixture, family, seed).
import { seededRandom } from "../../src/core/util/seeded-random";

type Random = () => number;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function intBelow(random: Random, n: number): number {
  return Math.floor(random() * n);
}

function splitLines(text: string): string[] {
  return text.split("\n");
}

/** The paths of every value in a parsed JSON value (breadth first, capped so huge lines stay cheap). */
function valuePaths(root: unknown, cap = 2000): (string | number)[][] {
  const paths: (string | number)[][] = [];
  const queue: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  for (let head = 0; head < queue.length && paths.length < cap; head++) {
    const { value, path } = queue[head]!;
    if (path.length > 0) paths.push(path);
    if (Array.isArray(value)) value.forEach((child, i) => queue.push({ value: child, path: [...path, i] }));
    else if (value !== null && typeof value === "object") {
      for (const [key, child] of Object.entries(value as Record<string, unknown>)) queue.push({ value: child, path: [...path, key] });
    }
  }
  return paths;
}

function setAt(root: unknown, path: readonly (string | number)[], value: unknown): void {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
}

function getAt(root: unknown, path: readonly (string | number)[]): unknown {
  let node = root as Record<string | number, unknown> | undefined;
  for (const key of path) node = node?.[key] as Record<string | number, unknown> | undefined;
  return node;
}

/** Values of the wrong type for any field: each is a type some reader or stage did not expect. */
const WRONG_VALUES: readonly (() => unknown)[] = [
  () => null,
  () => 0,
  () => -1,
  () => 1e308,
  () => -1e308,
  () => 3.5,
  () => true,
  () => "",
  () => "x",
  () => "not-a-date",
  () => [],
  () => [null],
  () => ({}),
  () => ({ type: "text" }),
  () => JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
  () => "__proto__",
  () => ["a", 1, null, {}],
];

/** Indices of the lines that look like JSON objects (cheap: nothing is parsed). */
function objectLineIndices(lines: readonly string[]): number[] {
  const found: number[] = [];
  lines.forEach((line, index) => {
    if (line.trimStart().startsWith("{")) found.push(index);
  });
  return found;
}

function parseObject(line: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(line) as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null; // not a JSON line: other families damage those
  }
}

/** Up to `count` random object lines, parsed (a few tries each; only the chosen lines are parsed). */
function randomObjectLines(lines: readonly string[], random: Random, count: number, accept: (value: Record<string, unknown>) => boolean = () => true): { index: number; value: Record<string, unknown> }[] {
  const candidates = objectLineIndices(lines);
  const found: { index: number; value: Record<string, unknown> }[] = [];
  for (let tries = 0; tries < count * 8 && found.length < count && candidates.length > 0; tries++) {
    const index = pick(random, candidates);
    const value = parseObject(lines[index]!);
    if (value && accept(value)) found.push({ index, value });
  }
  return found;
}

/** The whole text as one JSON document (opencode export, message lists), or null. */
function wholeDocument(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * Applies `change` to one JSON value of the input: a random JSONL object line, or (for a whole
 * JSON document) the document itself. Returns null when the input has no JSON object to change.
 */
function changeJson(text: string, random: Random, change: (root: unknown) => void): string | null {
  const lines = splitLines(text);
  if (lines.filter((l) => l.trim() !== "").length > 1) {
    const [target] = randomObjectLines(lines, random, 1);
    if (!target) return null;
    change(target.value);
    lines[target.index] = JSON.stringify(target.value);
    return lines.join("\n");
  }
  const doc = wholeDocument(text);
  if (doc === null || typeof doc !== "object") return null;
  change(doc);
  return JSON.stringify(doc, null, 1);
}

const ID_KEYS = ["id", "uuid"] as const;
const PARENT_KEYS = ["parentId", "parentUuid", "parent_id", "parentID"] as const;

function idOf(value: Record<string, unknown>): { key: string; id: unknown } | null {
  for (const key of ID_KEYS) if (key in value) return { key, id: value[key] };
  return null;
}

function parentKeyOf(value: Record<string, unknown>): string | null {
  for (const key of PARENT_KEYS) if (key in value) return key;
  return null;
}

/** `depth` nested arrays around a string: built as text, since building it as a value recurses. */
function deepJsonText(depth: number): string {
  return `${"[".repeat(depth)}"deep"${"]".repeat(depth)}`;
}

export type MutationFamily = (text: string, random: Random) => string | null;

/** Every family, by name. A family returns null when it does not apply to the input. */
const FAMILIES: Readonly<Record<string, MutationFamily>> = {
  truncate: (text, random) => text.slice(0, intBelow(random, text.length)),
  "flip-bytes": (text, random) => {
    const chars = text.split("");
    const flips = 1 + intBelow(random, 8);
    for (let i = 0; i < flips && chars.length > 0; i++) {
      const at = intBelow(random, chars.length);
      chars[at] = String.fromCharCode((chars[at]!.charCodeAt(0) ^ (1 << intBelow(random, 7))) || 32);
    }
    return chars.join("");
  },
  "stray-char": (text, random) => {
    const at = intBelow(random, text.length + 1);
    return text.slice(0, at) + pick(random, ["}", "]", "{", "[", ",", '"', ":", "\\"]) + text.slice(at);
  },
  "delete-lines": (text, random) => {
    const lines = splitLines(text);
    const count = 1 + intBelow(random, Math.max(1, Math.floor(lines.length / 4)));
    for (let i = 0; i < count && lines.length > 0; i++) lines.splice(intBelow(random, lines.length), 1);
    return lines.join("\n");
  },
  "duplicate-lines": (text, random) => {
    const lines = splitLines(text);
    const count = 1 + intBelow(random, 4);
    for (let i = 0; i < count; i++) {
      const at = intBelow(random, lines.length);
      lines.splice(intBelow(random, lines.length + 1), 0, lines[at]!);
    }
    return lines.join("\n");
  },
  "shuffle-lines": (text, random) => {
    const lines = splitLines(text);
    for (let i = lines.length - 1; i > 0; i--) {
      if (random() < 0.3) continue;
      const j = intBelow(random, i + 1);
      [lines[i], lines[j]] = [lines[j]!, lines[i]!];
    }
    return lines.join("\n");
  },
  "garbage-lines": (text, random) => {
    const lines = splitLines(text);
    const garbage = [
      "\u0000\u0001\u0002\ufffd\ufffd",
      "not json at all",
      "{",
      "}",
      "[1,2",
      '{"type":',
      "\ufeff{}",
      "null",
      "42",
      '"string"',
      "[]",
      "{}",
      String.fromCharCode(...Array.from({ length: 64 }, () => intBelow(random, 256))),
      "\r",
      "\u2028\u2029",
    ];
    const count = 1 + intBelow(random, 4);
    for (let i = 0; i < count; i++) lines.splice(intBelow(random, lines.length + 1), 0, pick(random, garbage));
    return lines.join("\n");
  },
  "wrong-type": (text, random) =>
    changeJson(text, random, (root) => {
      const paths = valuePaths(root);
      if (paths.length === 0) return;
      setAt(root, pick(random, paths), pick(random, WRONG_VALUES)());
    }),
  "duplicate-ids": (text, random) => {
    const lines = splitLines(text);
    const [a, b] = randomObjectLines(lines, random, 2, (value) => idOf(value) !== null);
    if (!a || !b) return null;
    a.value[idOf(a.value)!.key] = idOf(b.value)!.id;
    lines[a.index] = JSON.stringify(a.value);
    return lines.join("\n");
  },
  "parent-cycle": (text, random) => {
    const lines = splitLines(text);
    const linked = randomObjectLines(lines, random, 2, (value) => idOf(value) !== null && parentKeyOf(value) !== null);
    if (linked.length < 2 || linked[0]!.index === linked[1]!.index) return null;
    const [early, late] = linked[0]!.index < linked[1]!.index ? [linked[0]!, linked[1]!] : [linked[1]!, linked[0]!];
    // The earlier entry's parent becomes a later one: following parents from `late` comes back to it.
    early.value[parentKeyOf(early.value)!] = idOf(late.value)!.id;
    if (random() < 0.5) late.value[parentKeyOf(late.value)!] = idOf(early.value)!.id;
    lines[early.index] = JSON.stringify(early.value);
    lines[late.index] = JSON.stringify(late.value);
    return lines.join("\n");
  },
  "deep-nesting": (text, random) => {
    const marker = "\u0000DEEP\u0000";
    const changed = changeJson(text, random, (root) => {
      const paths = valuePaths(root);
      if (paths.length > 0) setAt(root, pick(random, paths), marker);
    });
    return changed === null ? null : changed.replace(JSON.stringify(marker), deepJsonText(10_000));
  },
  // JSON kept as a string inside a session (tool-call arguments), nested 10,000–100,000 deep.
  "deep-json-string": (text, random) =>
    changeJson(text, random, (root) => {
      const strings = valuePaths(root).filter((p) => typeof getAt(root, p) === "string");
      if (strings.length === 0) return;
      const depth = 10_000 + intBelow(random, 90_000);
      setAt(root, pick(random, strings), `{"a":${"[".repeat(depth)}${"]".repeat(depth)}}`);
    }),
  // The first line (a header, a session_meta) removed, cut, bit-flipped or given a wrong-typed field.
  "damaged-first-line": (text, random) => {
    const lines = splitLines(text);
    const at = lines.findIndex((line) => line.trim() !== "");
    if (at < 0) return null;
    const first = lines[at]!;
    const how = intBelow(random, 4);
    if (how === 0) lines.splice(at, 1);
    else if (how === 1) lines[at] = first.slice(0, intBelow(random, first.length));
    else if (how === 2) {
      const pos = intBelow(random, first.length);
      lines[at] = first.slice(0, pos) + String.fromCharCode((first.charCodeAt(pos) ^ (1 << intBelow(random, 7))) || 32) + first.slice(pos + 1);
    } else {
      const value = parseObject(first);
      if (!value) return null;
      const keys = Object.keys(value);
      if (keys.length === 0) return null;
      value[pick(random, keys)] = pick(random, WRONG_VALUES)();
      lines[at] = JSON.stringify(value);
    }
    return lines.join("\n");
  },
  // A raw CR or NUL byte inside a JSON string (never valid JSON, written by hand edits and crashes).
  "control-char-in-string": (text, random) => {
    const quotes: number[] = [];
    for (let i = text.indexOf('":"'); i >= 0 && quotes.length < 10_000; i = text.indexOf('":"', i + 3)) quotes.push(i + 3);
    if (quotes.length === 0) return null;
    const at = pick(random, quotes);
    return text.slice(0, at) + pick(random, ["\r", "\u0000", "\u0001", "\t"]) + text.slice(at);
  },
  "huge-field": (text, random) =>
    changeJson(text, random, (root) => {
      const strings = valuePaths(root).filter((p) => typeof getAt(root, p) === "string");
      if (strings.length === 0) return;
      // 50 MB of text with some structure, so tokenizers and patterns see words and separators.
      setAt(root, pick(random, strings), "sk-ant token ".repeat(4_000_000));
    }),
};

export const FAMILY_NAMES = Object.keys(FAMILIES);

/** Families whose inputs are large and slow to process: run rarely and with a longer time bound. */
export const HEAVY_FAMILIES: ReadonlySet<string> = new Set(["huge-field"]);

/** The mutated input for (text, family, seed), or null when the family does not apply. */
export function mutate(text: string, family: string, seed: number): string | null {
  const apply = FAMILIES[family];
  if (!apply) throw new Error(`unknown mutation family ${family}`);
  return apply(text, seededRandom(seed));
}
