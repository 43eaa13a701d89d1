// Model lookup: what Contextscope assumes about a session's model (context window, output cap,
// reasoning, wire-shape compat flags). Exact provider/id match in the catalogue, then id alone,
// then a dated or variant name of a catalogue model; a model the catalogue lacks takes its context
// window from the price dataset when that records one, else a labelled default; facts learnt from captured requests (keyed "*/modelId") over that, and
// the user's overrides (keyed "provider/modelId") win over all of it.
import type { ApiId, ModelInfo, ModelRef } from "../model";
import { MODEL_CATALOGUE } from "./catalogue-data";
import type { CatalogueEntry } from "./catalogue-data";
import { datasetWindow, DATASET_WINDOWS_SOURCE } from "./dataset-window";

export { MODEL_CATALOGUE } from "./catalogue-data";

/** Figures assumed for a model the catalogue does not know. */
const DEFAULT_MODEL_FIGURES = {
  contextWindow: 128000,
  maxTokens: 16384,
} as const;

const DEFAULT_MODEL_SOURCE = "catalogue-default";
/**
 * Source of a model the catalogue lacks whose window the price dataset records: only the window
 * is the dataset's, every other figure the defaults'. (Never contains "default": the limits code
 * reads that word as "no figure known".)
 */
export const DATASET_WINDOW_SOURCE_PREFIX = "price dataset";
const USER_MODEL_SOURCE = "user";
/** Provider part of the catalogue keys that captured requests fill (a body names no provider). */
export const CAPTURE_MODEL_PROVIDER = "*";

export function modelKey(provider: string, modelId: string): string {
  return `${provider}/${modelId}`;
}

function fromEntry(entry: CatalogueEntry, provider: string, api: ApiId, source: string): ModelInfo {
  return {
    provider,
    id: entry.id,
    api,
    contextWindow: entry.contextWindow,
    maxTokens: entry.maxTokens,
    reasoning: entry.reasoning,
    supportsDeveloperRole: entry.supportsDeveloperRole,
    supportsReasoningEffort: entry.supportsReasoningEffort,
    supportsImages: entry.supportsImages,
    source,
  };
}

/**
 * What we assume about `ref`. `apiHint` (the API the session recorded for the turn) wins over the
 * catalogue's API, because the session says what was actually sent. A match by id alone keeps the
 * session's provider (pi compares provider, API and id to decide what an assistant message may
 * replay) and says so in `source`.
 */
export function resolveModel(
  ref: ModelRef | null,
  apiHint: ApiId | null,
  overrides?: Record<string, Partial<ModelInfo>>,
): ModelInfo {
  const provider = ref?.provider ?? "unknown";
  const modelId = ref?.modelId ?? "unknown";

  let resolved: ModelInfo;
  const exact = ref ? MODEL_CATALOGUE.find((entry) => entry.provider === provider && entry.id === modelId) : undefined;
  const byId = exact ?? (ref ? MODEL_CATALOGUE.find((entry) => entry.id === modelId) : undefined);
  const family = exact || byId || !ref ? undefined : familyEntry(modelId);
  if (exact) {
    resolved = fromEntry(exact, provider, apiHint ?? exact.api, exact.source);
  } else if (byId) {
    resolved = fromEntry(byId, provider, apiHint ?? byId.api, `${byId.source}, matched by id from ${byId.provider}`);
  } else if (family) {
    resolved = { ...fromEntry(family, provider, apiHint ?? family.api, `${family.source}, as ${family.id} (the same model with a suffix)`), id: modelId };
  } else {
    const fromDataset = ref ? datasetWindow(provider, modelId) : null;
    resolved = {
      provider,
      id: modelId,
      api: apiHint ?? "openai-completions",
      contextWindow: fromDataset?.window ?? DEFAULT_MODEL_FIGURES.contextWindow,
      maxTokens: DEFAULT_MODEL_FIGURES.maxTokens,
      reasoning: false,
      supportsDeveloperRole: false,
      supportsReasoningEffort: false,
      supportsImages: false,
      source: fromDataset
        ? `${DATASET_WINDOW_SOURCE_PREFIX} ${DATASET_WINDOWS_SOURCE}: the context window of ${fromDataset.provider}/${fromDataset.model}; the other figures are defaults`
        : DEFAULT_MODEL_SOURCE,
    };
  }

  // Facts learnt from captured requests (src/core/captures/modelFacts.ts), under the user's edits.
  const learnt = overrides?.[modelKey(CAPTURE_MODEL_PROVIDER, modelId)];
  if (learnt) {
    const { provider: _p, id: _i, source, ...figures } = learnt;
    resolved = { ...resolved, ...stripUndefined(figures), source: source ?? "capture" };
  }
  const override = overrides?.[modelKey(provider, modelId)];
  if (override) {
    // Identity fields stay those of the session; everything else may be edited.
    const { provider: _p, id: _i, source: _s, ...figures } = override;
    resolved = { ...resolved, ...stripUndefined(figures), source: USER_MODEL_SOURCE };
  }
  return resolved;
}

/**
 * A catalogue model whose id starts `modelId` followed by "-" (a dated or variant suffix:
 * `claude-opus-4-7-20260301`, `gpt-5.5-codex-high`); the longest such id wins.
 */
function familyEntry(modelId: string): CatalogueEntry | undefined {
  let best: CatalogueEntry | undefined;
  for (const entry of MODEL_CATALOGUE) {
    if (modelId.startsWith(`${entry.id}-`) && (!best || entry.id.length > best.id.length)) best = entry;
  }
  return best;
}

/**
 * Whether the model is one the catalogue does not list (its figures are defaults, but for a window
 * the price dataset may supply). Agents that fall back to their own default for a model they do not
 * know ask this, not the window's source.
 */
export function notInCatalogue(model: ModelInfo): boolean {
  return model.source === DEFAULT_MODEL_SOURCE || model.source.startsWith(DATASET_WINDOW_SOURCE_PREFIX);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry !== undefined && key !== "__proto__") (out as Record<string, unknown>)[key] = entry;
  }
  return out;
}
