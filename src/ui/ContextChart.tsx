// Small chart above the timeline: estimated context size per turn (area) and recorded input
// tokens (line), compactions as vertical ticks, the selected turn as a marker. Click to select.
import { useMemo } from "react";
import type { TimelineItem, TurnSummary } from "../core/model";
import { formatCompact } from "./format";

interface Props {
  turns: TurnSummary[];
  timeline: TimelineItem[];
  selectedTurn: number | null;
  onSelectTurn(turn: number): void;
}

const WIDTH = 300;
const HEIGHT = 44;

export function ContextChart({ turns, timeline, selectedTurn, onSelectTurn }: Props) {
  const shape = useMemo(() => {
    if (turns.length === 0) return null;
    let max = 1;
    for (const turn of turns) {
      const recorded = turn.usage ? turn.usage.input + turn.usage.cacheRead + turn.usage.cacheWrite : 0;
      max = Math.max(max, turn.estimatedTokens, recorded);
    }
    const x = (turn: number) => (turns.length === 1 ? WIDTH / 2 : ((turn - 1) / (turns.length - 1)) * WIDTH);
    const y = (value: number) => HEIGHT - 2 - (value / max) * (HEIGHT - 6);
    const area = [`M0,${HEIGHT}`, ...turns.map((t) => `L${x(t.turn).toFixed(1)},${y(t.estimatedTokens).toFixed(1)}`), `L${WIDTH},${HEIGHT}Z`].join(" ");
    const withUsage = turns.filter((t) => t.usage);
    const line = withUsage
      .map((t, i) => {
        const usage = t.usage!;
        return `${i === 0 ? "M" : "L"}${x(t.turn).toFixed(1)},${y(usage.input + usage.cacheRead + usage.cacheWrite).toFixed(1)}`;
      })
      .join(" ");
    const compactions = timeline.flatMap((item) => (item.kind === "compaction" && item.beforeTurn !== null ? [x(item.beforeTurn - 0.5)] : []));
    return { max, x, area, line, compactions };
  }, [turns, timeline]);

  if (!shape) return null;
  return (
    <div className="context-chart" title={`Context size per turn: estimate (area) and recorded input (line); max ${formatCompact(shape.max)} tokens`}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        onClick={(event) => {
          const rect = event.currentTarget.getBoundingClientRect();
          const fraction = (event.clientX - rect.left) / rect.width;
          onSelectTurn(Math.min(turns.length, Math.max(1, Math.round(fraction * (turns.length - 1)) + 1)));
        }}
      >
        <path d={shape.area} className="chart-area" />
        {shape.line && <path d={shape.line} className="chart-line" />}
        {shape.compactions.map((cx, i) => (
          <line key={i} x1={cx} x2={cx} y1={0} y2={HEIGHT} className="chart-compaction" />
        ))}
        {selectedTurn !== null && <line x1={shape.x(selectedTurn)} x2={shape.x(selectedTurn)} y1={0} y2={HEIGHT} className="chart-selected" />}
      </svg>
      <span className="chart-max">{formatCompact(shape.max)}</span>
    </div>
  );
}
