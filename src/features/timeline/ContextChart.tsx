// Small chart above the timeline: request size per turn (area: the prefix report's request tokens
// plus the part not in the file once computed, the chars/4 estimate before), predicted cached tokens (green area; the rest of the area
// is uncached), recorded cache reads (dashed line) and recorded input tokens (line), compactions
// as vertical ticks and cache breaks as red ticks, the selected turn as a marker. Click to select.
import { memo, useMemo } from "react";
import type { TimelineItem, TurnSummary } from "../../core/model";
import type { PrefixRow } from "../prefix/protocol";
import { formatCompact } from "../../ui/format";
import { isBreakRow } from "../../page/timelineFilter";
import { ChartPath } from "../../ui/chartPath";

interface Props {
  turns: TurnSummary[];
  timeline: TimelineItem[];
  /** Prefix reports by turn order (null until the first pass finishes). */
  prefix?: PrefixRow[] | null;
  selectedTurn: number | null;
  onSelectTurn(turn: number): void;
}

const WIDTH = 300;
const HEIGHT = 44;

function recordedInput(turn: TurnSummary): number {
  return turn.usage ? turn.usage.input + turn.usage.cacheRead + turn.usage.cacheWrite : 0;
}

export function ContextChart({ turns, timeline, prefix = null, selectedTurn, onSelectTurn }: Props) {
  const shape = useMemo(() => {
    if (turns.length === 0) return null;
    const byTurn = new Map<number, PrefixRow>();
    for (const row of prefix ?? []) byTurn.set(row.turn, row);
    // The request as the provider saw it: the rebuilt request plus what the file does not hold
    // (inferred from recorded usage), the same whole the cache prediction counts.
    const size = (turn: TurnSummary) => {
      const row = byTurn.get(turn.turn);
      return row ? row.tokens + (row.unrecordedTokens ?? 0) : turn.estimatedTokens;
    };
    let max = 1;
    for (const turn of turns) max = Math.max(max, size(turn), recordedInput(turn));
    const x = (turn: number) => (turns.length === 1 ? WIDTH / 2 : ((turn - 1) / (turns.length - 1)) * WIDTH);
    const y = (value: number) => HEIGHT - 2 - (value / max) * (HEIGHT - 6);
    const areaOf = (value: (t: TurnSummary) => number) => {
      const path = new ChartPath(false);
      for (const turn of turns) path.add(x(turn.turn), y(value(turn)));
      return `M0,${HEIGHT} ${path.text()} L${WIDTH},${HEIGHT}Z`;
    };
    // A line through the turns with recorded usage.
    const lineOf = (value: (turn: TurnSummary) => number) => {
      const path = new ChartPath(true);
      for (const turn of turns) if (turn.usage) path.add(x(turn.turn), y(value(turn)));
      return path.text();
    };
    const area = areaOf(size);
    const cached = byTurn.size > 0 ? areaOf((t) => byTurn.get(t.turn)?.predictedCachedTokens ?? 0) : null;
    const line = lineOf(recordedInput);
    const recordedCached = lineOf((turn) => turn.usage!.cacheRead);
    const compactions = timeline.flatMap((item) => (item.kind === "compaction" && item.beforeTurn !== null ? [x(item.beforeTurn - 0.5)] : []));
    const breaks = [...byTurn.values()].filter(isBreakRow).map((row) => x(row.turn));
    return { max, x, area, cached, line, recordedCached, compactions, breaks };
  }, [turns, timeline, prefix]);

  if (!shape) return null;
  const title =
    "Request size per turn (area: the rebuilt request plus the part not in the file, inferred from recorded usage; " +
    "in green the part the cache simulation predicts is read from cache), the billed prompt (line) and the recorded cache reads (dashed); " +
    `red ticks: cache breaks; max ${formatCompact(shape.max)} tokens. Click a turn to select it.`;
  return (
    <div className="context-chart" title={title} data-testid="context-chart">
      <ChartShapes shape={shape} turnCount={turns.length} onSelectTurn={onSelectTurn} />
      {/* The marker is a layer of its own: a step moves it without repainting (or re-rendering) the
          shapes, which hold a point per turn and showed in the profile of stepping at 1 GB. */}
      <svg className="chart-marker" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" aria-hidden="true">
        {selectedTurn !== null && <line x1={shape.x(selectedTurn)} x2={shape.x(selectedTurn)} y1={0} y2={HEIGHT} className="chart-selected" />}
      </svg>
      <span className="chart-max">{formatCompact(shape.max)}</span>
    </div>
  );
}

interface Shape {
  area: string;
  cached: string | null;
  line: string;
  recordedCached: string;
  compactions: number[];
  breaks: number[];
}

/** The chart's shapes, re-rendered only when the turns or prefix reports change. */
const ChartShapes = memo(function ChartShapes({ shape, turnCount, onSelectTurn }: { shape: Shape; turnCount: number; onSelectTurn(turn: number): void }) {
  return (
    <svg
      className="chart-shapes"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="none"
      onClick={(event) => {
        const rect = event.currentTarget.getBoundingClientRect();
        const fraction = (event.clientX - rect.left) / rect.width;
        onSelectTurn(Math.min(turnCount, Math.max(1, Math.round(fraction * (turnCount - 1)) + 1)));
      }}
    >
      <path d={shape.area} className="chart-area" />
      {shape.cached && <path d={shape.cached} className="chart-cached" />}
      {shape.line && <path d={shape.line} className="chart-line" />}
      {shape.recordedCached && <path d={shape.recordedCached} className="chart-line recorded-cached" />}
      {shape.compactions.map((cx, i) => (
        <line key={`c${i}`} x1={cx} x2={cx} y1={0} y2={HEIGHT} className="chart-compaction" />
      ))}
      {shape.breaks.map((cx, i) => (
        <line key={`b${i}`} x1={cx} x2={cx} y1={0} y2={6} className="chart-break" />
      ))}
    </svg>
  );
});
