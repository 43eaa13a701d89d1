// deepseek-harness compaction configuration and trigger numbers (CP-DH-1, CP-DH-2): threshold and
// retain tokens from the context window, with the harness's validation.
export interface DeepseekConfig {
  thresholdRatio: number;
  retainRatio: number;
  /** Absolute retain tokens; wins over the ratio when set. */
  retainTokens: number | null;
  maxTokens: number;
  compactionRetries: number;
  maxOverflowRetries: number;
  auto: boolean;
}

export const DEEPSEEK_DEFAULTS: DeepseekConfig = {
  thresholdRatio: 0.8,
  retainRatio: 0.16,
  retainTokens: null,
  maxTokens: 8192,
  compactionRetries: 1,
  maxOverflowRetries: 1,
  auto: true,
};

export type DeepseekBudget =
  | { ok: true; thresholdTokens: number; retainTokens: number }
  | { ok: false; error: string; thresholdTokens: number | null; retainTokens: number | null };

/** CP-DH-1/CP-DH-2: threshold and retain tokens, or the configuration error. */
export function deepseekBudget(contextWindow: number | null, config: DeepseekConfig): DeepseekBudget {
  if (!(config.retainRatio < config.thresholdRatio)) {
    return { ok: false, error: `configuration error: retainRatio ${config.retainRatio} must be < thresholdRatio ${config.thresholdRatio}`, thresholdTokens: null, retainTokens: null };
  }
  if (contextWindow === null || !(contextWindow > 0)) {
    return { ok: false, error: "configuration error: no context window for the target model", thresholdTokens: null, retainTokens: null };
  }
  const thresholdTokens = Math.floor(contextWindow * config.thresholdRatio);
  const retainTokens = config.retainTokens ?? Math.floor(contextWindow * config.retainRatio);
  if (!(retainTokens < thresholdTokens)) {
    return { ok: false, error: `configuration error: retainTokens ${retainTokens} must be < thresholdTokens ${thresholdTokens}`, thresholdTokens, retainTokens };
  }
  return { ok: true, thresholdTokens, retainTokens };
}
