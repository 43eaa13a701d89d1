// The turn timeline: a virtualized list of turns, compaction events and auxiliary requests (only visible rows are in
// the DOM), with the context-size chart on top. The selected row is kept in view. The filter bar
// narrows the list to the cache breaks, the compactions or the errors.
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useMemo, useRef } from "react";
import type { TurnSummary } from "../../core/model";
import { turnTokenStory } from "../../ui/tokenStory";
import type { PrefixRow } from "../prefix/protocol";
import { selectIndex } from "../../page/selection";
import { selectedTurnNumber } from "../../page/selectors";
import { useAppStore } from "../../page/store";
import { useTimelineMarks } from "../../page/timelineMarks";
import { ContextChart } from "./ContextChart";
import { AuxiliaryRow } from "../auxiliary/index";
import { CompactionRow, TurnRow } from "./TimelineRow";
import { ThreadList } from "../threads/index";
import { useSessionCost } from "../prices/index";
import { TimelineFilterBar } from "./TimelineFilterBar";
import { filteredRows, useTimelineFilterStore } from "../../page/timelineFilter";

const ROW_HEIGHT = 44;

export function Timeline() {
  const analysis = useAppStore((state) => state.analysis);
  const selectedIndex = useAppStore((state) => state.selectedIndex);
  const selectedTurn = useAppStore(selectedTurnNumber);
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const timeline = analysis?.timeline ?? [];
  const turns = analysis?.turns ?? [];
  const prefixRows = useAppStore((state) => state.prefix.rows);
  const cost = useSessionCost();
  const threadShown = useAppStore((state) => state.options.thread !== null);
  const reading = useAppStore((state) => (state.analysisProvisional ? (state.session?.provisional ?? null) : null));
  const prefixByTurn = useMemo(() => {
    const map = new Map<number, PrefixRow>();
    for (const row of prefixRows ?? []) map.set(row.turn, row);
    return map;
  }, [prefixRows]);

  // Turns where the simulator's whole-session replay would fire automatic compaction (the mount fills the slot).
  const simulatedCompactions = useTimelineMarks((state) => state.simulatedCompactions);
  const simulatedSet = useMemo(() => new Set(simulatedCompactions ?? []), [simulatedCompactions]);
  const wire = useTimelineMarks((state) => state.wire);
  const wireByTurn = useMemo(() => new Map((wire?.turns ?? []).map((item) => [item.turn, item])), [wire]);

  const compactions = timeline.filter((item) => item.kind === "compaction").length;
  const auxiliaries = timeline.filter((item) => item.kind === "auxiliary").length;

  const byTurn = useMemo(() => {
    const map = new Map<number, TurnSummary>();
    for (const summary of turns) map.set(summary.turn, summary);
    return map;
  }, [turns]);
  // One scale for the rebuilt-request bars (with the part not in the file) and the billed-prompt
  // markers, so both stay comparable.
  const maxTokens = useMemo(
    () =>
      turns.reduce((max, t) => {
        const story = turnTokenStory(t, prefixByTurn.get(t.turn) ?? null);
        return Math.max(max, story.rebuilt + (story.notInFile ?? 0), story.billed ?? 0);
      }, 0),
    [turns, prefixByTurn],
  );

  // The rows the filter shows, as indexes into the timeline (all of them unfiltered).
  const filter = useTimelineFilterStore((state) => state.filter);
  const shownRows = useAppStore((state) => filteredRows(state)[filter]);
  const shownPosition = selectedIndex === null ? -1 : shownRows.indexOf(selectedIndex);

  const virtualizer = useVirtualizer({
    count: shownRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  useEffect(() => {
    if (shownPosition >= 0) virtualizer.scrollToIndex(shownPosition, { align: "auto" });
  }, [shownPosition, virtualizer]);

  const onSelect = useCallback((index: number) => selectIndex(index), []);
  const onSelectTurn = useCallback(
    (turn: number) => {
      const index = timeline.findIndex((item) => item.kind === "turn" && item.turn === turn);
      if (index >= 0) selectIndex(index);
    },
    [timeline],
  );

  const counts = [
    compactions > 0 ? `${compactions} ${compactions === 1 ? "compaction" : "compactions"}` : "",
    auxiliaries > 0 ? `${auxiliaries} auxiliary ${auxiliaries === 1 ? "request" : "requests"}` : "",
  ]
    .filter((part) => part !== "")
    .join(" · ");
  return (
    <div className="timeline-panel">
      <div className="panel-title">
        <span className="strong" data-testid="turn-position">
          {selectedTurn !== null ? `Turn ${selectedTurn} of ${turns.length}` : `${turns.length} ${turns.length === 1 ? "turn" : "turns"}`}
        </span>
        <span className="muted timeline-counts" title={counts}>
          {counts}
        </span>
        {reading && (
          <span className="badge" data-testid="timeline-provisional" title="Turns of the part of the file read so far; the whole file's analysis replaces them">
            reading…{reading.totalBytes ? ` ${Math.floor((reading.bytesRead / reading.totalBytes) * 100)} %` : ""}
          </span>
        )}
      </div>
      {wire && (
        <div className="wire-headline" data-testid="wire-headline" title="Each captured main request beside the request rebuilt for its turn, whole body against whole body (keys sorted); facts only from the first capture of each model">
          {wire.headline}
        </div>
      )}
      <ThreadList />
      <TimelineFilterBar />
      <ContextChart turns={turns} timeline={timeline} prefix={prefixRows} selectedTurn={selectedTurn} onSelectTurn={onSelectTurn} />
      <div className="timeline-scroll" ref={scrollRef} data-testid="timeline" role="listbox" aria-label="Turns" tabIndex={0}>
        {timeline.length === 0 ? (
          <div className="muted pad">
            {analysis ? (threadShown ? "No turns in this thread: its messages are not in the files opened." : "No turns on this branch.") : ""}
          </div>
        ) : shownRows.length === 0 ? (
          <div className="muted pad" data-testid="timeline-filter-empty">
            No rows match this filter.
          </div>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {virtualizer.getVirtualItems().map((row) => {
              const index = shownRows[row.index];
              const item = index === undefined ? undefined : timeline[index];
              if (!item || index === undefined) return null;
              const style: React.CSSProperties = { position: "absolute", top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${row.start}px)` };
              const selected = index === selectedIndex;
              if (item.kind === "compaction") {
                return <CompactionRow key={`c-${item.entryId}`} event={item} selected={selected} index={index} onSelect={onSelect} style={style} />;
              }
              if (item.kind === "auxiliary") {
                return <AuxiliaryRow key={`a-${item.index}`} event={item} selected={selected} index={index} onSelect={onSelect} style={style} />;
              }
              const summary = byTurn.get(item.turn);
              if (!summary) return null;
              return (
                <TurnRow
                  key={`t-${item.turn}`}
                  summary={summary}
                  maxTokens={maxTokens}
                  prefix={prefixByTurn.get(item.turn)}
                  cost={cost?.turn(item.turn) ?? undefined}
                  simulatedCompaction={simulatedSet.has(item.turn)}
                  wire={wireByTurn.get(item.turn)}
                  selected={selected}
                  index={index}
                  onSelect={onSelect}
                  style={style}
                />
              );
            })}
          </div>
        )}
      </div>
      <div className="panel-foot muted">j/k ↑/↓ step · Home/End · g go to turn · / search · ? shortcuts</div>
    </div>
  );
}
