// Right panel for a selected auxiliary request (opencode title / summariser request): what the
// session records about it and which parts of the rebuilt body are not recorded.
import type { AuxiliaryRequestEvent } from "../../core/model";
import { useAppStore } from "../../page/store";
import { auxiliaryKindLabel } from "./AuxiliaryRow";
import { formatDateTime } from "../../ui/format";
import { RuleText } from "../../ui/RuleText";
import { provenanceWords } from "../../ui/words";

export function AuxiliaryDetails({ event }: { event: AuxiliaryRequestEvent }) {
  const auxiliary = useAppStore((state) => state.auxiliary);
  const result = auxiliary.index === event.index ? auxiliary.result : null;
  return (
    <>
      <div className="section-title">Auxiliary request</div>
      <div className="kv">
        <span className="k">kind</span>
        <span className="v">{auxiliaryKindLabel(event)}</span>
      </div>
      <div className="kv">
        <span className="k">what</span>
        <span className="v">{event.label}</span>
      </div>
      <div className="kv">
        <span className="k">made by</span>
        <span className="v">
          <span title={`${event.rule} (${event.ruleId})`}>{provenanceWords(event.rule)}</span>
        </span>
      </div>
      <div className="kv">
        <span className="k">entry</span>
        <span className="v">{event.entryId ?? "—"}</span>
      </div>
      <div className="kv">
        <span className="k">time</span>
        <span className="v">{formatDateTime(event.timestamp)}</span>
      </div>
      <div className="kv">
        <span className="k">next turn</span>
        <span className="v">{event.beforeTurn === null ? "none (end of session)" : `#${event.beforeTurn}`}</span>
      </div>
      <div className="explain">
        <RuleText
          text={
            event.explanation ??
            (event.purpose === "title"
              ? "opencode asks a small model for the session title alongside the first request. Only the resulting title is stored; the request is rebuilt from the first prompt (FM-OC-15)."
              : "opencode's summariser request behind an automatic compaction. It is not stored; the conversation text it summarises is rebuilt from the session (CP-OC-16 … CP-OC-20).")
          }
        />{" "}
        An auxiliary request does not advance the turn counter.
      </div>
      {result && result.notRecorded.length > 0 && (
        <>
          <div className="section-title">Not recorded</div>
          <ul className="plain-list">
            {result.notRecorded.map((what) => (
              <li key={what} className="not-recorded-item">
                <RuleText text={what} />
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
