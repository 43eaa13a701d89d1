// opencode's overflow gate, admission check and preserve budget (compaction-policies.md CP-OC-1 …
// CP-OC-6, CP-OC-14). Pure arithmetic with every step written out for the trigger display.

/** CP-OC-1. */
const OUTPUT_TOKEN_MAX = 32000;

export interface OpencodeModelLimits {
  context: number;
  /** `limit.input`, when the model has one. */
  input?: number | null;
  /** `limit.output`; missing or 0 → 32000. */
  output?: number | null;
}

export interface OpencodeCompactionConfig {
  /** `compaction.auto` (default true). */
  auto?: boolean;
  /** `compaction.reserved`. */
  reserved?: number | null;
  /** `compaction.preserve_recent_tokens`. */
  preserveRecentTokens?: number | null;
  /** `compaction.tail_turns` (≤ 0 disables the tail). */
  tailTurns?: number | null;
}

/** CP-OC-1: min(limit.output, 32000), 32000 when missing or 0. */
export function maxOutputTokens(model: OpencodeModelLimits): number {
  const output = model.output ?? 0;
  return output > 0 ? Math.min(output, OUTPUT_TOKEN_MAX) : OUTPUT_TOKEN_MAX;
}

export interface UsableResult {
  usable: number;
  reserved: number;
  maxOutput: number;
  steps: string[];
}

/** CP-OC-2. */
export function usableTokens(cfg: OpencodeCompactionConfig, model: OpencodeModelLimits): UsableResult {
  const maxOutput = maxOutputTokens(model);
  const reserved = cfg.reserved ?? Math.min(20000, maxOutput);
  const steps = [`maxOutputTokens = min(${model.output ?? 0} || 32000, 32000) = ${maxOutput}`, `reserved = ${cfg.reserved ?? `min(20000, ${maxOutput})`} = ${reserved}`];
  if (model.context === 0) return { usable: 0, reserved, maxOutput, steps: [...steps, "context 0 → usable 0"] };
  if (model.input) {
    const usable = Math.max(0, model.input - reserved);
    return { usable, reserved, maxOutput, steps: [...steps, `usable = max(0, input ${model.input} − reserved ${reserved}) = ${usable}`] };
  }
  const usable = Math.max(0, model.context - maxOutput);
  return { usable, reserved, maxOutput, steps: [...steps, `usable = max(0, context ${model.context} − maxOutputTokens ${maxOutput}) = ${usable}`] };
}

export interface OpencodeTokens {
  total?: number | null;
  input?: number;
  output?: number;
  cache?: { read?: number; write?: number };
}

/** CP-OC-3: the token count the gate compares. */
function overflowCount(tokens: OpencodeTokens): number {
  return tokens.total || (tokens.input ?? 0) + (tokens.output ?? 0) + (tokens.cache?.read ?? 0) + (tokens.cache?.write ?? 0);
}

export interface OverflowDecision {
  overflow: boolean;
  count: number;
  usable: number;
  /** Why it can never overflow (auto off, context 0), if so. */
  disabled: string | null;
  steps: string[];
}

/** CP-OC-3: overflow iff count ≥ usable (never when auto is off or the context is 0). */
export function isOverflow(cfg: OpencodeCompactionConfig, model: OpencodeModelLimits, tokens: OpencodeTokens): OverflowDecision {
  const usable = usableTokens(cfg, model);
  const count = overflowCount(tokens);
  if (cfg.auto === false) return { overflow: false, count, usable: usable.usable, disabled: "compaction.auto is false", steps: usable.steps };
  if (model.context === 0) return { overflow: false, count, usable: usable.usable, disabled: "context limit is 0", steps: usable.steps };
  return { overflow: count >= usable.usable, count, usable: usable.usable, disabled: null, steps: [...usable.steps, `${count} ≥ ${usable.usable} → ${count >= usable.usable ? "overflow" : "no overflow"}`] };
}

/** CP-OC-5 admission constants. */
const ADMISSION = { G: 16384, M: 4096, H: 20480, minReserved: 20000 } as const;

export interface AdmissionResult {
  budget: number;
  admitted: boolean;
  estimate: number;
  error: string | null;
}

/** CP-OC-5: the fork's pre-dispatch admission check (`ContextBudget.evaluate`). */
export function admission(cfg: OpencodeCompactionConfig, model: OpencodeModelLimits, estimate: number, requestedOutput?: number): AdmissionResult {
  const bad = (value: number | null | undefined) => value !== null && value !== undefined && (Number.isNaN(value) || value < 0);
  if (bad(model.context)) return { budget: 0, admitted: false, estimate, error: "invalid-context-limit" };
  if (bad(model.input)) return { budget: 0, admitted: false, estimate, error: "invalid-input-limit" };
  if (bad(model.output)) return { budget: 0, admitted: false, estimate, error: "invalid-output-limit" };
  if (bad(requestedOutput)) return { budget: 0, admitted: false, estimate, error: "invalid-requested-output" };
  const reservedConfig = Math.max(cfg.reserved ?? 0, ADMISSION.minReserved);
  const output = requestedOutput !== undefined ? Math.min(requestedOutput, maxOutputTokens(model)) : maxOutputTokens(model);
  const contextBudget = model.context > 0 ? model.context - Math.max(reservedConfig, output + ADMISSION.H) : Infinity;
  const inputBudget = model.input && model.input > 0 ? model.input - Math.max(reservedConfig, ADMISSION.H) : Infinity;
  const budget = Math.max(0, Math.min(contextBudget, inputBudget));
  return { budget, admitted: estimate <= budget, estimate, error: null };
}

/** CP-OC-14: preserve budget. */
export function preserveBudget(cfg: OpencodeCompactionConfig, usable: number): number {
  return cfg.preserveRecentTokens ?? Math.min(15000, Math.max(2000, Math.floor(usable * 0.25)));
}
