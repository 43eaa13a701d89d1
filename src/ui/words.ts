// Words a user reads: counts with their plural, rounded numbers, and texts of the core (policy
// arithmetic, partition details, notes) without our spec's rule ids or code names. The rule ids
// go to the "why" tooltip (./ruleIds.ts), which names the docs page that states each; code names
// (`usageTokens`, `post-compaction-over-budget`) are said as the words they are made of.
import { formatInt } from "./format";
import { withoutRuleIds } from "./ruleIds";
import type { Verdict } from "../core/simulate/types";

export { plural } from "../core/util/plural";

/** A figure as a user reads it: a fraction below 100 keeps up to 4 decimals (a ratio 0.5), others are whole with separators. */
export function formatFigure(value: number): string {
  if (Math.abs(value) < 100 && !Number.isInteger(value)) return value.toLocaleString("en-US", { maximumFractionDigits: 4 });
  return formatInt(value);
}

/** A saving in words: "saves ~1,848", or "adds ~377" when the result is larger (never "saves ~-377"). */
export function savingWords(saved: number, verbs: readonly [string, string] = ["saves", "adds"]): string {
  const rounded = Math.round(saved);
  return rounded < 0 ? `${verbs[1]} ~${formatInt(-rounded)}` : `${verbs[0]} ~${formatInt(rounded)}`;
}

/** The verdicts in words, as the simulator and the CLI's tables say them. */
const VERDICT_WORDS: Readonly<Record<Verdict, string>> = {
  "not-triggered": "does not fire",
  "nothing-to-compact": "nothing to compact",
  compacted: "compacted",
  "no-reduction": "compaction does not make the context smaller",
  "post-compaction-over-budget": "still over the limit after compaction",
  "mid-execution-over-budget": "over the limit in the middle of a turn",
  "cycle-guard-stop": "stopped by the repeated-compaction guard",
  failed: "failed",
};

/** A verdict in words; an unknown one as the words of its code name. */
export function verdictWords(verdict: string): string {
  return (VERDICT_WORDS as Record<string, string>)[verdict] ?? codeNameWords(verdict);
}

// Code names that read better as a phrase than as their split words.
const NAMED: Readonly<Record<string, string>> = {
  usageTokens: "tokens of the last answer's usage",
  contextTokens: "context tokens",
  pendingTokens: "tokens of the pending prompt",
  reserveTokens: "reserved tokens",
  keepRecentTokens: "recent tokens kept",
  autoCompactTokenLimit: "automatic compaction limit",
  autoCompactWindow: "automatic compaction window",
  autoCompactBuffer: "automatic compaction buffer",
  summaryOutputReserve: "summary output reserve",
  contextWindow: "context window",
  maxTokens: "max tokens",
  maxOutputTokens: "max output tokens",
  thresholdRatio: "threshold ratio",
  compressionThreshold: "compression threshold",
  firstKeptEntryId: "first kept entry",
  boundaryRule: "how the cut was chosen",
  isSplitTurn: "splits a turn",
  "catalogue-default": "the model catalogue's default",
};

/** `usageTokens` → "tokens of the last answer's usage"; `post-compaction-over-budget` → "post compaction over budget". */
export function codeNameWords(name: string): string {
  const named = NAMED[name];
  if (named) return named;
  if ((VERDICT_WORDS as Record<string, string>)[name]) return (VERDICT_WORDS as Record<string, string>)[name]!;
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/\bId\b/g, "id")
    .replace(/(?<=[a-z]) (?=[A-Z][a-z])/g, " ")
    .replace(/\b([A-Z])([a-z]+)\b/g, (_m, first: string, rest: string) => `${first.toLowerCase()}${rest}`)
    .replace(/(?<=[a-z])-(?=[a-z])/g, " ");
}

// "[INF CP-CC-INF-2]", "[INF]": a rule where the agent's source does not settle the behaviour and we chose.
const INFERRED_MARK = /\s*\[INF(?:\s+[^\]]*)?\]/g;
// A camelCase identifier in running text (not inside a longer path like `a.b.c` or a file name).
const CAMEL = /(?<![\w.$/-])[a-z]+[A-Z][A-Za-z]*(?![\w.$/-])/g;
// A code name of several lower-case words joined by hyphens where a verdict or source is said.
const KEBAB_CODE = /(?<![\w./-])(?:not-triggered|nothing-to-compact|no-reduction|post-compaction-over-budget|mid-execution-over-budget|cycle-guard-stop|catalogue-default)(?![\w./-])/g;
// "boundary rule G2": our own name of a rule of the pi policy's cut.
const BOUNDARY_RULE = /\bboundary (?:rule|generation) G(\d)\b/g;

/**
 * A text of the core as a user reads it: its rule ids (with the "[INF …]" marks) moved out, said
 * "(inferred)" where a rule was inferred, and code names said in words. The ids come back for the tooltip.
 */
export function plainWords(text: string): { text: string; ruleIds: string[] } {
  const inferred = INFERRED_MARK.test(text);
  INFERRED_MARK.lastIndex = 0;
  const marksOut = text.replace(INFERRED_MARK, (mark) => ` ${mark.replace(/^\s*\[INF\s*|\]$/g, "").trim()}${inferred ? " (inferred)" : ""}`);
  const { text: withoutIds, ruleIds } = withoutRuleIds(marksOut);
  const worded = withoutIds
    .replace(BOUNDARY_RULE, (_m, n: string) => (n === "1" ? "cut at the first fitting boundary" : "cut at a turn boundary"))
    .replace(KEBAB_CODE, (name) => codeNameWords(name))
    .replace(CAMEL, (name) => codeNameWords(name))
    .replace(/\s+\(inferred\)/g, " (inferred)")
    .replace(/\s{2,}/g, " ")
    .trim();
  return { text: worded, ruleIds };
}

/** Only the words of `plainWords`. */
export function inWords(text: string): string {
  return plainWords(text).text;
}

// What a provenance rule's prefix says a pipeline step did to a message.
const PROVENANCE_STEP: Readonly<Record<string, string>> = {
  synth: "made by the agent",
  synthetic: "made by the agent",
  wrap: "wrapped",
  fold: "folded in",
  prune: "pruned",
  strip: "stripped",
  reminder: "reminder",
  note: "our note",
  summary: "summary",
};

/**
 * A message's provenance rule as a user reads it: `synth:compaction-summary` → "compaction summary
 * (made by the agent)", `codex:base-instructions` → "base instructions", `entry` → "from the file".
 * The rule itself stays in the tooltip.
 */
export function provenanceWords(rule: string): string {
  if (rule === "entry") return "from the file";
  const at = rule.indexOf(":");
  if (at < 0) return codeNameWords(rule);
  const what = codeNameWords(rule.slice(at + 1).replace(/[-_]/g, " "));
  const step = PROVENANCE_STEP[rule.slice(0, at)];
  return step ? `${what} (${step})` : what;
}
