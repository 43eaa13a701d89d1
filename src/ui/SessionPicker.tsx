// Session picker of an opencode database (FM-OC-1): a database usually holds every session of the
// user; choosing one re-reads the same dropped files for that session. Shown only when the
// database holds more than one session.
import type { OpencodeSessionListing } from "../core/agents/opencode/records";
import { openDatabaseSession } from "../state/actions";
import { useAppStore } from "../state/store";
import { formatDateTime } from "./format";

function optionText(listing: OpencodeSessionListing): string {
  const title = listing.title.trim() || listing.id;
  const when = listing.timeUpdated === null ? "—" : formatDateTime(new Date(listing.timeUpdated).toISOString());
  const sub = listing.parentId ? "sub-agent · " : "";
  return `${sub}${title} · ${listing.messageCount} messages · ${when}`;
}

export function SessionPicker() {
  const database = useAppStore((state) => state.session?.database);
  if (!database || database.sessions.length <= 1) return null;
  return (
    <label className="field" title="Sessions stored in this opencode database (newest first)">
      <span className="field-label">Session</span>
      <select
        className="session-select"
        data-testid="session-select"
        value={database.sessionId}
        onChange={(event) => void openDatabaseSession(event.target.value)}
      >
        {database.sessions.map((listing) => (
          <option key={listing.id} value={listing.id}>
            {optionText(listing)}
          </option>
        ))}
      </select>
    </label>
  );
}
