// Reading the language of one user message (RL-5 … RL-9): strip (RL-2), count words per script,
// let the first line with two or more words decide, group scripts into names and apply the 30 %
// share. Outcomes: named (a listed name), latin (Latin or unnamed prose: "no note"), none (no prose).
import type { ReplyLanguageOptions } from "./options";
import { stripForReading } from "./strip";
import { countWords, totalWords, type WordCounts } from "./words";

export type Reading =
  | {
      kind: "named";
      name: string;
      /** 0-based index of the deciding line in the stripped text; -1 when the whole message decided. */
      line: number;
      words: number;
      groupWords: number;
    }
  | { kind: "latin"; line: number; words: number }
  | { kind: "none" };

export interface ReadingDetail {
  reading: Reading;
  /** Word counts of the deciding line (or message). */
  counts: WordCounts;
  /** RL-4 visit count of the tag pass over this message. */
  tagPassVisited: number;
}

/** RL-8 groups in tie order. */
const GROUP_ORDER = [
  "Japanese",
  "Chinese",
  "Korean",
  "Cyrillic script",
  "Greek",
  "Arabic script",
  "Hebrew",
  "Thai",
  "Devanagari script",
] as const;

function groupCounts(counts: WordCounts): Record<(typeof GROUP_ORDER)[number], number> {
  const kana = (counts.Hiragana ?? 0) + (counts.Katakana ?? 0);
  const han = counts.Han ?? 0;
  return {
    Japanese: kana > 0 ? kana + han : 0,
    Chinese: kana > 0 ? 0 : han,
    Korean: counts.Hangul ?? 0,
    "Cyrillic script": counts.Cyrillic ?? 0,
    Greek: counts.Greek ?? 0,
    "Arabic script": counts.Arabic ?? 0,
    Hebrew: counts.Hebrew ?? 0,
    Thai: counts.Thai ?? 0,
    "Devanagari script": counts.Devanagari ?? 0,
  };
}

/** RL-8: the name a set of word counts reads as, or latin. */
function decide(counts: WordCounts, line: number, options: ReplyLanguageOptions): Reading {
  const words = totalWords(counts);
  if (words === 0) return { kind: "none" };
  const groups = groupCounts(counts);
  const listed = new Set(options.languageNames);
  let best: (typeof GROUP_ORDER)[number] | null = null;
  let bestCount = 0;
  for (const name of GROUP_ORDER) {
    if (!listed.has(name)) continue;
    const n = groups[name];
    if (n === 0) continue;
    // Division (not multiplication) so that 3 of 10 is exactly 0.3.
    if (n / words + 1e-12 < options.namedShare) continue;
    // Same denominator: largest share = largest count; ties keep the earlier name.
    if (n > bestCount) {
      best = name;
      bestCount = n;
    }
  }
  if (best === null) return { kind: "latin", line, words };
  return { kind: "named", name: best, line, words, groupWords: bestCount };
}

/** RL-2 … RL-8 over the text of one message (text blocks joined with `\n`). */
export function readLanguageDetail(text: string, options: ReplyLanguageOptions): ReadingDetail {
  const stripped = stripForReading(text, options);
  const lines = stripped.text.split("\n");
  const total: WordCounts = {};
  for (let i = 0; i < lines.length; i++) {
    const counts = countWords(lines[i] as string, options);
    if (totalWords(counts) >= 2) {
      return { reading: decide(counts, i, options), counts, tagPassVisited: stripped.tagPassVisited };
    }
    for (const [script, n] of Object.entries(counts)) {
      const key = script as keyof WordCounts;
      total[key] = (total[key] ?? 0) + (n ?? 0);
    }
  }
  // RL-7 fallbacks: no line with two words.
  if (totalWords(total) === 0 || !options.wholeMessageFallback) {
    return { reading: { kind: "none" }, counts: total, tagPassVisited: stripped.tagPassVisited };
  }
  return { reading: decide(total, -1, options), counts: total, tagPassVisited: stripped.tagPassVisited };
}

/** The reading alone. */
export function readLanguage(text: string, options: ReplyLanguageOptions): Reading {
  return readLanguageDetail(text, options).reading;
}
