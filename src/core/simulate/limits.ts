// CP-0-1: context window, output limit and input limit of a simulation. They default to what the
// session records (the model the turn used, through the catalogue and the user's model edits) and
// can be overridden per simulation. [INF]
import type { ModelInfo } from "../model";
import { DATASET_WINDOW_SOURCE_PREFIX } from "../models/catalogue";
import type { LimitOverrides, LimitSource, ResolvedLimits } from "./types";

function modelSource(model: ModelInfo): LimitSource {
  if (model.source.startsWith(DATASET_WINDOW_SOURCE_PREFIX)) return "the price dataset's window for this model";
  if (model.source.startsWith("catalogue-default") || model.source.includes("default")) return "catalogue-default";
  if (model.source === "user") return "session";
  if (model.source === "header") return "header";
  return "catalogue";
}

export function resolveLimits(model: ModelInfo, overrides?: LimitOverrides | null): ResolvedLimits {
  const source = modelSource(model);
  return {
    contextWindow: overrides?.contextWindow ?? model.contextWindow,
    contextWindowSource: overrides?.contextWindow !== undefined ? "override" : source,
    maxOutputTokens: overrides?.maxOutputTokens ?? model.maxTokens,
    maxOutputTokensSource: overrides?.maxOutputTokens !== undefined ? "override" : source,
    inputLimit: overrides?.inputLimit ?? null,
    inputLimitSource: overrides?.inputLimit !== undefined ? "override" : "none",
  };
}

/** The model with the limits applied, so serializers and caps see the overridden values. */
export function applyLimits(model: ModelInfo, limits: ResolvedLimits): ModelInfo {
  return { ...model, contextWindow: limits.contextWindow, maxTokens: limits.maxOutputTokens };
}
