// gitleaks' maintained rule set (data in ./gitleaks-rules.ts, generated and pinned to a commit)
// as catalogue patterns: each RE2 expression translated to JavaScript (./re2.ts), its keywords as
// the case-insensitive pre-filter gitleaks itself uses, its entropy floor and allow-lists as the
// validator. A rule that cannot be used here is listed in GITLEAKS_LEFT_OUT with the reason (the
// test counts them): an expression that does not translate, one whose repeated group repeats
// inside (it could backtrack for long in JavaScript's engine, unlike RE2), a rule that needs a
// file path, and the rules our own catalogue already covers better (see LEFT_OUT_BY_CHOICE).
import { GITLEAKS_ALLOW, GITLEAKS_RULES } from "./gitleaks-rules";
import { isPlaceholderValue } from "./placeholders";
import { translateRe2 } from "./re2";
import type { GitleaksAllow, GitleaksRule, RegexSecretPattern } from "./types";

/** Rules left out on purpose, each with why. */
const LEFT_OUT_BY_CHOICE: Readonly<Record<string, string>> = {
  // Any high-entropy value after a word such as "key" or "token": made for source repositories,
  // it flags ids, hashes and cache keys all through a session. Our secret-name rules
  // (secret-assignment, secret-json-field, secret-option) cover named values with placeholders
  // and non-values (test names, format verbs) known.
  "generic-api-key": "covered by our secret-name rules, which know a session's non-values",
  // Same kinds as ours under other ids; theirs take the whole URL or less, ours the exact range.
  "slack-webhook-url": "our slack-webhook finds the same URLs",
};

/**
 * Upper bound given to gitleaks' unbounded repeats (`+`, `*`, `{n,}`): RE2 runs them in linear
 * time whatever the input, JavaScript's engine can retry them from each start, so they are
 * bounded like our own patterns. No secret of theirs comes near it (the longest, 1Password's
 * service tokens, are about 900 characters).
 */
const MAX_REPEAT = 4096;

/** Upper bound of the repeat at `at` (`+`, `*`, `?`, `{n}`, `{n,m}`), or 1 when none starts there. */
function repeatAt(source: string, at: number): number {
  const c = source[at];
  if (c === "+" || c === "*") return Infinity;
  const braces = c === "{" ? /^\{(\d+)(,(\d*))?\}/.exec(source.slice(at, at + 16)) : null;
  if (!braces) return 1;
  return braces[2] === undefined ? Number(braces[1]) : braces[3] === "" ? Infinity : Number(braces[3]);
}

/**
 * A group repeated more than once that holds a repeat itself (`(?:[a-z]{1,9}\.){1,9}`): such
 * a pattern can backtrack through many ways of splitting one text in JavaScript's engine.
 */
function hasNestedRepeat(source: string): boolean {
  const repeats: boolean[] = [false];
  for (let at = 0; at < source.length; at++) {
    const c = source[at];
    if (c === "\\") {
      at++;
      if (repeatAt(source, at + 1) > 1) repeats[repeats.length - 1] = true;
    } else if (c === "[") {
      for (at++; at < source.length && source[at] !== "]"; at++) if (source[at] === "\\") at++;
      if (repeatAt(source, at + 1) > 1) repeats[repeats.length - 1] = true;
    } else if (c === "(") repeats.push(false);
    else if (c === ")") {
      const inner = repeats.pop() ?? false;
      if (inner && repeatAt(source, at + 1) > 1) return true;
      if (inner || repeatAt(source, at + 1) > 1) repeats[repeats.length - 1] = true;
    } else if (repeatAt(source, at + 1) > 1) repeats[repeats.length - 1] = true;
  }
  return false;
}

/** Shannon entropy of a string, bits per character (gitleaks' `entropy` floor). */
function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

interface CompiledAllow {
  regexes: RegExp[];
  stopwords: readonly string[];
  /** True when the regexes look at the whole match, not only the secret. */
  onMatch: boolean;
}

function compileAllow(allow: GitleaksAllow): CompiledAllow {
  const regexes: RegExp[] = [];
  for (const re of allow.regexes ?? []) {
    const translated = translateRe2(re);
    if ("source" in translated) regexes.push(new RegExp(translated.source));
  }
  return { regexes, stopwords: allow.stopwords ?? [], onMatch: allow.target === "match" || allow.target === "line" };
}

function allowed(allow: CompiledAllow, secret: string, match: string): boolean {
  const target = allow.onMatch ? match : secret;
  if (allow.regexes.some((regex) => regex.test(target))) return true;
  const lower = secret.toLowerCase();
  return allow.stopwords.some((word) => lower.includes(word));
}

const GLOBAL_ALLOW = compileAllow(GITLEAKS_ALLOW);

/**
 * A rule that starts `\b(` then a literal prefix of 4+ characters, not all lower-case letters
 * (`glsa_`, `hvs.`, `PMAK-`, `AKIA`): such a prefix is distinctive enough to be found glued to the
 * word before it (a summary whose messages run together), so the word boundary is dropped.
 */
function withoutLeadingBoundary(source: string): string {
  const lead = /^\\b(?:\((?:\?:)?){0,2}((?:[A-Za-z0-9_]|\[[a-zA-Z]{2}\]|\\[.-]|-){4,})/.exec(source);
  if (!lead) return source;
  // A letter spelt in both cases (`[gG]`, from a case-insensitive part) counts as that letter.
  const literal = lead[1]!.replace(/\[([a-zA-Z])[a-zA-Z]\]/g, "$1").replace(/\\/g, "");
  if (literal.length < 4 || /^[a-z]+$/.test(literal)) return source;
  return source.slice(2);
}

function label(id: string): string {
  const words = id.replace(/-/g, " ");
  return `${words[0]!.toUpperCase()}${words.slice(1)} (gitleaks)`;
}

function patternOf(rule: GitleaksRule, source: string): RegexSecretPattern {
  const allows = (rule.allow ?? []).map(compileAllow);
  const entropy = rule.entropy;
  return {
    id: rule.id,
    label: label(rule.id),
    mask: "edges",
    regex: new RegExp(withoutLeadingBoundary(source), "gd"),
    keywords: rule.keywords,
    secretGroup: rule.secretGroup ?? "first",
    validate: (secret, _groups, match) => {
      if (entropy !== undefined && shannonEntropy(secret) < entropy) return false;
      if (isPlaceholderValue(secret)) return false;
      const whole = match ?? secret;
      return !allowed(GLOBAL_ALLOW, secret, whole) && !allows.some((allow) => allowed(allow, secret, whole));
    },
  };
}

interface LeftOut {
  id: string;
  reason: string;
}

/** gitleaks' rules as patterns, and those not used with the reason. */
export interface GitleaksSet {
  /** Usable here, in gitleaks' order. */
  patterns: readonly RegexSecretPattern[];
  leftOut: readonly LeftOut[];
}

/**
 * Builds the set. A rule whose id one of ours already has (`ownIds`) is left out: ours is tested
 * against what sessions hold, and one id must name one kind.
 */
export function gitleaksSet(ownIds: ReadonlySet<string>): GitleaksSet {
  const patterns: RegexSecretPattern[] = [];
  const leftOut: LeftOut[] = [];
  for (const rule of GITLEAKS_RULES) {
    const choice = LEFT_OUT_BY_CHOICE[rule.id];
    if (choice) leftOut.push({ id: rule.id, reason: choice });
    else if (ownIds.has(rule.id)) leftOut.push({ id: rule.id, reason: "our own rule of the same id is used" });
    else if (rule.regex === undefined) leftOut.push({ id: rule.id, reason: "matches file names only" });
    else if (rule.path) leftOut.push({ id: rule.id, reason: "applies only to files at a given path" });
    else {
      const translated = translateRe2(rule.regex, MAX_REPEAT);
      if ("error" in translated) leftOut.push({ id: rule.id, reason: `does not translate: ${translated.error}` });
      else if (hasNestedRepeat(translated.source)) leftOut.push({ id: rule.id, reason: "a repeated group repeats inside (could backtrack)" });
      else {
        try {
          patterns.push(patternOf(rule, translated.source));
        } catch (error) {
          leftOut.push({ id: rule.id, reason: `JavaScript refuses it: ${(error as Error).message}` });
        }
      }
    }
  }
  return { patterns, leftOut };
}

