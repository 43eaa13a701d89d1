// A model's context window from the price dataset's table (./dataset-windows.ts, generated from
// @pydantic/genai-prices), for a model our own list does not know. Found the way the price lookup
// finds a row: under the session's provider, by id alone among first-party providers, after
// normalising the id (routing prefix, date suffix, "-latest"), as the longest known id the session's
// id extends with "-" (a dated or variant name), and last as the reseller lists "vendor/<id>".
import { normaliseModelId } from "../pricing/lookup";
import { DATASET_RESELLER, DATASET_WINDOWS, DATASET_WINDOWS_SOURCE } from "./dataset-windows";

export interface DatasetWindow {
  /** The window in tokens. */
  window: number;
  /** The dataset's provider and model id the window was read from. */
  provider: string;
  model: string;
}

interface WindowIndex {
  /** "provider/normalised id" → entry, first-party and reseller alike. */
  byProviderAndId: Map<string, DatasetWindow>;
  /** Normalised id → the first first-party entry (providers in the table's order). */
  byId: Map<string, DatasetWindow>;
  /** The reseller's entries by the id after "vendor/". */
  resoldById: Map<string, DatasetWindow>;
}

let index: WindowIndex | null = null;

function windowIndex(): WindowIndex {
  if (index) return index;
  const built: WindowIndex = { byProviderAndId: new Map(), byId: new Map(), resoldById: new Map() };
  for (const [provider, model, window] of DATASET_WINDOWS) {
    const entry = { window, provider, model };
    const id = normaliseModelId(model);
    if (!built.byProviderAndId.has(`${provider}/${id}`)) built.byProviderAndId.set(`${provider}/${id}`, entry);
    if (provider === DATASET_RESELLER) {
      if (!built.resoldById.has(id)) built.resoldById.set(id, entry);
    } else if (!built.byId.has(id)) built.byId.set(id, entry);
  }
  index = built;
  return built;
}

/** The longest first-party id that `id` extends with "-" (`claude-opus-5-5-20261001` → `claude-opus-5-5`). */
function familyOf(id: string, byId: Map<string, DatasetWindow>): DatasetWindow | undefined {
  for (let cut = id.lastIndexOf("-"); cut > 0; cut = id.lastIndexOf("-", cut - 1)) {
    const found = byId.get(id.slice(0, cut));
    if (found) return found;
  }
  return undefined;
}

/** The dataset's window for a model as a session names it, or null when the dataset has none. */
export function datasetWindow(provider: string, modelId: string): DatasetWindow | null {
  const { byProviderAndId, byId, resoldById } = windowIndex();
  const raw = modelId.trim().toLowerCase();
  const normal = normaliseModelId(modelId);
  const providerKey = provider.toLowerCase();
  return (
    byProviderAndId.get(`${providerKey}/${raw}`) ??
    byId.get(raw) ??
    byProviderAndId.get(`${providerKey}/${normal}`) ??
    byId.get(normal) ??
    familyOf(normal, byId) ??
    resoldById.get(normal) ??
    null
  );
}

/** The dataset and version the windows were generated from ("@pydantic/genai-prices 0.1.8"). */
export { DATASET_WINDOWS_SOURCE };
