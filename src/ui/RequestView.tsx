// Request tab: the selected turn's provider request as JSON in a read-only editor.
import { useAppStore } from "../state/store";
import { API_LABELS, formatBytes } from "./format";
import { LazyRequestEditor } from "./LazyRequestEditor";
import { RequestLegend } from "./RequestLegend";

export function RequestView() {
  const request = useAppStore((state) => state.request);
  const result = request.result;
  if (request.status === "error") {
    return <div className="center-message error-text">Could not build the request of turn {request.turn}: {request.error}</div>;
  }
  if (!result) {
    return <div className="center-message muted">{request.status === "loading" ? `Building turn ${request.turn}…` : "Select a turn."}</div>;
  }
  const building = request.status === "loading" && request.turn !== result.turn;
  return (
    <div className="request-view">
      <div className="view-toolbar">
        <span className="strong">Turn {result.turn}</span>
        <span className="chip">{API_LABELS[result.built.api] ?? result.built.api}</span>
        <span className="muted">{formatBytes(new Blob([result.jsonText]).size)} pretty-printed</span>
        {building && <span className="muted">building turn {request.turn}…</span>}
        <span className="spacer" />
        <RequestLegend />
        <button
          type="button"
          className="btn small"
          title="Copy the request body as compact JSON (as sent)"
          onClick={() => void navigator.clipboard?.writeText(JSON.stringify(result.built.body))}
        >
          Copy JSON
        </button>
      </div>
      <LazyRequestEditor jsonText={result.jsonText} highlights={result.highlights} documentKey={`turn-${result.turn}`} />
    </div>
  );
}
