// Options of senpi's reply-language notes (reply-language.md §9). Every rule the spec marks [INF]
// has a named option here whose default is the spec's value; INFERRED_RULES lists them with the
// alternative so the UI and docs can badge "inferred" and name the switch.

/** Unicode scripts the reading distinguishes (RL-5); everything else is "Other". */
export type ScriptName =
  | "Latin"
  | "Hangul"
  | "Han"
  | "Hiragana"
  | "Katakana"
  | "Cyrillic"
  | "Greek"
  | "Arabic"
  | "Hebrew"
  | "Thai"
  | "Devanagari"
  | "Other";

interface NoteTemplate {
  /** Note for a language read from what the user wrote; `{name}` is replaced by the name. */
  written: string;
  /** Note for a language the user explicitly asked for. */
  requested: string;
}

export interface ReplyLanguageOptions {
  /** RL-16 [SEED]: characters of tool output etc. since the user's last message before a note. */
  thresholdChars: number;
  /** RL-17 [INF]: the count restarts at 0 after a note was inserted. Alternative: keep counting. */
  resetAfterNote: boolean;
  /** RL-14 [INF]: `history` = latest request anywhere before, else latest non-none reading. */
  requestScope: "history" | "latestMessage";
  /** RL-18 [INF]: a request for English produces a note. Alternative: English never gets a note. */
  noteForRequestedEnglish: boolean;
  /** RL-19 [INF]: note texts. */
  noteTemplate: NoteTemplate;
  /** RL-23 [INF]: carrier note appended to the summary block, or as a second text block. */
  carrierForm: "same-block" | "second-block";
  /** RL-23 [INF]: separator between `</summary>` and the note in the same-block form. */
  carrierSeparator: string;
  /** RL-22 [INF]: carrier language from the effective language (RL-14) or the latest message only. */
  carrierScope: "effective" | "latestMessage";
  /** RL-8 [SEED]: share of the deciding line's words a group needs to be named. */
  namedShare: number;
  /** RL-9 [SEED + INF]: the closed list of names a note may carry. */
  languageNames: readonly string[];
  /** Terms [INF]: a Latin / unnamed reading decides "no language" (true) or is skipped like none. */
  latinDecides: boolean;
  /** RL-1 [INF]: provenance rules of user-role messages whose text is the user's own prose. */
  proseRules: readonly string[];
  /** RL-2 [INF]: paired quote delimiters whose spans are removed before reading. */
  quotedSpanPairs: readonly (readonly [string, string])[];
  /** RL-2 [INF]: quoted spans pair within one line (`line`) or across the whole text (`text`). */
  quotedSpanScope: "line" | "text";
  /** RL-3 [INF]: a line (after leading spaces) matching one of these is a pasted log line. */
  logLinePatterns: readonly RegExp[];
  /** RL-5 [INF]: tokens split at punctuation as well as whitespace. Alternative: whitespace only. */
  splitTokensAtPunctuation: boolean;
  /** RL-6 [INF]: scripts written without spaces (two characters = one word). */
  noSpaceScripts: readonly ScriptName[];
  /** RL-6 [INF]: rounding of run length / 2. */
  noSpaceRounding: "ceil" | "floor";
  /** RL-6 [INF]: tie between scripts inside one token: script of its first or of its last letter. */
  tokenScriptTie: "first-letter" | "last-letter";
  /** RL-7 [INF]: when no line has two words, the whole message decides (else: reading none). */
  wholeMessageFallback: boolean;
  /** RL-11(b) [INF for the extra words]: attribution words that mark reported speech. */
  attributionWords: readonly string[];
  /** RL-11(b) [INF for the extras]: line prefixes of mail/forward headers (case-insensitive). */
  mailHeaderPrefixes: readonly string[];
  /** RL-11(b) [INF for the extras]: phrases anywhere in a line that mark a forwarded message. */
  mailHeaderPhrases: readonly string[];
  /** RL-12 [INF for the table]: language words of a request → listed name. */
  requestLanguageWords: Readonly<Record<string, string>>;
  /** RL-12 [INF for the variants]: Korean verb endings after `<언어>로`. */
  koreanRequestVerbs: readonly string[];
  /** RL-12 [INF for the variants]: Korean lead words before the directive. */
  koreanLeadWords: readonly string[];
  /** RL-12 [INF for the variants]: English verbs before `in <language>`. */
  englishRequestVerbs: readonly string[];
  /** RL-13 [INF]: a negation marker anywhere in the message vetoes a request ("when in doubt"). */
  negationVeto: boolean;
  /** RL-13 [INF]: the markers used by `negationVeto` (regular expressions, case-insensitive). */
  negationPatterns: readonly RegExp[];
  /** RL-16 [INF]: characters counted as UTF-16 code units (JS length) or code points. */
  charMeasure: "utf16" | "codepoints";
  /** RL-25 [INF]: hash over UTF-16 code units or over UTF-8 bytes (not observable). */
  hashInput: "utf16" | "utf8";
}

const DEFAULT_LANGUAGE_NAMES: readonly string[] = [
  "Korean",
  "Japanese",
  "Chinese",
  "Cyrillic script",
  "English",
  "Greek",
  "Arabic script",
  "Hebrew",
  "Thai",
  "Devanagari script",
];

const DEFAULT_LOG_LINE_PATTERNS: readonly RegExp[] = [
  // ISO-like timestamp, bracketed time
  /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/,
  /^\[\d{1,2}:\d{2}/,
  // log level word followed by a separator (`ERROR:`, `[WARN]`, `error[E0308]:`, `INFO - `, `INFO |`)
  /^\[?(?:ERROR|WARN|WARNING|INFO|DEBUG|TRACE|FATAL|CRITICAL)(?:\]|\s*[:|[=-])/i,
  // stack frames: JS/Java `at name (…)`, `at path:1:2`; Python `File "…", line N`
  /^at\s+(?:new\s+|async\s+)?[\w$.<>[\]/\\-]+(?:\s*\(.*\)|:\d+(?::\d+)?)?\s*$/,
  /^File ".*", line \d+/,
  /^Traceback \(most recent call last\):/,
  // exception / error labels: `Error:`, `panic:`, `TypeError:`, `java.lang.NullPointerException:`
  /^panic:/,
  /^[A-Za-z_$][\w$.]*(?:Error|Exception):/,
  // shell prompt
  /^\$ /,
  // `path:line:col` prefix
  /^(?:[A-Za-z]:)?[\w./\\~-]+:\d+:\d+/,
];

export const DEFAULT_OPTIONS: ReplyLanguageOptions = {
  thresholdChars: 4000,
  resetAfterNote: true,
  requestScope: "history",
  noteForRequestedEnglish: true,
  noteTemplate: {
    written: "Reply language: {name}",
    requested: "Reply language: {name} (the user asked for it)",
  },
  carrierForm: "same-block",
  carrierSeparator: "\n\n",
  carrierScope: "effective",
  namedShare: 0.3,
  languageNames: DEFAULT_LANGUAGE_NAMES,
  latinDecides: true,
  proseRules: ["entry"],
  quotedSpanPairs: [
    ['"', '"'],
    ["\u201C", "\u201D"],
    ["\u2018", "\u2019"],
    ["\u300C", "\u300D"],
    ["\u300E", "\u300F"],
    ["\u00AB", "\u00BB"],
  ],
  quotedSpanScope: "line",
  logLinePatterns: DEFAULT_LOG_LINE_PATTERNS,
  splitTokensAtPunctuation: true,
  noSpaceScripts: ["Han", "Hiragana", "Katakana", "Thai"],
  noSpaceRounding: "ceil",
  tokenScriptTie: "first-letter",
  wholeMessageFallback: true,
  attributionWords: ["라고", "said", "says", "wrote", "writes"],
  mailHeaderPrefixes: ["From:", "Sent:", "To:", "Subject:", "Date:", "Cc:", "Re:", "Fwd:", "Fw:"],
  mailHeaderPhrases: ["Forwarded message", "Original Message", "전달된 메시지", "원본 메시지"],
  requestLanguageWords: {
    영어: "English",
    english: "English",
    한국어: "Korean",
    한글: "Korean",
    korean: "Korean",
    일본어: "Japanese",
    japanese: "Japanese",
    중국어: "Chinese",
    chinese: "Chinese",
    러시아어: "Cyrillic script",
    russian: "Cyrillic script",
  },
  koreanRequestVerbs: ["답해줘", "답해 줘", "대답해줘", "답변해줘", "해줘", "해 줘", "답해주세요", "해주세요"],
  koreanLeadWords: ["앞으로", "이제부터", "지금부터"],
  englishRequestVerbs: ["reply", "answer", "respond", "write your answers"],
  negationVeto: true,
  negationPatterns: [/지\s*마/, /지\s*말/, /\bdon'?t\b/i, /\bdo not\b/i, /\bnever\b/i],
  charMeasure: "utf16",
  hashInput: "utf16",
};

const resolved = new WeakMap<Partial<ReplyLanguageOptions>, ReplyLanguageOptions>();

/**
 * Fills in defaults; callers pass only what they change. Memoised per options object, so the
 * same partial object always gives the same resolved object (the pattern caches key on it).
 */
export function resolveOptions(partial?: Partial<ReplyLanguageOptions>): ReplyLanguageOptions {
  if (!partial || partial === DEFAULT_OPTIONS) return DEFAULT_OPTIONS;
  let full = resolved.get(partial);
  if (!full) {
    full = { ...DEFAULT_OPTIONS };
    for (const [key, value] of Object.entries(partial)) {
      if (value !== undefined) (full as unknown as Record<string, unknown>)[key] = value;
    }
    resolved.set(partial, full);
  }
  return full;
}

/** One [INF] rule: what we chose, the alternative and the option that switches it. */
export interface InferredRule {
  ruleId: string;
  what: string;
  option: keyof ReplyLanguageOptions | null;
  ourDefault: string;
  alternative: string;
}

/** Every place reply-language.md marks a rule (or part of one) as inferred. */
export const INFERRED_RULES: readonly InferredRule[] = [
  { ruleId: "RL-Terms", what: "splitting the no-decision outcome into latin (decides: no note) and none (does not decide)", option: "latinDecides", ourDefault: "true", alternative: "false: a Latin reading is skipped like none" },
  { ruleId: "RL-1", what: "which messages count as the user's own prose", option: "proseRules", ourDefault: "[\"entry\"] (user message entries only)", alternative: "add e.g. render:custom" },
  { ruleId: "RL-2", what: "exact patterns of quoted spans", option: "quotedSpanPairs", ourDefault: "\" \", “ ”, ‘ ’, 「 」, 『 』, « » within one line", alternative: "other pairs; quotedSpanScope \"text\" pairs across lines" },
  { ruleId: "RL-3", what: "the pasted log/error line patterns", option: "logLinePatterns", ourDefault: "timestamps, level words, stack frames, tracebacks, error labels, `$ `, path:line:col", alternative: "any list of regular expressions" },
  { ruleId: "RL-4", what: "the method of the linear tag strip (closing tags indexed by name, per-name monotonic pointer)", option: null, ourDefault: "index + pointer", alternative: "none needed: the output does not depend on the method" },
  { ruleId: "RL-5", what: "tokenisation and script assignment", option: "splitTokensAtPunctuation", ourDefault: "true", alternative: "false: split at whitespace only" },
  { ruleId: "RL-6", what: "Thai as a script without spaces", option: "noSpaceScripts", ourDefault: "Han, Hiragana, Katakana, Thai", alternative: "drop Thai" },
  { ruleId: "RL-6", what: "rounding of run length / 2", option: "noSpaceRounding", ourDefault: "ceil", alternative: "floor" },
  { ruleId: "RL-6", what: "majority assignment tie inside a token", option: "tokenScriptTie", ourDefault: "first-letter", alternative: "last-letter" },
  { ruleId: "RL-7", what: "fallback when no line has two words", option: "wholeMessageFallback", ourDefault: "true: the whole message decides", alternative: "false: reading none" },
  { ruleId: "RL-8", what: "grouping details and the names beyond Korean/Japanese/Chinese/Cyrillic", option: "languageNames", ourDefault: "RL-9 list", alternative: "a shorter list (unlisted groups read as latin)" },
  { ruleId: "RL-9", what: "Greek, Arabic script, Hebrew, Thai, Devanagari script in the name list", option: "languageNames", ourDefault: "included", alternative: "only the confirmed five" },
  { ruleId: "RL-11", what: "extra mail header prefixes and phrases", option: "mailHeaderPrefixes", ourDefault: "From: Sent: To: Subject: Date: Cc: Re: Fwd: Fw:", alternative: "a shorter list (see also mailHeaderPhrases)" },
  { ruleId: "RL-11", what: "attribution words wrote/writes", option: "attributionWords", ourDefault: "라고, said, says, wrote, writes", alternative: "라고, said, says" },
  { ruleId: "RL-12", what: "variant list of directive shapes", option: "koreanRequestVerbs", ourDefault: "spec list (also koreanLeadWords, englishRequestVerbs)", alternative: "core shapes only" },
  { ruleId: "RL-12", what: "word table of request languages", option: "requestLanguageWords", ourDefault: "영어/English, 한국어/한글/Korean, 일본어/Japanese, 중국어/Chinese, 러시아어/Russian", alternative: "any table onto listed names" },
  { ruleId: "RL-13", what: "a negation anywhere in the message vetoes a request", option: "negationVeto", ourDefault: "true", alternative: "false: only the directive sentence itself is checked (the allow-list already excludes negations)" },
  { ruleId: "RL-14", what: "effective language (request over history, else latest non-none reading)", option: "requestScope", ourDefault: "history", alternative: "latestMessage" },
  { ruleId: "RL-16", what: "character measure", option: "charMeasure", ourDefault: "utf16 (JavaScript string length)", alternative: "codepoints" },
  { ruleId: "RL-17", what: "count resets after a note", option: "resetAfterNote", ourDefault: "true", alternative: "false" },
  { ruleId: "RL-18", what: "a note for a requested English", option: "noteForRequestedEnglish", ourDefault: "true", alternative: "false" },
  { ruleId: "RL-19", what: "the exact note text", option: "noteTemplate", ourDefault: "Reply language: {name} / Reply language: {name} (the user asked for it)", alternative: "any template with {name}" },
  { ruleId: "RL-22", what: "carrier language from the effective language (RL-14)", option: "carrierScope", ourDefault: "effective", alternative: "latestMessage" },
  { ruleId: "RL-23", what: "carrier separator and form", option: "carrierForm", ourDefault: "same-block with \\n\\n (carrierSeparator)", alternative: "second-block" },
  { ruleId: "RL-25", what: "hash over UTF-16 code units", option: "hashInput", ourDefault: "utf16", alternative: "utf8" },
  { ruleId: "RL-29", what: "pipeline position after user words, before the environment fold", option: null, ourDefault: "after SP-C4, before SP-C6", alternative: "set by the pipeline (H1), not by this module" },
];
