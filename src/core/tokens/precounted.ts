// Two o200k sources for counting on other cores (CounterOptions.o200kSource): one pass of the
// analysis with `collectingO200k` names every distinct text it needs counted (and counts chars/4
// meanwhile); the texts are counted elsewhere, once each; a second pass with `precountedO200k`
// looks the counts up. A text the first pass did not name is counted here (once), so the result
// is always what o200kCounter gives. The same pair exists for the Claude vocabulary behind the
// Anthropic estimate (CounterOptions.claudeSource).
import { countClaudeVocabulary } from "./claude";
import { CLAUDE_VOCABULARY_ID, o200kCounter, type TokenCounter } from "./counters";
import type { TokenizerTable } from "./tables";
import { tokenLengthOf, tokenTextOf } from "../prefix/canonical";
import { storedPartsKey } from "../prefix/tokenKey";

/**
 * How a memo of counts is keyed: by the text itself (the default), or by a short key standing for
 * it (`textDigest`), so the memo does not keep every distinct text alive.
 */
export type TextKey = (text: string) => string;
const byText: TextKey = (text) => text;

/**
 * Receives a text to count and the key its count is to be found under (`keyOf` of the text, or
 * `storedPartsKey` of the value it came from).
 */
export type OnText = (text: string, key: string) => void;

/** Calls `onText` once per distinct non-empty text it is asked to count; counts chars/4 meanwhile. */
export function collectingO200k(onText: OnText, keyOf: TextKey = byText): TokenCounter {
  return collecting("o200k:collecting", "estimate (chars/4, collecting texts for o200k)", onText, keyOf);
}

function collecting(id: string, label: string, onText: OnText, keyOf: TextKey): TokenCounter {
  const seen = new Set<string>();
  const collect = (key: string, text: () => string) => {
    if (seen.has(key)) return;
    seen.add(key);
    onText(text(), key);
  };
  return {
    id,
    exact: false,
    label,
    count(text) {
      if (text.length === 0) return 0;
      collect(keyOf(text), () => text);
      return Math.ceil(text.length / 4);
    },
    countValue(value) {
      const length = tokenLengthOf(value);
      if (length === 0) return 0;
      const key = storedPartsKey(value);
      if (key === null) {
        const text = tokenTextOf(value);
        collect(keyOf(text), () => text);
      } else collect(key, () => tokenTextOf(value)); // decoded only when first seen
      return Math.ceil(length / 4);
    },
  };
}

/**
 * Exact o200k counts looked up in `counts` (made elsewhere), counted here when missing and
 * remembered, so a text asked for twice (a segment's text, then the same text in the turn's
 * composition) is counted once. With an empty map it is a memo of o200kCounter.
 */
export function precountedO200k(counts: ReadonlyMap<string, number> = new Map(), keyOf: TextKey = byText): TokenCounter {
  return precounted(o200kCounter.id, true, o200kCounter.label, counts, (text) => o200kCounter.count(text), keyOf);
}

/** A counter giving `counts`' figures (keyed by `keyOf`), and `count`'s (made once per text) for what they lack. */
function precounted(id: string, exact: boolean, label: string, counts: ReadonlyMap<string, number>, count: (text: string) => number, keyOf: TextKey): TokenCounter {
  const countedHere = new Map<string, number>();
  const lookUp = (key: string, text: () => string) => {
    let tokens = counts.get(key) ?? countedHere.get(key);
    if (tokens === undefined) {
      tokens = count(text());
      countedHere.set(key, tokens);
    }
    return tokens;
  };
  const countText = (text: string) => (text.length === 0 ? 0 : lookUp(keyOf(text), () => text));
  return {
    id,
    exact,
    label,
    count: countText,
    countValue(value) {
      const key = storedPartsKey(value);
      // Decoded only when the count is not there.
      return key === null ? countText(tokenTextOf(value)) : lookUp(key, () => tokenTextOf(value));
    },
  };
}

/** Calls `onText` once per distinct non-empty text the Anthropic estimate asks about; counts chars/4 meanwhile. */
export function collectingClaude(onText: OnText, keyOf: TextKey = byText): TokenCounter {
  return collecting(`${CLAUDE_VOCABULARY_ID}:collecting`, "estimate (chars/4, collecting texts for the Claude vocabulary)", onText, keyOf);
}

/** Claude-vocabulary counts (unscaled) looked up in `counts` (made elsewhere), counted here when missing and remembered. */
export function precountedClaude(counts: ReadonlyMap<string, number> = new Map(), keyOf: TextKey = byText): TokenCounter {
  return precounted(CLAUDE_VOCABULARY_ID, false, "Claude vocabulary", counts, countClaudeVocabulary, keyOf);
}

/**
 * Counts texts elsewhere (the browser's counting workers), per tokenizer table: every text
 * submitted is counted once with that table (o200k_base, or the Claude vocabulary unscaled);
 * finish() gives the counts of all of them, each under the key it was submitted with (the pool
 * keeps no text once it is sent).
 */
export interface TableCountPool {
  submit(table: TokenizerTable, text: string, key: string): void;
  /**
   * Resolves once the texts submitted and not yet counted hold fewer than `chars` characters: a
   * walk naming texts faster than they are counted waits here, so they are never all held at once.
   */
  belowPending(chars: number): Promise<void>;
  finish(): Promise<ReadonlyMap<TokenizerTable, ReadonlyMap<string, number>>>;
}
