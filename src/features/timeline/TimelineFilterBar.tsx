// The timeline filter above the turn list: all rows, or only the cache breaks, the compactions or
// the responses that ended in an error, each with its count. Stepping with j/k or the arrows then
// moves between the rows shown (src/page/selection.ts).
import { chooseTimelineFilter } from "../../page/selection";
import { useAppStore } from "../../page/store";
import { filteredRows, TIMELINE_FILTERS, useTimelineFilterStore, type TimelineFilter } from "./timelineFilter";
import "../../styles/views.css";

const LABELS: Record<TimelineFilter, string> = { all: "All", breaks: "Breaks", compactions: "Compactions", errors: "Errors" };

const TITLES: Record<TimelineFilter, string> = {
  all: "Every row: turns, compactions and auxiliary requests",
  breaks: "Turns whose request stops repeating the previous one, so the prompt cache misses from there (cache break)",
  compactions: "Compaction rows: where the agent summarised the conversation",
  errors: "Turns whose response ended in an error or was interrupted",
};

export function TimelineFilterBar() {
  const rows = useAppStore(filteredRows);
  const filter = useTimelineFilterStore((state) => state.filter);
  const breaksPending = useAppStore((state) => state.prefix.rows === null);
  return (
    <div className="timeline-filter" role="radiogroup" aria-label="Show rows" data-testid="timeline-filter">
      {TIMELINE_FILTERS.map((id) => {
        const count = id === "breaks" && breaksPending ? null : rows[id].length;
        return (
          <button
            key={id}
            type="button"
            role="radio"
            aria-checked={filter === id}
            className={`timeline-filter-option${filter === id ? " active" : ""}`}
            data-testid={`timeline-filter-${id}`}
            data-count={count ?? ""}
            title={count === null ? `${TITLES[id]} (still being measured)` : TITLES[id]}
            disabled={id !== "all" && count === 0 && filter !== id}
            onClick={() => chooseTimelineFilter(id)}
          >
            {LABELS[id]} <span className="timeline-filter-count">{count === null ? "…" : count}</span>
          </button>
        );
      })}
    </div>
  );
}
