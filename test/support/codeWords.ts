// What a user must never read in a label: a rule id of our spec (FM-CC-4, CP-CC-INF-2), a camelCase
// code name (usageTokens) or a simulator verdict's code ("post-compaction-over-budget").
import { VERDICTS } from "../../src/core/simulate/types";

const RULE_ID = /\b[A-Z]{2,}-[A-Z0-9-]+\b/;
const CAMEL_CASE = /\b[a-z]+[A-Z][A-Za-z]*\b/;

// The verdicts' code names are code names too, although no pattern above catches them.
const VERDICT_CODES = VERDICTS.filter((verdict) => verdict.includes("-"));

/** The offending words of a visible text. */
export function codeWords(text: string): string[] {
  const found: string[] = [];
  for (const pattern of [RULE_ID, CAMEL_CASE]) for (const match of text.matchAll(new RegExp(pattern, "g"))) found.push(match[0]);
  for (const code of VERDICT_CODES) if (new RegExp(`(?<![\\w-])${code}(?![\\w-])`).test(text)) found.push(code);
  return found;
}
