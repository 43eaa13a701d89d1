// What the main area shows with no session: how to get one in, and every agent and file kind the
// readers know. The formats page is a document of the repository (docs/formats.md), not a page of
// the app, which never loads anything but itself: it is named as a path, as text.
import { useAppStore } from "../../page/store";

export function EmptyState() {
  const status = useAppStore((state) => state.loadStatus);
  const analysisError = useAppStore((state) => state.analysisError);
  // Each agent's descriptor names its files; the worker, which holds the agents, lists them.
  const readableFiles = useAppStore((state) => state.readableFiles) ?? [];
  if (status === "loading") {
    return <div className="empty-state muted">Reading…</div>;
  }
  return (
    <div className="empty-state" data-testid="empty-state">
      <div className="empty-title">See exactly what the model received, turn by turn.</div>
      {analysisError && <div className="error-text">The session was read but could not be analysed: {analysisError}</div>}
      <div className="muted">
        Drop a session file (or several, or a folder) anywhere on the page, use <b>Open file</b>, paste it, or pick one of the
        samples. Everything stays in this tab: nothing is uploaded.
      </div>
      <table className="readable-files" data-testid="readable-files">
        <tbody>
          {readableFiles.map((row) => (
            <tr key={row.agent}>
              <td className="strong">{row.agent}</td>
              <td className="muted">{row.files}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="muted">
        What is read from each file, and what cannot be rebuilt: <code data-testid="formats-doc">docs/formats.md</code> in the
        Contextscope repository (one page per agent under docs/formats/).
      </div>
    </div>
  );
}
