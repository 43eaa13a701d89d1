// Two o200k sources for counting on other cores (CounterOptions.o200kSource): one pass of the
// analysis with `collectingO200k` names every distinct text it needs counted (and counts chars/4
// meanwhile); the texts are counted elsewhere, once each; a second pass with `precountedO200k`
// looks the counts up. A text the first pass did not name is counted here (once), so the result
// is always what o200kCounter gives. The same pair exists for the Claude vocabulary behind the
// Anthropic estimate (CounterOptions.claudeSource).
import { countClaudeVocabulary } from "./claude";
import { CLAUDE_VOCABULARY_ID, o200kCounter, type TokenCounter } from "./counters";
import type { TokenizerTable } from "./tables";
import { partsDigest } from "./textDigest";
import { textString, textUnits, type Text } from "../text/text";

/**
 * How a memo of counts is keyed: by the text itself (the default), or by a short key standing for
 * it (`textDigest`), so the memo does not keep every distinct text alive.
 */
export type TextKey = (text: string) => string;
const byText: TextKey = (text) => text;

/**
 * Where a collecting counter names a text made of parts (some kept as bytes) without joining or
 * decoding them, with its key (`partsDigest`); the counts made of it must be looked up by a
 * counter made with `byParts`.
 */
export type OnParts = (parts: readonly Text[], key: string) => void;

/** Calls `onText` once per distinct non-empty text it is asked to count; counts chars/4 meanwhile. */
export function collectingO200k(onText: (text: string) => void, keyOf: TextKey = byText, onParts?: OnParts): TokenCounter {
  return collecting("o200k:collecting", "estimate (chars/4, collecting texts for o200k)", onText, keyOf, onParts);
}

function collecting(id: string, label: string, onText: (text: string) => void, keyOf: TextKey, onParts?: OnParts): TokenCounter {
  const seen = new Set<string>();
  const counter: TokenCounter = {
    id,
    exact: false,
    label,
    count(text) {
      if (text.length === 0) return 0;
      const key = keyOf(text);
      if (!seen.has(key)) {
        seen.add(key);
        onText(text);
      }
      return Math.ceil(text.length / 4);
    },
  };
  if (onParts) {
    counter.countParts = (parts) => {
      let units = 0;
      for (const part of parts) units += textUnits(part);
      if (units === 0) return 0;
      const key = partsDigest(parts);
      if (!seen.has(key)) {
        seen.add(key);
        onParts(parts, key);
      }
      return Math.ceil(units / 4);
    };
  }
  return counter;
}

/**
 * Exact o200k counts looked up in `counts` (made elsewhere), counted here when missing and
 * remembered, so a text asked for twice (a segment's text, then the same text in the turn's
 * composition) is counted once. With an empty map it is a memo of o200kCounter.
 */
export function precountedO200k(counts: ReadonlyMap<string, number> = new Map(), keyOf: TextKey = byText, byParts = false): TokenCounter {
  return precounted(o200kCounter.id, true, o200kCounter.label, counts, (text) => o200kCounter.count(text), keyOf, byParts);
}

/**
 * A counter giving `counts`' figures (keyed by `keyOf`), and `count`'s (made once per text) for
 * what they lack. With `byParts`, texts made of parts are looked up by `partsDigest` (the counts
 * of texts a collecting counter named with `OnParts`) and read only when they must be counted here.
 */
function precounted(id: string, exact: boolean, label: string, counts: ReadonlyMap<string, number>, count: (text: string) => number, keyOf: TextKey, byParts: boolean): TokenCounter {
  const countedHere = new Map<string, number>();
  const counter: TokenCounter = {
    id,
    exact,
    label,
    count(text) {
      if (text.length === 0) return 0;
      const key = keyOf(text);
      let tokens = counts.get(key) ?? countedHere.get(key);
      if (tokens === undefined) {
        tokens = count(text);
        countedHere.set(key, tokens);
      }
      return tokens;
    },
  };
  if (byParts) {
    counter.countParts = (parts) => {
      if (parts.every((part) => textUnits(part) === 0)) return 0;
      const key = partsDigest(parts);
      let tokens = counts.get(key) ?? countedHere.get(key);
      if (tokens === undefined) {
        tokens = count(parts.map(textString).join(""));
        countedHere.set(key, tokens);
      }
      return tokens;
    };
  }
  return counter;
}

/** Calls `onText` once per distinct non-empty text the Anthropic estimate asks about; counts chars/4 meanwhile. */
export function collectingClaude(onText: (text: string) => void, keyOf: TextKey = byText, onParts?: OnParts): TokenCounter {
  return collecting(`${CLAUDE_VOCABULARY_ID}:collecting`, "estimate (chars/4, collecting texts for the Claude vocabulary)", onText, keyOf, onParts);
}

/** Claude-vocabulary counts (unscaled) looked up in `counts` (made elsewhere), counted here when missing and remembered. */
export function precountedClaude(counts: ReadonlyMap<string, number> = new Map(), keyOf: TextKey = byText, byParts = false): TokenCounter {
  return precounted(CLAUDE_VOCABULARY_ID, false, "Claude vocabulary", counts, countClaudeVocabulary, keyOf, byParts);
}

/**
 * Counts texts elsewhere (the browser's counting workers), per tokenizer table: every text
 * submitted is counted once with that table (o200k_base, or the Claude vocabulary unscaled);
 * finish() gives the counts of all of them, keyed by `textDigest` of each text (the pool keeps
 * no text once it is sent).
 */
export interface TableCountPool {
  submit(table: TokenizerTable, text: string): void;
  /** A text made of `parts` (some kept as bytes), counted as their joined text and kept under `key`. */
  submitParts(table: TokenizerTable, parts: readonly Text[], key: string): void;
  /**
   * Resolves once the texts submitted and not yet counted hold fewer than `chars` characters: a
   * walk naming texts faster than they are counted waits here, so they are never all held at once.
   */
  belowPending(chars: number): Promise<void>;
  finish(): Promise<ReadonlyMap<TokenizerTable, ReadonlyMap<string, number>>>;
}
