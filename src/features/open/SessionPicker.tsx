// Session picker of a database (opencode's opencode.db, FM-OC-1; hermes-agent's state.db or
// several of its session files, HS-2 … HS-4): a database usually holds every session of the
// user; choosing one re-reads the same dropped files for that session. Shown only when the
// storage holds more than one session. hermes sessions show their platform source, model, start
// time and how they are linked (a compressed parent and its continuation open as one timeline).
import { plural } from "../../ui/words";
import type { DatabaseSessionListing } from "./protocol";
import { followedOpeners } from "./followedOpeners";
import { useAppStore } from "../../page/store";
import { formatDateTime } from "../../ui/format";

function optionText(listing: DatabaseSessionListing): string {
  const title = listing.title.trim() || listing.id;
  if (listing.source !== undefined) {
    const started = listing.timeCreated === null ? "—" : formatDateTime(new Date(listing.timeCreated).toISOString());
    const facts = [listing.source, listing.model, `started ${started}`, plural(listing.messageCount, "message")].filter((f): f is string => typeof f === "string" && f !== "");
    const lineage = listing.lineage ? ` · ${listing.lineage}` : "";
    return `${title} · ${facts.join(" · ")}${lineage}`;
  }
  const when = listing.timeUpdated === null ? "—" : formatDateTime(new Date(listing.timeUpdated).toISOString());
  const sub = listing.parentId ? "sub-agent · " : "";
  return `${sub}${title} · ${plural(listing.messageCount, "message")} · ${when}`;
}

export function SessionPicker() {
  const database = useAppStore((state) => state.session?.database);
  if (!database || database.sessions.length <= 1) return null;
  return (
    <label className="field" title={`Sessions stored in this ${database.agentLabel} storage (${database.storage})`}>
      <span className="field-label">Session</span>
      <select
        className="session-select"
        data-testid="session-select"
        value={database.sessionId}
        onChange={(event) => void followedOpeners().openDatabaseSession(event.target.value)}
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
