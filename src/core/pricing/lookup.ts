// Finding a model's price row: by provider and model id, then by model id alone ("price by model,
// not by harness": a proxy or another agent calling the same model pays the same list price), then
// after normalising the id (a routing prefix like "anthropic/", a date suffix like "-20250929").
// The user's edits, keyed "provider/model", are applied on top of the built-in table.
import type { PriceOverrides, PriceRow, PriceTable } from "./types";

export interface ModelRefLike {
  provider: string;
  modelId: string;
}

export function priceKey(provider: string, model: string): string {
  return `${provider}/${model}`;
}

/** "anthropic/claude-sonnet-4-5-20250929" → "claude-sonnet-4-5"; "gpt-5-2025-08-07" → "gpt-5". */
export function normaliseModelId(modelId: string): string {
  let id = modelId.trim().toLowerCase();
  const slash = id.lastIndexOf("/");
  if (slash >= 0) id = id.slice(slash + 1);
  id = id.replace(/-\d{8}$/, "").replace(/-\d{4}-\d{2}-\d{2}$/, "").replace(/@.*$/, "").replace(/-latest$/, "");
  // Claude 4.0 models are named "claude-sonnet-4-20250514" with their date, "claude-sonnet-4-0" as an alias.
  if (/^claude-(opus|sonnet)-4$/.test(id)) id = `${id}-0`;
  return id;
}

/** The table with the user's edits applied: edited rows replaced, new rows added, each marked `edited`. */
export function applyPriceOverrides(table: PriceTable, overrides: PriceOverrides | undefined): PriceTable {
  if (!overrides || Object.keys(overrides).length === 0) return table;
  const rows: PriceRow[] = [];
  const seen = new Set<string>();
  for (const row of table.rows) {
    const key = priceKey(row.provider, row.model);
    seen.add(key);
    const edit = overrides[key];
    rows.push(edit ? { ...row, ...clean(edit), provider: row.provider, model: row.model, edited: true } : row);
  }
  for (const [key, edit] of Object.entries(overrides)) {
    if (seen.has(key) || key === "__proto__") continue;
    const slash = key.indexOf("/");
    if (slash <= 0) continue;
    rows.push({
      provider: key.slice(0, slash),
      model: key.slice(slash + 1),
      input: null,
      cachedInput: null,
      cacheWrite5m: null,
      cacheWrite1h: null,
      output: null,
      reasoning: null,
      source: "user",
      date: "",
      ...clean(edit),
      edited: true,
    });
  }
  return { ...table, rows };
}

function clean(edit: Partial<PriceRow>): Partial<PriceRow> {
  const out: Partial<PriceRow> = {};
  for (const [key, value] of Object.entries(edit)) {
    if (value !== undefined && key !== "__proto__" && key !== "edited") (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

export interface FoundRow {
  row: PriceRow;
  match: "exact" | "model" | "normalised";
}

/** The row for a model, or null. */
export function findPriceRow(ref: ModelRefLike | null, table: PriceTable): FoundRow | null {
  if (!ref) return null;
  const provider = ref.provider.toLowerCase();
  const id = ref.modelId.toLowerCase();
  const exact = table.rows.find((row) => row.provider === provider && row.model === id);
  if (exact) return { row: exact, match: "exact" };
  const byModel = table.rows.find((row) => row.model === id);
  if (byModel) return { row: byModel, match: "model" };
  const normal = normaliseModelId(id);
  const normalised =
    table.rows.find((row) => row.provider === provider && row.model === normal) ?? table.rows.find((row) => row.model === normal);
  return normalised ? { row: normalised, match: "normalised" } : null;
}
