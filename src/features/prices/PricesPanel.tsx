// The cost panel: what the whole session cost, thread by thread, and the price table behind it —
// US dollars per million tokens per model, from the price dataset (named with its version), each
// row with its source, editable. The session's models come first (a model the dataset lacks gets
// an empty row, named, to fill in); then the dataset's models of the usual providers, filtered by
// a search box. An edited row is marked and can be reset; edits are kept in localStorage
// (src/features/prices/pricesState.ts).
import { useMemo, useState } from "react";
import { findPriceRow, formatPriced, priceKey, type PriceRow, type PriceVariant, type WholeSessionCost } from "../../core/pricing/index";
import { usePanelPlacement } from "./panelPlacement";
import { setPriceOverride, usePriceStore, usePriceTable, useWholeSessionCost } from "./pricesState";

type Field = "input" | "cachedInput" | "cacheWrite5m" | "cacheWrite1h" | "output";
const FIELDS: { id: Field; label: string }[] = [
  { id: "input", label: "input" },
  { id: "cachedInput", label: "cached input" },
  { id: "cacheWrite5m", label: "cache write 5 min" },
  { id: "cacheWrite1h", label: "cache write 1 h" },
  { id: "output", label: "output" },
];

/** Other models listed at once; the search box finds the rest. */
const OTHER_ROWS_SHOWN = 60;

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

function variantText(variant: PriceVariant): string {
  const when = variant.startDate ? `from ${variant.startDate}` : variant.timeOfDay ? `${variant.timeOfDay.start}–${variant.timeOfDay.end} UTC` : "";
  return `${when}: input $${variant.prices.input ?? "?"}, cached $${variant.prices.cachedInput ?? "?"}, output $${variant.prices.output ?? "?"}`;
}

/** What the row says beyond its figures: long-context tier, prices by date or hour, the dataset's note. */
function rowTitle(row: PriceRow): string {
  const lines: string[] = [];
  if (row.longContext) {
    const long = row.longContext;
    lines.push(`Above ${long.aboveInputTokens.toLocaleString("en-US")} input tokens a request pays: input $${long.input}, cached $${long.cachedInput}, output $${long.output}.`);
  }
  if (row.variants?.length) {
    lines.push("These prices change by date or hour; each request pays those in force when it was sent:");
    for (const variant of row.variants) lines.push(`  ${variantText(variant)}`);
  }
  if (row.aliases?.length) lines.push(`The session names it ${row.aliases.join(", ")}.`);
  if (row.note) lines.push(row.note);
  return lines.join("\n");
}

function SessionCostTable({ cost }: { cost: WholeSessionCost }) {
  const subAgents = cost.threads.length - 1;
  return (
    <div className="prices-session" data-testid="prices-session-cost">
      <div>
        <span className="strong" data-testid="prices-session-total">
          This session: {cost.calls > 0 && cost.callsWithUsage === 0 ? "no usage recorded" : formatPriced(cost.total)}
        </span>{" "}
        <span className="muted">
          {subAgents > 0 ? `recorded usage of the main thread and its ${subAgents} sub-agent thread${subAgents === 1 ? "" : "s"}` : "recorded usage of every provider call"}
        </span>
      </div>
      {cost.threads[0]?.countedAs && <div className="muted" data-testid="prices-counted-as">Main thread: {cost.threads[0].countedAs}.</div>}
      {cost.unpricedModels.length > 0 && (
        <div className="muted" data-testid="prices-unpriced">
          Not in the price dataset: {cost.unpricedModels.join(", ")} — fill in its row below to price its calls.
        </div>
      )}
      {subAgents > 0 && (
        <table className="prices-table prices-threads">
          <thead>
            <tr>
              <th>thread</th>
              <th className="num">calls</th>
              <th className="num">recorded cost</th>
            </tr>
          </thead>
          <tbody>
            {cost.threads.map((thread) => (
              <tr key={thread.id ?? "main"} data-testid="thread-cost-row" data-thread={thread.id ?? ""} data-dollars={thread.recorded.dollars ?? ""}>
                <td className="prices-thread-label" title={thread.label}>{thread.label}</td>
                <td className="num">{thread.turns}</td>
                <td className="num">{thread.turns > 0 && thread.withoutUsage === thread.turns ? "no usage recorded" : formatPriced(thread.recorded)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function PricesPanel() {
  const open = usePriceStore((state) => state.open);
  const session = usePriceStore((state) => state.session);
  const listed = usePriceStore((state) => state.listed);
  const table = usePriceTable();
  const cost = useWholeSessionCost();
  const [filter, setFilter] = useState("");
  const placement = usePanelPlacement();
  const rows = useMemo(() => {
    const used: PriceRow[] = [];
    // The names the session uses, and the rows already listed (several names can share a row).
    const names = new Set<string>();
    const listedKeys = new Set<string>();
    for (const thread of session?.threads ?? []) {
      for (const turn of thread.turns) {
        if (!turn.model) continue;
        const name = priceKey(turn.model.provider, turn.model.modelId);
        if (names.has(name)) continue;
        names.add(name);
        const found = findPriceRow(turn.model, table);
        if (found) {
          const key = priceKey(found.row.provider, found.row.model);
          if (!listedKeys.has(key)) used.push(found.row);
          listedKeys.add(key);
        } else {
          const source = `not in ${table.dataset ? `${table.dataset.name} ${table.dataset.version}` : "the price dataset"}`;
          used.push({ provider: turn.model.provider, model: turn.model.modelId, input: null, cachedInput: null, cacheWrite5m: null, cacheWrite1h: null, output: null, reasoning: null, source, date: "" });
        }
      }
    }
    const usedKeys = new Set(used.map((row) => priceKey(row.provider, row.model)));
    // The user's rows (edited or added) replace the dataset's in the list of other models.
    const edited = new Map(table.rows.filter((row) => row.edited).map((row) => [priceKey(row.provider, row.model), row]));
    const all = [...(listed?.rows ?? []).map((row) => edited.get(priceKey(row.provider, row.model)) ?? row)];
    for (const [key, row] of edited) if (!all.some((other) => priceKey(other.provider, other.model) === key)) all.push(row);
    const needle = filter.trim().toLowerCase();
    const others = all.filter((row) => !usedKeys.has(priceKey(row.provider, row.model)) && (!needle || priceKey(row.provider, row.model).toLowerCase().includes(needle)));
    return { used, others };
  }, [session, listed, table, filter]);
  if (!open) return null;
  const dataset = table.dataset ?? listed?.dataset ?? null;
  const render = (row: PriceRow) => {
    const key = priceKey(row.provider, row.model);
    return (
      <tr key={key} data-testid="price-row" data-key={key}>
        <td title={rowTitle(row)}>
          {key} {row.edited && <span className="chip edited" data-testid="price-edited">edited</span>}
          {row.longContext && <span className="chip" title={rowTitle(row)}>long context</span>}
          {row.variants?.length ? <span className="chip" title={rowTitle(row)}>by date/hour</span> : null}
        </td>
        {FIELDS.map((field) => (
          <PriceCell key={`${field.id}-${String(row[field.id])}`} row={row} field={field.id} />
        ))}
        <td className="muted price-source" title={row.note ?? ""}>
          {row.source}
        </td>
        <td>{row.edited && <button type="button" className="btn small" onClick={() => setPriceOverride(key, null)}>reset</button>}</td>
      </tr>
    );
  };
  const shown = rows.others.slice(0, OTHER_ROWS_SHOWN);
  return (
    <div className="prices-panel" role="dialog" aria-label="Cost and prices" data-testid="prices-panel" style={{ top: placement.top }}>
      <div className="view-toolbar">
        <span className="strong">Cost and prices</span>
        <span className="muted" data-testid="prices-dataset">
          US dollars per million tokens · {dataset ? `from the price dataset ${dataset.name} ${dataset.version}` : "price dataset loading…"} · edits are kept in this browser
        </span>
        <span className="spacer" />
        <button type="button" className="btn small" onClick={placement.close} title="Close (Escape)">Close</button>
      </div>
      <div className="prices-scroll">
        {cost && <SessionCostTable cost={cost} />}
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
            <tr>
              <td colSpan={8} className="muted">
                other models{" "}
                <input
                  className="price-filter"
                  data-testid="price-filter"
                  placeholder="find a model…"
                  aria-label="Find a model in the price dataset"
                  value={filter}
                  onChange={(event) => setFilter(event.currentTarget.value)}
                />
                {rows.others.length > shown.length && ` ${rows.others.length - shown.length} more: type to find one`}
              </td>
            </tr>
            {shown.map(render)}
          </tbody>
        </table>
      </div>
    </div>
  );
}
