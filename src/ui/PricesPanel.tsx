// The price table, editable: US dollars per million tokens per model, each row with its source and
// date. The session's models come first (an unknown one gets an empty row to fill in); an edited
// row is marked and can be reset. Edits are kept in localStorage (src/state/prices.ts).
import { useMemo } from "react";
import { findPriceRow, priceKey, PRICES_AS_OF, type PriceRow } from "../core/pricing/index";
import { setPriceOverride, setPricesOpen, usePriceStore, usePriceTable } from "../state/prices";
import { useAppStore } from "../state/store";

type Field = "input" | "cachedInput" | "cacheWrite5m" | "cacheWrite1h" | "output";
const FIELDS: { id: Field; label: string }[] = [
  { id: "input", label: "input" },
  { id: "cachedInput", label: "cached input" },
  { id: "cacheWrite5m", label: "cache write 5 min" },
  { id: "cacheWrite1h", label: "cache write 1 h" },
  { id: "output", label: "output" },
];

function PriceCell({ row, field }: { row: PriceRow; field: Field }) {
  const key = priceKey(row.provider, row.model);
  const overrides = usePriceStore((state) => state.overrides);
  const value = row[field];
  return (
    <td className="num">
      <input
        className="price-input"
        data-testid={`price-${key}-${field}`}
        inputMode="decimal"
        defaultValue={value === null ? "" : String(value)}
        aria-label={`${key} ${field} $/M`}
        onBlur={(event) => {
          const text = event.currentTarget.value.trim();
          const parsed = text === "" ? null : Number(text);
          if (parsed !== null && (!Number.isFinite(parsed) || parsed < 0)) return;
          if (parsed === value) return;
          setPriceOverride(key, { ...(overrides[key] ?? {}), [field]: parsed });
        }}
      />
    </td>
  );
}

export function PricesPanel() {
  const open = usePriceStore((state) => state.open);
  const table = usePriceTable();
  const turns = useAppStore((state) => state.analysis?.turns ?? null);
  const rows = useMemo(() => {
    const used: PriceRow[] = [];
    const seen = new Set<string>();
    for (const turn of turns ?? []) {
      if (!turn.model) continue;
      const name = priceKey(turn.model.provider, turn.model.modelId);
      if (seen.has(name)) continue;
      seen.add(name);
      const found = findPriceRow(turn.model, table);
      if (found) {
        const key = priceKey(found.row.provider, found.row.model);
        if (!seen.has(key)) used.push(found.row);
        seen.add(key);
      } else {
        used.push({ provider: turn.model.provider, model: turn.model.modelId, input: null, cachedInput: null, cacheWrite5m: null, cacheWrite1h: null, output: null, reasoning: null, source: "not in the table", date: "" });
      }
    }
    const usedKeys = new Set(used.map((row) => priceKey(row.provider, row.model)));
    return { used, others: table.rows.filter((row) => !usedKeys.has(priceKey(row.provider, row.model))) };
  }, [turns, table]);
  if (!open) return null;
  const render = (row: PriceRow) => {
    const key = priceKey(row.provider, row.model);
    return (
      <tr key={key} data-testid="price-row" data-key={key}>
        <td>
          {key} {row.edited && <span className="chip edited" data-testid="price-edited">edited</span>}
        </td>
        {FIELDS.map((field) => (
          <PriceCell key={`${field.id}-${String(row[field.id])}`} row={row} field={field.id} />
        ))}
        <td className="muted price-source" title={row.note ?? ""}>
          {row.source} {row.date}
        </td>
        <td>{row.edited && <button type="button" className="btn small" onClick={() => setPriceOverride(key, null)}>reset</button>}</td>
      </tr>
    );
  };
  return (
    <div className="prices-panel" role="dialog" aria-label="Prices" data-testid="prices-panel">
      <div className="view-toolbar">
        <span className="strong">Prices</span>
        <span className="muted">US dollars per million tokens · built-in table as of {PRICES_AS_OF} · edits are kept in this browser</span>
        <span className="spacer" />
        <button type="button" className="btn small" onClick={() => setPricesOpen(false)}>Close</button>
      </div>
      <div className="prices-scroll">
        <table className="prices-table">
          <thead>
            <tr>
              <th>model</th>
              {FIELDS.map((field) => (
                <th key={field.id} className="num">{field.label}</th>
              ))}
              <th>source</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.used.length > 0 && (
              <tr><td colSpan={8} className="muted">this session's models</td></tr>
            )}
            {rows.used.map(render)}
            <tr><td colSpan={8} className="muted">other models</td></tr>
            {rows.others.map(render)}
          </tbody>
        </table>
      </div>
    </div>
  );
}
