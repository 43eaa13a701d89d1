// What the main area shows with no session: how to get one in.
import { useAppStore } from "../state/store";

export function EmptyState() {
  const status = useAppStore((state) => state.loadStatus);
  const analysisError = useAppStore((state) => state.analysisError);
  if (status === "loading") {
    return <div className="empty-state muted">Reading…</div>;
  }
  return (
    <div className="empty-state">
      <div className="empty-title">See exactly what the model received, turn by turn.</div>
      {analysisError && <div className="error-text">The session was read but could not be analysed: {analysisError}</div>}
      <div className="muted">
        Drop a pi or senpi session file (.jsonl) anywhere on the page, use <b>Open file</b>, paste it, or pick one of the
        samples. Everything stays in this tab: nothing is uploaded.
      </div>
    </div>
  );
}
