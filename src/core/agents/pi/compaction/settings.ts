// pi's compaction settings and the output caps derived from them (PI-K1, PI-K24, PI-K27). None of
// these values is stored in a session file, so every one is an option with pi's default.
import type { PiProfileId } from "../profile";
import type { ModelInfo } from "../../../model";

export interface CompactionSettings {
  /** Tokens kept free for the answer; also sets the summariser caps (PI-K24). */
  reserveTokens: number;
  /** Token budget of recent messages kept verbatim after the cut (PI-K10). */
  keepRecentTokens: number;
}

/** pi's defaults from settings.json key `compaction` (PI-K1). */
export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = {
  reserveTokens: 16384,
  keepRecentTokens: 20000,
};

export function resolveCompactionSettings(partial?: Partial<CompactionSettings> | null): CompactionSettings {
  return {
    reserveTokens: partial?.reserveTokens ?? DEFAULT_COMPACTION_SETTINGS.reserveTokens,
    keepRecentTokens: partial?.keepRecentTokens ?? DEFAULT_COMPACTION_SETTINGS.keepRecentTokens,
  };
}

/**
 * Cap of the history summary request: floor(0.8 × reserve) (PI-K24). pi 0.73.1 does not clamp it
 * to the model's own output limit; senpi does when that limit is positive.
 */
export function historySummaryCap(reserveTokens: number, profile: PiProfileId, model?: Pick<ModelInfo, "maxTokens"> | null): number {
  const cap = Math.floor(0.8 * reserveTokens);
  if (profile === "senpi" && model && model.maxTokens > 0) return Math.min(cap, model.maxTokens);
  return cap;
}

/** Cap of the turn-prefix request: floor(0.5 × reserve) (PI-K27). */
export function turnPrefixSummaryCap(reserveTokens: number, profile: PiProfileId, model?: Pick<ModelInfo, "maxTokens"> | null): number {
  const cap = Math.floor(0.5 * reserveTokens);
  if (profile === "senpi" && model && model.maxTokens > 0) return Math.min(cap, model.maxTokens);
  return cap;
}

/** pi's trigger (PI-K5): strictly more than window − reserve. */
export function shouldCompact(contextTokens: number, contextWindow: number, settings: CompactionSettings, enabled = true): boolean {
  return enabled && contextTokens > contextWindow - settings.reserveTokens;
}
