// Says that the session shown is kept in this browser (it reopens after a reload) and how much is
// kept, with "Forget this session" to delete it; or why it could not be kept.
import { forgetKeptSession, useKeptSessionStore } from "./keptSession";
import { formatBytes } from "../../ui/format";
import "../../styles/views.css";

export function KeptSessionControl() {
  const kept = useKeptSessionStore();
  if (!kept.shown) return null;
  if (kept.status === "failed") {
    return (
      <span className="kept-session" data-testid="kept-session" data-status="failed" title={kept.error ?? undefined}>
        Not kept for the next visit: the browser's storage refused {formatBytes(kept.bytes)}
      </span>
    );
  }
  return (
    <span className="kept-session" data-testid="kept-session" data-status={kept.status}>
      <span title={`The files of this session (${formatBytes(kept.bytes)}) and the view are kept in this browser's storage for this page only, so a reload reopens them. Nothing is sent anywhere.`}>
        {kept.status === "saving" ? "Keeping for the next visit…" : `Kept in this browser (${formatBytes(kept.bytes)})`}
      </span>
      <button type="button" className="btn small" data-testid="forget-session" onClick={() => void forgetKeptSession()}>
        Forget this session
      </button>
    </span>
  );
}
