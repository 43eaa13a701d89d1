// Finds the secrets in one string: every catalogue pattern scans the text on its own, then
// overlapping ranges are merged so that no character of a secret stays visible. The merged range
// takes the kind of the highest-priority pattern (earliest in the catalogue) among those merged.
import { secretCatalogue } from "./catalogue";
import type { RegexSecretPattern, SecretMatch, SecretPattern } from "./types";
import { largeTextMemo } from "../util/large-text-memo";
import { keywordIndex, type KeywordIndex } from "./keywords";

const SECRET_GROUPS = ["secret", "secret2", "secret3"] as const;

interface RankedMatch extends SecretMatch {
  priority: number;
}

/**
 * One private regex per pattern, compiled once: `lastIndex` is state, so the catalogue's own
 * objects are never used for matching; it is reset before each (synchronous) scan.
 */
const compiled = new WeakMap<RegexSecretPattern, RegExp>();

function matcherFor(pattern: RegexSecretPattern): RegExp {
  let regex = compiled.get(pattern);
  if (!regex) {
    const flags = new Set([...pattern.regex.flags, "g", "d"]);
    regex = new RegExp(pattern.regex.source, [...flags].join(""));
    compiled.set(pattern, regex);
  }
  regex.lastIndex = 0;
  return regex;
}

/** A catalogue's keyword pre-filter: the automaton, and which patterns (by position) each word wakes. */
interface Prefilter {
  index: KeywordIndex | null;
  patternsOf: Map<string, number[]>;
  /** Positions of the patterns without keywords: they run on every text. */
  always: number[];
}

/** The pre-filter of each catalogue, built once. */
const prefilters = new WeakMap<readonly SecretPattern[], Prefilter>();

function prefilterFor(catalogue: readonly SecretPattern[]): Prefilter {
  let prefilter = prefilters.get(catalogue);
  if (prefilter === undefined) {
    const patternsOf = new Map<string, number[]>();
    const always: number[] = [];
    catalogue.forEach((pattern, position) => {
      if (!("keywords" in pattern) || !pattern.keywords) always.push(position);
      else for (const word of pattern.keywords) patternsOf.set(word, [...(patternsOf.get(word) ?? []), position]);
    });
    prefilter = { index: patternsOf.size > 0 ? keywordIndex(patternsOf.keys()) : null, patternsOf, always };
    prefilters.set(catalogue, prefilter);
  }
  return prefilter;
}

/**
 * Positions of the patterns to run on `text`: those without keywords, and those with a keyword the
 * text holds (a text holding none skips the pattern without running its regex).
 */
function patternsToRun(catalogue: readonly SecretPattern[], text: string): number[] {
  const prefilter = prefilterFor(catalogue);
  if (!prefilter.index) return prefilter.always;
  const woken = new Set<number>();
  for (const word of prefilter.index.present(text)) for (const position of prefilter.patternsOf.get(word)!) woken.add(position);
  return woken.size === 0 ? prefilter.always : [...prefilter.always, ...woken];
}

/** The range of the secret in a match: a numbered group, a named `secret…` group, or the whole. */
function secretRange(pattern: RegexSecretPattern, match: RegExpExecArray): [number, number] {
  const indices = match.indices;
  if (pattern.secretGroup !== undefined && indices) {
    if (pattern.secretGroup === "first") {
      for (let group = 1; group < indices.length; group++) {
        const found = indices[group];
        if (found && found[1] > found[0]) return found;
      }
    } else {
      const found = indices[pattern.secretGroup];
      if (found) return found;
    }
  }
  const named = indices?.groups ?? {};
  for (const name of SECRET_GROUPS) {
    const found = named[name];
    if (found) return found;
  }
  return [match.index, match.index + match[0].length];
}

function regexMatches(pattern: RegexSecretPattern, text: string, priority: number, out: RankedMatch[]): void {
  if (pattern.anchors && !pattern.anchors.some((anchor) => text.includes(anchor))) return;
  const regex = matcherFor(pattern);
  let match: RegExpExecArray | null;
  while ((match = regex.exec(text)) !== null) {
    if (match[0].length === 0) {
      regex.lastIndex++;
      continue;
    }
    const groups = match.groups ?? {};
    const indices = match.indices?.groups ?? {};
    const [start, end] = secretRange(pattern, match);
    const value = text.slice(start, end);
    if (pattern.validate && !pattern.validate(value, groups, match[0])) continue;
    const prefixRange = indices.prefix;
    const prefixLength = prefixRange && prefixRange[0] === start ? prefixRange[1] - prefixRange[0] : 0;
    out.push({ kind: pattern.id, label: pattern.label, start, end, value, prefixLength, mask: pattern.mask, priority });
  }
}

/**
 * Every secret in `text`, sorted by position, overlapping finds merged into one. `extra` matches
 * (found by structure, e.g. a secret-named JSON key) rank after every catalogue pattern.
 */
export function findSecrets(
  text: string,
  catalogue: readonly SecretPattern[] = secretCatalogue(),
  extra: readonly SecretMatch[] = [],
): SecretMatch[] {
  // A large text is scanned once per content (a 50 MB field reaches every turn's request); each
  // caller gets its own copies of the finds.
  if (catalogue === secretCatalogue() && extra.length === 0) return largeScans.get(text, (whole) => scan(whole, catalogue, extra)).map((match) => ({ ...match }));
  return scan(text, catalogue, extra);
}

/** Finds of the full catalogue in large texts, by content. */
const largeScans = largeTextMemo<SecretMatch[]>();

function scan(text: string, catalogue: readonly SecretPattern[], extra: readonly SecretMatch[]): SecretMatch[] {
  const found: RankedMatch[] = extra.map((match) => ({ ...match, priority: catalogue.length }));
  for (const priority of patternsToRun(catalogue, text)) {
    const pattern = catalogue[priority]!;
    if ("scan" in pattern) {
      for (const { start, end } of pattern.scan(text)) {
        found.push({
          kind: pattern.id,
          label: pattern.label,
          start,
          end,
          value: text.slice(start, end),
          prefixLength: 0,
          mask: pattern.mask,
          priority,
        });
      }
    } else {
      regexMatches(pattern, text, priority, found);
    }
  }
  return acrossWraps(mergeOverlaps(found, text), text);
}

/** Characters a key is made of (base64, base64url, hex, the separators vendors use). */
const KEY_CHAR = /[A-Za-z0-9+/=_-]/;
/** Shortest continuation taken for the rest of a wrapped key (a shorter word is more likely prose). */
const MIN_WRAPPED_TAIL = 8;
/** `NAME=value` at the start of the next line: a new assignment, not the rest of a key. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]{0,200}=[^=]/;

/**
 * A key wrapped by a newline (a terminal or a tool wrapped the line) continues on the next line:
 * when a match ends at a line end and the next line starts with a run of key characters that is
 * all the line holds up to a space, a quote or the end (not `NAME=…`, a new assignment), the
 * match takes that run in, for each further wrap too. Masks then still cover the whole key.
 */
function acrossWraps(matches: SecretMatch[], text: string): SecretMatch[] {
  if (matches.length === 0) return matches;
  const out: SecretMatch[] = [];
  for (const match of matches) {
    let end = match.end;
    // A match that already spans lines (a private key block) has its own end.
    for (; !match.value.includes("\n"); ) {
      let at = end;
      if (text[at] === "\r") at++;
      if (text[at] !== "\n") break;
      at++;
      let tail = at;
      while (tail < text.length && tail - at <= 4096 && KEY_CHAR.test(text[tail]!)) tail++;
      const next = text[tail];
      const endsRun = next === undefined || next === " " || next === "\n" || next === "\r" || next === '"' || next === "'" || next === "\t" || next === ",";
      if (tail - at < MIN_WRAPPED_TAIL || !endsRun || !/[A-Za-z0-9]/.test(text[at]!) || ASSIGNMENT.test(text.slice(at, tail))) break;
      end = tail;
    }
    const previous = out[out.length - 1];
    if (previous && match.start < previous.end) {
      previous.end = Math.max(previous.end, end);
      previous.value = text.slice(previous.start, previous.end);
      continue;
    }
    out.push(end === match.end ? match : { ...match, end, value: text.slice(match.start, end) });
  }
  // A wrap can reach into the next match: merge those.
  const merged: SecretMatch[] = [];
  for (const match of out) {
    const previous = merged[merged.length - 1];
    if (previous && match.start < previous.end) {
      previous.end = Math.max(previous.end, match.end);
      previous.value = text.slice(previous.start, previous.end);
    } else merged.push({ ...match });
  }
  return merged;
}

/** Merges overlapping ranges; the best-priority match of each group names it. */
function mergeOverlaps(found: RankedMatch[], text: string): SecretMatch[] {
  found.sort((a, b) => a.start - b.start || b.end - a.end || a.priority - b.priority);
  const merged: SecretMatch[] = [];
  let index = 0;
  while (index < found.length) {
    const first = found[index] as RankedMatch;
    let best = first;
    let end = first.end;
    let full = first.mask === "full";
    index++;
    // Overlap: extend the group; any "full" member keeps the whole group fully hidden.
    while (index < found.length && (found[index] as RankedMatch).start < end) {
      const next = found[index] as RankedMatch;
      end = Math.max(end, next.end);
      full ||= next.mask === "full";
      if (next.priority < best.priority) best = next;
      index++;
    }
    merged.push({
      kind: best.kind,
      label: best.label,
      start: first.start,
      end,
      value: text.slice(first.start, end),
      prefixLength: best.start === first.start ? Math.min(best.prefixLength, end - first.start) : 0,
      mask: full ? "full" : "edges",
    });
  }
  return merged;
}
