// Model facts of the captures → a layer of the model catalogue. Each capture teaches the facts of
// the model it was sent to (`RequestHeader.model`); the first capture that teaches a field wins.
// The layer sits under the user's edits: resolveModel applies it first (key "*/<modelId>", any
// provider, since a body names no provider) and the user's "provider/modelId" edit on top, so an
// edited value is never overwritten.
import type { ModelInfo, PipelineOptions, RequestHeader } from "../model";
import { CAPTURE_MODEL_PROVIDER, modelKey } from "../models/catalogue";

const FIELDS: Record<string, keyof ModelInfo> = {
  "model.reasoning": "reasoning",
  "model.maxTokens": "maxTokens",
  "model.supportsDeveloperRole": "supportsDeveloperRole",
  "model.supportsReasoningEffort": "supportsReasoningEffort",
  "model.maxTokensField": "maxTokensField",
};

function allCaptures(options: PipelineOptions): RequestHeader[] {
  return [...(options.header ? [options.header] : []), ...(options.captures ?? [])];
}

/** Catalogue edits implied by the captures, keyed "*\/<modelId>", each with its sources. */
export function captureModelOverrides(options: PipelineOptions): Record<string, Partial<ModelInfo>> {
  const out: Record<string, Partial<ModelInfo>> = {};
  for (const capture of allCaptures(options)) {
    if (!capture.model) continue;
    const key = modelKey(CAPTURE_MODEL_PROVIDER, capture.model);
    const entry = (out[key] ??= {}) as Record<string, unknown>;
    let taught = false;
    for (const item of capture.facts ?? []) {
      const field = FIELDS[item.key];
      if (item.kind !== "model" || !field || field in entry) continue;
      entry[field] = item.value;
      taught = true;
    }
    if (taught) {
      const sources = typeof entry.source === "string" ? `${entry.source}, ` : "capture ";
      entry.source = `${sources}${capture.source}`;
    }
    if (Object.keys(entry).length === 0) delete out[key];
  }
  return out;
}

const merged = new WeakMap<PipelineOptions, PipelineOptions>();

/** `options` with the captures' model layer added to `modelOverrides` (same object when none). */
export function withCaptureModelFacts(options: PipelineOptions): PipelineOptions {
  if (!options.header?.facts && !options.captures?.length) return options;
  const cached = merged.get(options);
  if (cached) return cached;
  const layer = captureModelOverrides(options);
  const result = Object.keys(layer).length === 0 ? options : { ...options, modelOverrides: { ...layer, ...(options.modelOverrides ?? {}) } };
  merged.set(options, result);
  return result;
}
