// Finding a model's price row: among the table's rows by provider and model id, by a name a session
// used for it (the dataset's rows carry them), by model id alone ("price by model, not by
// harness": a proxy or another agent calling the same model pays the same list price), then after
// normalising the id (a routing prefix like "anthropic/", a date suffix like "-20250929"); then
// the table's dataset lookup. The user's edits, keyed "provider/model", apply over all of them.
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

/** An edited copy of a row: the edit's figures replace the row's, its dated variants no longer apply. */
function edited(row: PriceRow, edit: Partial<PriceRow>): PriceRow {
  const { variants: _dropped, ...rest } = row;
  return { ...rest, ...clean(edit), provider: row.provider, model: row.model, edited: true };
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
    rows.push(edit ? edited(row, edit) : row);
  }
  const resolve = table.resolve;
  for (const [key, edit] of Object.entries(overrides)) {
    if (seen.has(key) || key === "__proto__") continue;
    const slash = key.indexOf("/");
    if (slash <= 0) continue;
    const provider = key.slice(0, slash);
    const model = key.slice(slash + 1);
    // An edit of a dataset row the table has not listed yet edits the dataset's figures.
    const fromDataset = resolve?.({ provider, modelId: model });
    if (fromDataset && priceKey(fromDataset.provider, fromDataset.model) === key) {
      rows.push(edited(fromDataset, edit));
      continue;
    }
    rows.push({
      provider,
      model,
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
  const out: PriceTable = { ...table, rows };
  if (resolve) {
    // A dataset row found later is edited the same way.
    out.resolve = (ref) => {
      const row = resolve(ref);
      const edit = row ? overrides[priceKey(row.provider, row.model)] : undefined;
      return row && edit ? edited(row, edit) : row;
    };
  }
  return out;
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
  match: "exact" | "model" | "normalised" | "dataset";
}

/**
 * Rows found per table and model: a session's turns ask for the same model tens of thousands of
 * times, and each search lower-cases every row's model (a table is never changed once made: edits
 * make a new one).
 */
const foundByTable = new WeakMap<PriceTable, FoundRows>();

/**
 * A table's rows found by model, and the last one asked for: the turns of a session ask for one
 * model in a row, which is then answered without making and hashing the key again.
 */
interface FoundRows {
  byKey: Map<string, FoundRow | null>;
  last: { provider: string; modelId: string; row: FoundRow | null } | null;
}

/** The row for a model, or null. */
export function findPriceRow(ref: ModelRefLike | null, table: PriceTable): FoundRow | null {
  if (!ref) return null;
  let found = foundByTable.get(table);
  if (!found) {
    found = { byKey: new Map(), last: null };
    foundByTable.set(table, found);
  }
  const last = found.last;
  if (last !== null && last.provider === ref.provider && last.modelId === ref.modelId) return last.row;
  const key = `${ref.provider}\u0000${ref.modelId}`;
  let row = found.byKey.get(key);
  if (row === undefined) {
    row = searchPriceRow(ref, table);
    found.byKey.set(key, row);
  }
  found.last = { provider: ref.provider, modelId: ref.modelId, row };
  return row;
}

function searchPriceRow(ref: ModelRefLike, table: PriceTable): FoundRow | null {
  const provider = ref.provider.toLowerCase();
  const id = ref.modelId.toLowerCase();
  const name = priceKey(provider, id);
  const rows = table.rows;
  const exact = rows.find((row) => row.provider === provider && row.model.toLowerCase() === id) ?? rows.find((row) => row.aliases?.includes(name));
  if (exact) return { row: exact, match: "exact" };
  const byModel = rows.find((row) => row.model.toLowerCase() === id);
  if (byModel) return { row: byModel, match: "model" };
  const normal = normaliseModelId(id);
  const normalised =
    rows.find((row) => row.provider === provider && row.model.toLowerCase() === normal) ?? rows.find((row) => row.model.toLowerCase() === normal);
  if (normalised) return { row: normalised, match: "normalised" };
  const fromDataset = table.resolve?.(ref) ?? null;
  if (!fromDataset) return null;
  // An edited row of the dataset's model wins over the dataset's figures.
  const key = priceKey(fromDataset.provider, fromDataset.model);
  const editedRow = rows.find((row) => priceKey(row.provider, row.model) === key);
  return { row: editedRow ?? fromDataset, match: "dataset" };
}
