// hermes-agent's compression trigger arithmetic (compaction-policies.md CP-HA-1 … CP-HA-6,
// CP-HA-15): threshold percent, threshold tokens, tail budget, summary budget and the
// `should_compress` decision with its blockers. Python integer semantics (`int()` truncates).
import { pyInt } from "./codepoints";

/** CP-HA-1 defaults. */
export const HERMES_DEFAULTS = {
  thresholdPercent: 0.5,
  protectFirstN: 3,
  protectLastN: 20,
  summaryTargetRatio: 0.2,
  minimumContextLength: 64000,
  /** CP-HA-2: below this context length the percent is raised to at least 0.75. */
  largeContextLength: 512000,
  raisedPercent: 0.75,
} as const;

export interface HermesThresholdInput {
  contextLength: number;
  /** Configured `max_tokens` (None → null). */
  maxTokens: number | null;
  /** Configured `threshold_percent` (default 0.50). */
  thresholdPercent?: number;
  /** `summary_target_ratio` (default 0.20, clamped to [0.10, 0.80]). */
  summaryTargetRatio?: number;
  /** `model_thresholds`: substring of the model name → percent; the longest matching key wins. */
  modelThresholds?: Record<string, number>;
  modelName?: string | null;
  /** Optional absolute `threshold_tokens` (clamped to the context length); can only lower it. */
  absoluteThresholdTokens?: number | null;
}

export interface HermesThresholds {
  /** Percent after model_thresholds and the CP-HA-2 raise. */
  percentUsed: number;
  /** Which model_thresholds key matched, if any. */
  modelThresholdKey: string | null;
  effective: number;
  p: number;
  f: number;
  /** True when `f ≥ effective` and the 85 % rule applied. */
  clampedTo85: boolean;
  thresholdTokens: number;
  tailTokenBudget: number;
  maxSummaryTokens: number;
  summaryTargetRatio: number;
  /** Arithmetic written out, one step per line (CP-0-2 (1)). */
  steps: string[];
}

/** The longest `model_thresholds` key contained in the model name (CP-HA-1). */
export function matchModelThreshold(thresholds: Record<string, number> | undefined, modelName: string | null | undefined) {
  if (!thresholds || !modelName) return null;
  let best: { key: string; percent: number } | null = null;
  for (const [key, percent] of Object.entries(thresholds)) {
    if (modelName.includes(key) && (best === null || key.length > best.key.length)) best = { key, percent };
  }
  return best;
}

/** CP-HA-2 … CP-HA-4. */
export function hermesThresholds(input: HermesThresholdInput): HermesThresholds {
  const steps: string[] = [];
  const context = input.contextLength;
  const matched = matchModelThreshold(input.modelThresholds, input.modelName);
  let percent = matched?.percent ?? input.thresholdPercent ?? HERMES_DEFAULTS.thresholdPercent;
  if (matched) steps.push(`model_thresholds["${matched.key}"] = ${matched.percent}`);
  if (context < HERMES_DEFAULTS.largeContextLength) {
    const raised = Math.max(percent, HERMES_DEFAULTS.raisedPercent);
    steps.push(`context ${context} < ${HERMES_DEFAULTS.largeContextLength} → percent = max(${percent}, 0.75) = ${raised}`);
    percent = raised;
  } else {
    steps.push(`context ${context} ≥ ${HERMES_DEFAULTS.largeContextLength} → percent = ${percent}`);
  }
  let effective = context - (input.maxTokens ?? 0);
  if (effective <= 0) effective = context;
  steps.push(`effective = ${context} − ${input.maxTokens ?? 0} = ${effective}`);
  const p = pyInt(effective * percent);
  steps.push(`p = int(${effective} × ${percent}) = ${p}`);
  const f = Math.max(p, HERMES_DEFAULTS.minimumContextLength);
  steps.push(`f = max(${p}, ${HERMES_DEFAULTS.minimumContextLength}) = ${f}`);
  let threshold: number;
  const clampedTo85 = f >= effective;
  if (clampedTo85) {
    threshold = Math.max(1, Math.min(pyInt(effective * 0.85), effective - 1));
    steps.push(`f ≥ effective → threshold = max(1, min(int(${effective} × 0.85), ${effective} − 1)) = ${threshold}`);
  } else {
    threshold = f;
    steps.push(`threshold = f = ${threshold}`);
  }
  if (input.absoluteThresholdTokens !== undefined && input.absoluteThresholdTokens !== null) {
    const absolute = Math.min(input.absoluteThresholdTokens, context);
    if (absolute < threshold) {
      steps.push(`threshold_tokens ${absolute} < ${threshold} → threshold = ${absolute}`);
      threshold = absolute;
    }
  }
  const ratio = Math.min(0.8, Math.max(0.1, input.summaryTargetRatio ?? HERMES_DEFAULTS.summaryTargetRatio));
  const tailTokenBudget = pyInt(threshold * ratio);
  steps.push(`tail_token_budget = int(${threshold} × ${ratio}) = ${tailTokenBudget}`);
  const maxSummaryTokens = Math.min(pyInt(context * 0.05), 10000);
  steps.push(`max_summary_tokens = min(int(${context} × 0.05), 10000) = ${maxSummaryTokens}`);
  return {
    percentUsed: percent,
    modelThresholdKey: matched?.key ?? null,
    effective,
    p,
    f,
    clampedTo85,
    thresholdTokens: threshold,
    tailTokenBudget,
    maxSummaryTokens,
    summaryTargetRatio: ratio,
    steps,
  };
}

/** CP-HA-15: the summary budget written into the guidance (never a wire `max_tokens`). */
export function hermesSummaryBudget(middleTokens: number, maxSummaryTokens: number): number {
  return Math.max(2000, Math.min(pyInt(middleTokens * 0.2), maxSummaryTokens));
}

export interface ShouldCompressInput {
  promptTokens: number;
  thresholdTokens: number;
  /** An active summary-failure cooldown (CP-HA-6). */
  cooldownActive?: boolean;
  /** Consecutive compactions whose real post-compaction prompt count stayed ≥ threshold. */
  ineffectiveStreak?: number;
  /** Consecutive deterministic-fallback summaries. */
  fallbackStreak?: number;
}

export interface ShouldCompressResult {
  fire: boolean;
  /** Why it does not fire although the count is over the threshold. */
  blockedBy: "cooldown" | "ineffective-compactions" | "fallback-summaries" | null;
}

/** CP-HA-5 `should_compress`. */
export function hermesShouldCompress(input: ShouldCompressInput): ShouldCompressResult {
  if (input.promptTokens < input.thresholdTokens) return { fire: false, blockedBy: null };
  if (input.cooldownActive) return { fire: false, blockedBy: "cooldown" };
  if ((input.ineffectiveStreak ?? 0) >= 2) return { fire: false, blockedBy: "ineffective-compactions" };
  if ((input.fallbackStreak ?? 0) >= 2) return { fire: false, blockedBy: "fallback-summaries" };
  return { fire: true, blockedBy: null };
}

/** CP-HA-6: cooldown in seconds after a failed summary attempt. */
export function hermesFailureCooldown(kind: "no-provider" | "timeout" | "json-decode" | "stream-closed" | "other", timeoutCount = 1): number {
  switch (kind) {
    case "no-provider":
      return 600;
    case "timeout":
      return timeoutCount <= 1 ? 60 : timeoutCount === 2 ? 300 : 900;
    case "json-decode":
    case "stream-closed":
      return 30;
    default:
      return 60;
  }
}
