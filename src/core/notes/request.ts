// Explicit reply-language requests (RL-10 … RL-13): an allow-list of directive shapes on the
// first or last non-empty line of a short message with no sign of pasted or reported speech.
// "When in doubt, no request": every check that fails names itself in `rejectedBy`.
import type { ReplyLanguageOptions } from "./options";
import { removeFencedCode, stripTaggedBlocks } from "./strip";

export interface RequestMatch {
  /** Listed name the user asked for. */
  language: string;
  /** The directive sentence as written (without its final punctuation). */
  sentence: string;
  /** Which line held it. */
  line: "first" | "last";
}

type RequestRejection =
  | "empty"
  | "too-many-lines"
  | "too-long"
  | "line-too-long"
  | "colon-terminated-line"
  | "speaker-prefix"
  | "quotation-mark"
  | "blockquote"
  | "mail-header"
  | "attribution"
  | "negation"
  | "conflicting-directives"
  | "no-directive";

export interface RequestCheck {
  request: RequestMatch | null;
  rejectedBy: RequestRejection | null;
}

// RL-11(a) limits [SEED].
const MAX_LINES = 3;
const MAX_CHARS = 300;
const MAX_LINE_CHARS = 200;
const MAX_SENTENCE_CHARS = 120;

const QUOTE_MARKS = /["'\u201C\u201D\u2018\u2019\u300C\u300D\u300E\u300F\u00AB\u00BB`]/;
const COLON_END = /[:\uFF1A]\s*$/;
const SPEAKER_PREFIX = /^\s*[^\s:\uFF1A]+(?:[ \t]+[^\s:\uFF1A]+){0,2}[ \t]*[:\uFF1A]/;
const SENTENCE_END = /[.!?\u3002\uFF01\uFF1F]/;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
/** A fixed phrase as a pattern where each space may be any run of spaces (or none for Korean). */
function phrase(s: string, spaces: string): string {
  return s.split(" ").map(escapeRe).join(spaces);
}

interface Shapes {
  korean: RegExp;
  english: RegExp;
  languages: Map<string, string>;
  attribution: RegExp[];
}
const shapesCache = new WeakMap<ReplyLanguageOptions, Shapes>();

function shapesFor(options: ReplyLanguageOptions): Shapes {
  const cached = shapesCache.get(options);
  if (cached) return cached;
  const languages = new Map<string, string>();
  for (const [word, name] of Object.entries(options.requestLanguageWords)) languages.set(word.toLowerCase(), name);
  const words = [...languages.keys()].sort((a, b) => b.length - a.length).map(escapeRe).join("|");
  const koreanLead = options.koreanLeadWords.map(escapeRe).join("|");
  const koreanVerbs = [...options.koreanRequestVerbs].sort((a, b) => b.length - a.length).map((v) => phrase(v, "\\s*")).join("|");
  const englishVerbs = options.englishRequestVerbs.map((v) => phrase(v, "\\s+")).join("|");
  const korean = new RegExp(
    `^(?:(?:${koreanLead || "(?!)"}),?\\s+)?(?:(?:답변은|대답은)\\s+)?(${words})(?:으로|로)\\s*(?:${koreanVerbs})$`,
    "iu",
  );
  const english = new RegExp(
    `^(?:from\\s+now\\s+on,?\\s+)?(?:please,?\\s+)?(?:${englishVerbs})\\s+in\\s+(${words})(?:\\s+from\\s+now\\s+on)?$`,
    "iu",
  );
  const attribution = options.attributionWords.map((w) =>
    /^[A-Za-z]+$/.test(w) ? new RegExp(`\\b${escapeRe(w)}\\b`, "i") : new RegExp(escapeRe(w)),
  );
  const shapes = { korean, english, languages, attribution };
  shapesCache.set(options, shapes);
  return shapes;
}

/** RL-12: the listed name a single sentence asks for, or null. */
function matchDirective(sentence: string, options: ReplyLanguageOptions): string | null {
  const s = sentence.trim();
  if (s === "" || s.length > MAX_SENTENCE_CHARS) return null;
  const shapes = shapesFor(options);
  const m = shapes.korean.exec(s) ?? shapes.english.exec(s);
  if (!m || m[1] === undefined) return null;
  const name = shapes.languages.get(m[1].toLowerCase());
  if (name === undefined || !options.languageNames.includes(name)) return null;
  return name;
}

function splitSentences(line: string): string[] {
  return line.split(SENTENCE_END).map((s) => s.trim()).filter((s) => s !== "");
}

/** RL-11(b): the first sign of pasted or reported content, or null. */
function disqualifier(lines: readonly string[], text: string, options: ReplyLanguageOptions): RequestRejection | null {
  const shapes = shapesFor(options);
  for (const line of lines) {
    if (line.trimStart().startsWith(">")) return "blockquote";
  }
  if (QUOTE_MARKS.test(text)) return "quotation-mark";
  for (const line of lines) {
    const trimmed = line.trim();
    const lower = trimmed.toLowerCase();
    for (const prefix of options.mailHeaderPrefixes) {
      if (lower.startsWith(prefix.toLowerCase())) return "mail-header";
    }
    for (const p of options.mailHeaderPhrases) {
      if (lower.includes(p.toLowerCase())) return "mail-header";
    }
  }
  for (const line of lines) {
    if (COLON_END.test(line)) return "colon-terminated-line";
    if (SPEAKER_PREFIX.test(line)) return "speaker-prefix";
  }
  for (const re of shapes.attribution) if (re.test(text)) return "attribution";
  return null;
}

/** RL-11 … RL-13 over the text of one message (text blocks joined with `\n`). */
export function checkRequest(text: string, options: ReplyLanguageOptions): RequestCheck {
  const reduced = stripTaggedBlocks(removeFencedCode(text)).text;
  const lines = reduced.split("\n").filter((l) => l.trim() !== "");
  const no = (rejectedBy: RequestRejection): RequestCheck => ({ request: null, rejectedBy });
  if (lines.length === 0) return no("empty");
  if (lines.length > MAX_LINES) return no("too-many-lines");
  if (reduced.trim().length > MAX_CHARS) return no("too-long");
  if (lines.some((l) => l.length > MAX_LINE_CHARS)) return no("line-too-long");
  const bad = disqualifier(lines, reduced, options);
  if (bad) return no(bad);
  if (options.negationVeto && options.negationPatterns.some((re) => re.test(reduced))) return no("negation");

  // RL-11(c): a whole sentence on the first or the last non-empty line.
  const found: RequestMatch[] = [];
  const candidates: [string, "first" | "last"][] = [[lines[0] as string, "first"]];
  if (lines.length > 1) candidates.push([lines[lines.length - 1] as string, "last"]);
  for (const [line, which] of candidates) {
    for (const sentence of splitSentences(line)) {
      const language = matchDirective(sentence, options);
      if (language !== null) found.push({ language, sentence, line: which });
    }
  }
  const first = found[0];
  if (!first) return no("no-directive");
  if (found.some((f) => f.language !== first.language)) return no("conflicting-directives");
  return { request: first, rejectedBy: null };
}
