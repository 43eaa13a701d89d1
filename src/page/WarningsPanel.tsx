// Every reader and pipeline warning, with its 1-based line number (0: the file as a whole); above
// them, what files read with the session that are not sessions said (never warnings).
import type { CompanionNote } from "../core/model";
import { allWarnings } from "./selectors";
import { setAppState, useAppStore } from "./store";

const NO_NOTES: readonly CompanionNote[] = [];

export function WarningsPanel() {
  const open = useAppStore((state) => state.warningsOpen);
  const warnings = useAppStore(allWarnings);
  const notes = useAppStore((state) => state.session?.companionNotes ?? NO_NOTES);
  if (!open) return null;
  return (
    <div className="warnings-panel" data-testid="warnings-panel" role="region" aria-label="Warnings">
      <div className="panel-title">
        <span>Warnings ({warnings.length})</span>
        <button type="button" className="btn small" aria-label="Close warnings" onClick={() => setAppState({ warningsOpen: false })}>
          ✕
        </button>
      </div>
      {notes.length > 0 && (
        <>
          <div className="companion-notes-title">Read with the session (not sessions themselves)</div>
          <ul className="companion-notes" data-testid="companion-notes">
            {notes.map((note) => (
              <li key={note.fileName} className="warning-item companion-note">
                <span className="warning-line">{note.fileName}</span>
                <span className="warning-reason">{note.note}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {warnings.length === 0 ? (
        <div className="muted pad">No warnings: every line was read.</div>
      ) : (
        <ol className="warnings-list">
          {warnings.map((warning, index) => (
            <li key={index} className="warning-item">
              <span className="warning-line">{warning.line > 0 ? `line ${warning.line}` : "file"}</span>
              <span className={`warning-source ${warning.source}`}>{warning.source}</span>
              <span className="warning-reason">{warning.reason}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
