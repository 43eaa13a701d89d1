// Word counting per Unicode script (RL-5, RL-6): tokens split at whitespace and punctuation;
// letters get their script; a token of a spaced script counts one word of its majority script;
// scripts written without spaces count ceil(run / 2) words per maximal same-script run.
import type { ReplyLanguageOptions, ScriptName } from "./options";

export type WordCounts = Partial<Record<ScriptName, number>>;

const NAMED_SCRIPTS: readonly Exclude<ScriptName, "Other">[] = [
  "Latin",
  "Hangul",
  "Han",
  "Hiragana",
  "Katakana",
  "Cyrillic",
  "Greek",
  "Arabic",
  "Hebrew",
  "Thai",
  "Devanagari",
];
const SCRIPT_RE = new Map(NAMED_SCRIPTS.map((s) => [s, new RegExp(`^\\p{Script=${s}}$`, "u")]));
const SCRIPT_EXT_RE = new Map(NAMED_SCRIPTS.map((s) => [s, new RegExp(`^\\p{Script_Extensions=${s}}$`, "u")]));
const LETTER = /^\p{L}$/u;
const MARK = /^\p{M}$/u;
const WHITESPACE = /^\s$/u;
const PUNCTUATION = /^\p{P}$/u;

/** Script of one code point when it is a letter (or a mark of a specific script); null otherwise. */
function letterScript(ch: string): ScriptName | null {
  const cp = ch.codePointAt(0) ?? 0;
  // Fast paths for the common ranges.
  if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return "Latin";
  if (cp < 0x80) return null;
  if (cp >= 0xac00 && cp <= 0xd7a3) return "Hangul";
  if (cp >= 0x4e00 && cp <= 0x9fff) return "Han";
  if (cp >= 0x3041 && cp <= 0x3096) return "Hiragana";
  if (cp >= 0x30a1 && cp <= 0x30fa) return "Katakana";
  const letter = LETTER.test(ch);
  if (!letter && !MARK.test(ch)) return null;
  for (const s of NAMED_SCRIPTS) if ((SCRIPT_RE.get(s) as RegExp).test(ch)) return s;
  // Common/Inherited letters shared by named scripts (e.g. the prolonged sound mark ー).
  for (const s of NAMED_SCRIPTS) if ((SCRIPT_EXT_RE.get(s) as RegExp).test(ch)) return s;
  // Marks of no specific script (combining accents) do not count; other letters do.
  return letter ? "Other" : null;
}

function isSeparator(ch: string, options: ReplyLanguageOptions): boolean {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp === 32 || cp === 9 || cp === 10 || cp === 13) return true;
  if (cp < 0x80) {
    if (!options.splitTokensAtPunctuation) return false;
    return PUNCTUATION.test(ch);
  }
  if (WHITESPACE.test(ch)) return true;
  return options.splitTokensAtPunctuation && PUNCTUATION.test(ch);
}

function add(counts: WordCounts, script: ScriptName, n: number): void {
  if (n <= 0) return;
  counts[script] = (counts[script] ?? 0) + n;
}

/** Words per script of one line (or any text: newlines split tokens too). */
export function countWords(text: string, options: ReplyLanguageOptions): WordCounts {
  const counts: WordCounts = {};
  const noSpace = new Set<ScriptName>(options.noSpaceScripts);
  const roundHalf = options.noSpaceRounding === "ceil" ? (r: number) => Math.ceil(r / 2) : (r: number) => Math.floor(r / 2);
  // Token state
  const spaced = new Map<ScriptName, number>();
  let firstSpaced: ScriptName | null = null;
  let lastSpaced: ScriptName | null = null;
  let runScript: ScriptName | null = null;
  let runLength = 0;

  const endRun = (): void => {
    if (runScript !== null) add(counts, runScript, roundHalf(runLength));
    runScript = null;
    runLength = 0;
  };
  const endToken = (): void => {
    endRun();
    if (spaced.size > 0) {
      let best: ScriptName | null = null;
      let bestCount = 0;
      let tie = false;
      for (const [script, n] of spaced) {
        if (n > bestCount) {
          best = script;
          bestCount = n;
          tie = false;
        } else if (n === bestCount) tie = true;
      }
      if (tie) {
        // Tie: the script of the token's first (or last) letter among the tied ones.
        const pick = options.tokenScriptTie === "first-letter" ? firstSpaced : lastSpaced;
        if (pick !== null && spaced.get(pick) === bestCount) best = pick;
        else {
          for (const [script, n] of spaced) if (n === bestCount) { best = script; break; }
        }
      }
      if (best !== null) add(counts, best, 1);
      spaced.clear();
    }
    firstSpaced = null;
    lastSpaced = null;
  };

  for (const ch of text) {
    if (isSeparator(ch, options)) {
      endToken();
      continue;
    }
    const script = letterScript(ch);
    if (script === null) {
      // Digits and symbols do not count, and break a run of a script without spaces.
      endRun();
      continue;
    }
    if (noSpace.has(script)) {
      if (runScript !== script) {
        endRun();
        runScript = script;
      }
      runLength++;
      continue;
    }
    endRun();
    spaced.set(script, (spaced.get(script) ?? 0) + 1);
    if (firstSpaced === null) firstSpaced = script;
    lastSpaced = script;
  }
  endToken();
  return counts;
}

export function totalWords(counts: WordCounts): number {
  let total = 0;
  for (const n of Object.values(counts)) total += n ?? 0;
  return total;
}
