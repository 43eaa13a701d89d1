// What fills the context over the session: a stacked area chart of every turn's context tokens by
// kind (tool definitions, system prompt, user, assistant, tool results, summaries, notes, other),
// chars/4 estimates. A compaction shows as a cliff (the context falls to the summary and what was
// kept). Click a turn to select it. Hand-written SVG: a few paths, no chart library to load or pin.
import { useMemo } from "react";
import type { TurnComposition } from "../../core/session/sessionComposition";
import { COMPOSITION_LABELS, type CompositionKind } from "../../core/prefix/composition";
import { formatCompact } from "../../ui/format";
import { ChartPath, largest } from "../../ui/chartPath";

/** Bottom to top: the cached-first parts at the bottom, as in the request. */
const STACK_ORDER: readonly CompositionKind[] = ["tools", "system", "summary", "user", "assistant", "tool-result", "note", "synthesized"];

const WIDTH = 600;
const HEIGHT = 120;

interface Props {
  rows: TurnComposition[];
  selectedTurn: number | null;
  onSelectTurn(turn: number): void;
}

export function CompositionChart({ rows, selectedTurn, onSelectTurn }: Props) {
  const shape = useMemo(() => {
    if (rows.length === 0) return null;
    const max = largest(
      rows.map((row) => row.total),
      1,
    );
    const n = rows.length;
    const x = (i: number) => (n === 1 ? WIDTH / 2 : (i / (n - 1)) * WIDTH);
    const y = (value: number) => HEIGHT - (value / max) * (HEIGHT - 4);
    const lower = new Array<number>(n).fill(0);
    const layers = STACK_ORDER.flatMap((kind) => {
      if (!rows.some((row) => (row.byKind[kind] ?? 0) > 0)) return [];
      const upper = rows.map((row, i) => lower[i]! + (row.byKind[kind] ?? 0));
      // The layer's top edge left to right, then its bottom edge (the layer below's top) back.
      const edge = new ChartPath(true);
      for (let i = 0; i < n; i++) edge.add(x(i), y(upper[i]!));
      for (let i = n - 1; i >= 0; i--) edge.add(x(i), y(lower[i]!));
      for (let i = 0; i < n; i++) lower[i] = upper[i]!;
      return [{ kind, d: `${edge.text()} Z` }];
    });
    return { max, layers, x };
  }, [rows]);
  if (!shape) return null;
  const selectedIndex = selectedTurn === null ? -1 : rows.findIndex((row) => row.turn === selectedTurn);
  return (
    <div className="composition-chart" data-testid="composition-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label="Context tokens per turn by kind; click to select a turn"
        onClick={(event) => {
          const rect = event.currentTarget.getBoundingClientRect();
          const fraction = (event.clientX - rect.left) / rect.width;
          const index = Math.min(rows.length - 1, Math.max(0, Math.round(fraction * (rows.length - 1))));
          onSelectTurn(rows[index]!.turn);
        }}
      >
        {shape.layers.map((layer) => (
          <path key={layer.kind} d={layer.d} className={`stack-${layer.kind}`} data-kind={layer.kind}>
            <title>{COMPOSITION_LABELS[layer.kind]}</title>
          </path>
        ))}
        {selectedIndex >= 0 && <line x1={shape.x(selectedIndex)} x2={shape.x(selectedIndex)} y1={0} y2={HEIGHT} className="chart-selected" />}
      </svg>
      <div className="composition-legend">
        <span className="muted">max {formatCompact(shape.max)} tokens (estimate, chars/4) · click to select a turn</span>
        {shape.layers.map((layer) => (
          <span key={layer.kind} className="legend-item">
            <span className={`legend-swatch stack-${layer.kind}`} />
            {COMPOSITION_LABELS[layer.kind]}
          </span>
        ))}
      </div>
    </div>
  );
}
