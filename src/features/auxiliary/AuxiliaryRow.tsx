// A timeline row for an auxiliary request the agent sent besides the main requests: opencode's
// title request (FM-OC-15) and summariser requests (CP-OC-17). Styled like a compaction event; it
// does not advance the turn counter.
import { memo } from "react";
import type { AuxiliaryRequestEvent } from "../../core/model";
import { formatTime } from "../../ui/format";
import { provenanceWords } from "../../ui/words";

/** "title request" / "summariser request": how the UI names an auxiliary request. */
export function auxiliaryKindLabel(event: Pick<AuxiliaryRequestEvent, "purpose">): string {
  return event.purpose === "title" ? "title request" : "summariser request";
}

interface AuxiliaryRowProps {
  event: AuxiliaryRequestEvent;
  selected: boolean;
  index: number;
  onSelect(index: number): void;
  style: React.CSSProperties;
}

export const AuxiliaryRow = memo(function AuxiliaryRow({ event, selected, index, onSelect, style }: AuxiliaryRowProps) {
  const kind = auxiliaryKindLabel(event);
  return (
    <div
      role="option"
      aria-selected={selected}
      data-testid="timeline-row"
      data-kind="auxiliary"
      data-purpose={event.purpose}
      data-aux-index={event.index}
      data-before-turn={event.beforeTurn ?? undefined}
      className={`timeline-row compaction auxiliary${selected ? " selected" : ""}`}
      style={style}
      onClick={() => onSelect(index)}
    >
      <div className="row-line">
        <span className="compaction-icon">{event.purpose === "title" ? "✎" : "⟲"}</span>
        <span className="compaction-title" title={`Auxiliary request (${event.rule}, ${event.ruleId}): does not advance the turn counter`}>
          {kind}
        </span>
        <span className="turn-time">{formatTime(event.timestamp)}</span>
        <span className="badges">
          {event.beforeTurn !== null && (
            <span className="badge badge-aux" title={`The next main request is turn ${event.beforeTurn}`}>
              {`→ #${event.beforeTurn}`}
            </span>
          )}
        </span>
      </div>
      <div className="row-line secondary">
        <span title="What the session says about this request">{event.label}</span>
        <span className="muted" title={event.rule}>{provenanceWords(event.rule)}</span>
      </div>
    </div>
  );
});
