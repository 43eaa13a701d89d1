// Centre view for a selected compaction event: its reconstructed summariser request(s) when the
// compaction module provides them (PI-R12), otherwise what the session records about it.
import { useState } from "react";
import { useAppStore } from "../state/store";
import { LazyRequestEditor } from "./LazyRequestEditor";

export function CompactionView() {
  const compaction = useAppStore((state) => state.compaction);
  const [chosen, setChosen] = useState(0);
  if (compaction.status === "loading") return <div className="center-message muted">Reconstructing the summariser request…</div>;
  if (compaction.status === "error") return <div className="center-message error-text">{compaction.error}</div>;
  const result = compaction.result;
  if (!result || !result.available || result.requests.length === 0) {
    return (
      <div className="center-message muted">
        Compaction event. The summariser request is not recorded in the session and cannot be reconstructed for this
        session format. The stored summary is the first message of the next turn's request.
      </div>
    );
  }
  const index = Math.min(chosen, result.requests.length - 1);
  const request = result.requests[index]!;
  return (
    <div className="request-view">
      <div className="view-toolbar">
        <span className="strong">Summariser request</span>
        <span className="chip" title="Not recorded by the agent: rebuilt from the compaction entry">reconstructed</span>
        {result.requests.length > 1 &&
          result.requests.map((r, i) => (
            <button key={r.label} type="button" className={`btn small${i === index ? " active" : ""}`} onClick={() => setChosen(i)}>
              {r.label}
            </button>
          ))}
      </div>
      <LazyRequestEditor jsonText={request.jsonText} highlights={request.highlights} documentKey={`compaction-${result.entryId}-${index}`} />
    </div>
  );
}
