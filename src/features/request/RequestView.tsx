// Request tab: the selected turn's provider request as JSON in a read-only editor; with a capture
// attached, a toggle shows the diff against the capture of this turn (./CaptureDiff.tsx).
import { useState } from "react";
import { copyRequestBody } from "../../page/clipboard";
import { CaptureDiff } from "../captures/CaptureDiff";
import { useAppStore } from "../../page/store";
import { LARGE_TEXT } from "../../monaco/limits";
import { API_LABELS, formatCompact } from "../../ui/format";
import { ExportButton } from "../share/ExportPanel";
import { LazyRequestEditor } from "./LazyRequestEditor";
import { RequestLegend } from "./RequestLegend";
import { useSearchStore } from "../search/searchState";
import { requestIsOutdated } from "../../page/selectors";

export function RequestView() {
  const request = useAppStore((state) => state.request);
  const outdatedRequest = useAppStore(requestIsOutdated);
  const hasCapture = useAppStore((state) => state.options.header !== null || state.options.captures.length > 0);
  const [diffWithCapture, setDiffWithCapture] = useState(false);
  const result = request.result;
  const highlight = useSearchStore((state) => state.highlight);
  if (request.status === "error") {
    return <div className="center-message error-text">Could not build the request of turn {request.turn}: {request.error}</div>;
  }
  if (!result) {
    return <div className="center-message muted">{request.status === "loading" ? `Building turn ${request.turn}…` : "Select a turn."}</div>;
  }
  const building = request.status === "loading" && request.turn !== result.turn;
  const outdated = !building && outdatedRequest;
  return (
    <div className="request-view">
      <div className="view-toolbar">
        <span className="strong">Turn {result.turn}</span>
        <span className="chip">{API_LABELS[result.built.api] ?? result.built.api}</span>
        <span className="muted" title="Length of the pretty-printed JSON shown below">
          {formatCompact(result.jsonText.length)} chars
          {result.jsonText.length > LARGE_TEXT ? " · word wrap off (large request)" : ""}
        </span>
        {building && <span className="muted">building turn {request.turn}…</span>}
        {outdated && (
          <span className="muted" data-testid="request-outdated">
            rebuilding for the changed settings…
          </span>
        )}
        <span className="spacer" />
        {hasCapture && (
          <label className="muted" title="Compare this turn with the attached captured request of the same turn">
            <input type="checkbox" data-testid="capture-diff-toggle" checked={diffWithCapture} onChange={(event) => setDiffWithCapture(event.target.checked)} /> diff with capture
          </label>
        )}
        <RequestLegend />
        <ExportButton target={{ kind: "turn", turn: result.turn }} />
        <button
          type="button"
          className="btn small"
          title="Copy the request body as compact JSON (as sent)"
          onClick={() => void copyRequestBody(result.turn)}
        >
          Copy JSON
        </button>
      </div>
      {hasCapture && diffWithCapture ? (
        <CaptureDiff turn={result.turn} />
      ) : (
        <LazyRequestEditor
          jsonText={result.jsonText}
          highlights={result.highlights}
          documentKey={`turn-${result.turn}`}
          searchText={highlight?.turn === result.turn ? highlight.text : null}
        />
      )}
    </div>
  );
}
