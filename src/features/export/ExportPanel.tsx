// Export: a button in the Request, compaction and Simulate views and the panel it opens. The
// worker formats the request with the Request view's own formatter, so the JSON downloaded or
// copied is byte-for-byte what the view shows (as sent or rewritten: notes, provider shape,
// header); curl carries a placeholder key variable. Redaction is on by default, with the review.
// The panel also offers the whole session as an OpenTelemetry trace (the CLI's `export --format otlp`)
// and as a Hugging Face session trace (`export --format sts`).
import {
  closeExportPanel,
  copyExportCurl,
  copyExportJson,
  downloadExportJson,
  downloadExportSessionTrace,
  downloadExportTrace,
  exportTargetKey,
  setExportRedact,
  setExportUnmasked,
  toggleExportPanel,
  useExportStore,
} from "./exportState";
import type { ExportTarget } from "../../app/shareExport";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { RedactionReview } from "../../ui/RedactionReview";
import "./export.css";

export function ExportButton({ target }: { target: ExportTarget }) {
  const open = useExportStore((state) => exportTargetKey(state.exportTarget) === exportTargetKey(target));
  return (
    <span className="export-anchor">
      <button
        type="button"
        className={`btn small${open ? " active" : ""}`}
        data-testid="export-button"
        aria-expanded={open}
        title="Export this request as JSON or curl"
        onClick={() => toggleExportPanel(target)}
      >
        Export…
      </button>
      {open && <ExportPanel />}
    </span>
  );
}

/** Room kept between the panel and the window's edge. */
const EDGE_MARGIN = 8;

/**
 * How far the panel, anchored under the right edge of its button, must move right so that its
 * left edge stays inside the window (a narrow window with the button near the left): measured
 * after each render and on resize, so nothing of the panel is ever off-screen.
 */
function useStayInWindow(panel: React.RefObject<HTMLDivElement | null>): number {
  const [shift, setShift] = useState(0);
  useLayoutEffect(() => {
    const measure = () => {
      const element = panel.current;
      if (!element) return;
      const left = element.getBoundingClientRect().left - shift;
      const next = Math.max(0, EDGE_MARGIN - left);
      if (next !== shift) setShift(next);
    };
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  });
  return shift;
}

function ExportPanel() {
  const state = useExportStore();
  const panel = useRef<HTMLDivElement | null>(null);
  const shift = useStayInWindow(panel);
  // Escape closes the panel, as it closes the other dialogs.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") closeExportPanel();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  const result = state.exportJson;
  const ready = state.exportStatus === "ready" && result !== null;
  return (
    <div
      ref={panel}
      className="export-panel"
      role="dialog"
      aria-label="Export request"
      data-testid="export-panel"
      data-status={state.exportStatus}
      style={shift > 0 ? { transform: `translateX(${shift}px)` } : undefined}
    >
      <div className="export-row">
        <label className="field" title="Mask API keys, tokens, passwords and private keys in the exported request">
          <input type="checkbox" data-testid="export-redact-toggle" checked={state.exportRedact} onChange={(event) => setExportRedact(event.target.checked)} />
          <span>Redact secrets</span>
        </label>
        <span className="spacer" />
        <button type="button" className="btn small" aria-label="Close export" onClick={closeExportPanel}>
          ✕
        </button>
      </div>
      <div className="export-row">
        <button type="button" className="btn small" data-testid="export-json-download" disabled={!ready} onClick={downloadExportJson}>
          Download JSON
        </button>
        <button type="button" className="btn small" data-testid="export-json-copy" disabled={!ready} onClick={() => void copyExportJson()}>
          Copy JSON
        </button>
        <button type="button" className="btn small" data-testid="export-curl-copy" disabled={!ready} onClick={() => void copyExportCurl()}>
          Copy curl
        </button>
      </div>
      <div className="export-row">
        <button
          type="button"
          className="btn small"
          data-testid="export-otlp-download"
          title="The whole session as an OpenTelemetry trace (OTLP/JSON, GenAI semantic conventions): one span per provider call with its tokens, for an observability backend"
          onClick={() => void downloadExportTrace()}
        >
          Download OpenTelemetry trace
        </button>
        <button
          type="button"
          className="btn small"
          data-testid="export-sts-download"
          title="The session's conversation as a Hugging Face session trace (STS JSONL), for the Hub's trace viewer; redacted as set above"
          onClick={() => void downloadExportSessionTrace()}
        >
          Download session trace (STS)
        </button>
      </div>
      {result && <div className="muted export-name">{result.fileName}</div>}
      {state.notice && <div className="muted" data-testid="export-notice">{state.notice}</div>}
      {state.exportStatus === "building" && <div className="muted">Preparing…</div>}
      {state.exportError && <div className="error-text">{state.exportError}</div>}
      {result?.warnings.map((warning) => (
        <div key={warning} className="warning-text">
          {warning}
        </div>
      ))}
      {result && <RedactionReview findings={result.findings} redact={state.exportRedact} onUnmask={setExportUnmasked} target="export" />}
    </div>
  );
}
