// File name, detected format, entry count and the warnings counter of the open session, and the
// files read with it that are not sessions (Gemini CLI's projects.json: what they said is in the
// warnings panel, under its own heading, never as a warning).
import { allWarnings } from "../../page/selectors";
import { setAppState, useAppStore } from "../../page/store";
import { formatBytes, formatInt } from "../../ui/format";
import type { SessionSummary } from "../open/protocol";

/** The format label's whole text, the agent version the file names and its format version, when it has one. */
function formatTitle(session: SessionSummary): string {
  const parts = [session.formatLabel];
  parts.push(session.records?.versions ?? "the file names no agent version");
  if (session.formatVersion !== null) parts.push(`format version ${session.formatVersion}`);
  return parts.join(" · ");
}

export function SessionInfo() {
  const session = useAppStore((state) => state.session);
  const warnings = useAppStore(allWarnings);
  const warningsOpen = useAppStore((state) => state.warningsOpen);
  if (!session) return <div className="session-info muted">No session open</div>;
  const notes = session.companionNotes ?? [];
  return (
    <div className="session-info">
      <span className="file-name" data-testid="file-name" title={session.fileName}>
        {session.fileName}
      </span>
      <span className="chip" data-testid="format-label" title={formatTitle(session)}>
        {session.formatLabel}
      </span>
      <span className="muted entries" title={`${formatInt(session.lineCount)} lines · ${formatBytes(session.byteLength)}`}>
        <span data-testid="entry-count">{formatInt(session.entryCount)}</span> entries
      </span>
      {notes.length > 0 && (
        <button
          type="button"
          className="btn small companion-files"
          data-testid="companion-files"
          aria-expanded={warningsOpen}
          onClick={() => setAppState({ warningsOpen: !warningsOpen })}
          aria-label={`Read with the session: ${notes.map((note) => note.fileName).join(", ")}`}
          title={notes.map((note) => note.note).join("\n")}
        >
          {`+ ${notes.length === 1 ? notes[0]!.fileName : `${notes.length} files`}`}
        </button>
      )}
      <button
        type="button"
        className={`btn small warnings-button${warnings.length > 0 ? " has-warnings" : ""}`}
        data-testid="warnings-button"
        aria-expanded={warningsOpen}
        onClick={() => setAppState({ warningsOpen: !warningsOpen })}
        title={`${warnings.length} ${warnings.length === 1 ? "warning" : "warnings"} while reading this session`}
      >
        ⚠ {warnings.length} {warnings.length === 1 ? "warning" : "warnings"}
      </button>
    </div>
  );
}
