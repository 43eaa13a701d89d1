// Types of the redaction module: catalogue patterns, raw matches in a string, and the review
// list entries of a redaction pass. All plain data (no classes) so results cross the worker.

/**
 * How a secret is masked (see mask.ts): `edges` keeps a short head and tail of long values
 * (`sk-proj-Abcd…[redacted 148 chars]…9xQz`), `full` hides every character (`[redacted 12 chars]`).
 */
export type MaskStyle = "edges" | "full";

interface PatternBase {
  /** Stable id, also the `kind` of its matches (e.g. `openai-api-key`). */
  id: string;
  /** Human label for the review list (e.g. "OpenAI API key"). */
  label: string;
  mask: MaskStyle;
}

/**
 * A pattern found by one regular expression. The regex has the `g` and `d` flags; the named group
 * `secret` (or `secret2` / `secret3` in alternatives) is the range to mask, the whole match when
 * none is present. A named group `prefix` that starts where the secret starts is public structure
 * (a vendor prefix such as `sk-proj-` or `ghp_`) and stays visible. Every quantifier is bounded
 * and no quantified group contains another quantifier (checked by the tests), so matching is
 * linear in the text length times a small constant.
 */
export interface RegexSecretPattern extends PatternBase {
  regex: RegExp;
  /**
   * Literal texts of which every match contains at least one (case-sensitive). A string holding
   * none of them is skipped without running the regex — a fast `indexOf` pre-filter.
   */
  anchors?: readonly string[];
  /**
   * Lower-case words of which every match contains at least one, compared without case (gitleaks'
   * `keywords`). All keywords of a catalogue are looked for in one pass over the text.
   */
  keywords?: readonly string[];
  /** Capture group of the secret by number, or the first group that took part ("first"). */
  secretGroup?: number | "first";
  /** Rejects a match (a placeholder, a non-secret name, a too-regular value); `match` is the whole match. */
  validate?: (secret: string, groups: Readonly<Record<string, string | undefined>>, match?: string) => boolean;
}

/** A pattern found by a small scanner instead of one regex (private key blocks). */
interface ScannerSecretPattern extends PatternBase {
  scan: (text: string, stats?: ScanStats) => { start: number; end: number }[];
}

export type SecretPattern = RegexSecretPattern | ScannerSecretPattern;

/** Work counter for scanners, so tests can bound the characters they visit. */
export interface ScanStats {
  visited: number;
}

/** One secret found in a string. Ranges are UTF-16 offsets, `end` exclusive. */
export interface SecretMatch {
  /** Catalogue id of the pattern that found it. */
  kind: string;
  label: string;
  start: number;
  end: number;
  /** The secret text (text.slice(start, end)). */
  value: string;
  /** Characters at the start that are a public vendor prefix and stay visible when masked. */
  prefixLength: number;
  mask: MaskStyle;
}

/** One masked (or consciously unmasked) value, for the review pane. */
export interface RedactionFinding {
  /** Stable id: `<kind>@<path>:<start>-<end>`. Pass it in `unmasked` to keep the value. */
  id: string;
  /** JSON path of the string that held it, e.g. `entries[12].raw.message.content[0].text`. */
  path: string;
  /** Range inside that string (UTF-16 offsets, end exclusive). */
  start: number;
  end: number;
  kind: string;
  label: string;
  /** What the value is replaced with (the masked preview). */
  masked: string;
  /** Length of the original value. */
  length: number;
  /** True when the id was in `unmasked`: the value was left as it is. */
  unmasked: boolean;
}

export interface RedactOptions {
  /** Ids of findings the user chose to keep visible. */
  unmasked?: Iterable<string>;
  /** Path of the value being redacted (prefix of every finding path); "" by default. */
  path?: string;
  /** Patterns to use; the default catalogue when absent. */
  catalogue?: readonly SecretPattern[];
}

export interface RedactedText {
  text: string;
  findings: RedactionFinding[];
}

export interface RedactedValue<T> {
  value: T;
  findings: RedactionFinding[];
}

/** An allow-list of gitleaks: values (or whole matches) that are known not to be secrets. */
export interface GitleaksAllow {
  /** RE2 expressions; a secret (or, with target "match"/"line", the whole match) they find is kept. */
  regexes?: readonly string[];
  /** Lower-case words; a secret containing one is kept. */
  stopwords?: readonly string[];
  target?: string;
}

/** One gitleaks rule as data (src/core/redact/gitleaks-rules.ts, generated). */
export interface GitleaksRule {
  id: string;
  /** RE2 expression; absent for rules that match only file names. */
  regex?: string;
  /** Lower-case words of which every match holds one (gitleaks' pre-filter). */
  keywords: readonly string[];
  /** Shannon entropy (bits per character) the secret must reach. */
  entropy?: number;
  /** Capture group of the secret; the first group that took part otherwise. */
  secretGroup?: number;
  /** True when the rule applies only to files whose path matches (no path here, so it is left out). */
  path?: boolean;
  allow?: readonly GitleaksAllow[];
}
