// The bar under the top bar while the open session's file is followed as it grows: which file,
// the "Follow newest turn" switch, when it last grew, and a notice per new cache break or
// compaction (its cause and what it re-bills; a click shows the turn). In a browser that cannot
// follow a file it says so once, with a button to open the file again (a dropped folder: drop it again).
import { useEffect, useRef, useState } from "react";
import { formatDollars } from "../../core/pricing/index";
import { dismissNotice, setFollow, useLiveStore, type LiveNoticeShown } from "./liveState";
import { openFiles } from "../open/openSession";
import { selectTurnNumber } from "../../page/selection";
import { useAppStore } from "../../page/store";
import { formatInt } from "../../ui/format";
import "./live.css";

function secondsAgo(at: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  return seconds < 60 ? `${seconds} s ago` : `${Math.round(seconds / 60)} min ago`;
}

function noticeText(notice: LiveNoticeShown): string {
  const lead = notice.kind === "compaction" ? `Turn ${notice.turn} follows a compaction` : `Turn ${notice.turn} broke the prompt cache`;
  const cause = notice.cause ? ` — ${notice.cause}` : "";
  const cost =
    notice.rebilledTokens > 0
      ? `: ${formatInt(notice.rebilledTokens)} tokens cached before are sent again${notice.rebilledDollars !== null ? `, ${formatDollars(notice.rebilledDollars)}` : " (not priced)"}`
      : "";
  return `${lead}${cause}${cost}`;
}

/** A clock that ticks every second while something on screen says "… s ago". */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

export function FollowControl() {
  const { fileName, follow, notices, lastGrowth, error, cannotFollow } = useLiveStore();
  const shownFile = useAppStore((state) => state.session?.fileName ?? null);
  const database = useAppStore((state) => state.session?.database);
  const subAgentFiles = useAppStore((state) => state.session?.threads?.filter((thread) => thread.origin === "file").length ?? 0);
  const now = useNow(fileName !== null);
  const inputRef = useRef<HTMLInputElement | null>(null);
  if (fileName === null && cannotFollow !== null && shownFile !== null && cannotFollow.names.includes(shownFile)) {
    return (
      <div className="live-bar live-unsupported" role="status" data-testid="live-unsupported">
        {cannotFollow.folder ? (
          <span className="live-text">
            This browser cannot follow files as they grow (it has no File System Access API; Chrome and Edge have it). The session shows the folder&apos;s files as
            they were when dropped: drop the folder again to see new turns. In Chrome or Edge, a dropped folder opens as a list of its sessions, followed as
            they grow.
          </span>
        ) : (
          <span className="live-text">
            This browser cannot follow a file as it grows (it has no File System Access API; Chrome and Edge have it). The session shows the file as it was when
            dropped: drop it again, or open it again, to see its new turns.
          </span>
        )}
        <button type="button" className="btn small" hidden={cannotFollow.folder} onClick={() => inputRef.current?.click()}>
          Open again…
        </button>
        <input
          ref={inputRef}
          type="file"
          hidden
          onChange={(event) => {
            const files = Array.from(event.target.files ?? []);
            event.target.value = "";
            if (files.length > 0) void openFiles(files);
          }}
        />
      </div>
    );
  }
  if (fileName === null) return null;
  return (
    <div className="live-bar" data-testid="live-bar">
      <span className="live-dot" aria-hidden="true" />
      <span
        className="live-text"
        title={database ? "Checked every half second; a database is read again whole when it or its -wal file changes." : "Only the bytes written since the last check are read (every half second)."}
      >
        Following <strong>{fileName}</strong>
        {database ? (database.walApplied ? " with its -wal file" : "") : subAgentFiles > 0 ? ` with its ${subAgentFiles} sub-agent file${subAgentFiles === 1 ? "" : "s"} as they grow` : " as it grows"}
        {lastGrowth
          ? ` · ${lastGrowth.kind === "rewritten" ? (database ? "read again" : "read again whole (the file was rewritten)") : `+${lastGrowth.turns} turn${lastGrowth.turns === 1 ? "" : "s"}`} ${secondsAgo(lastGrowth.at, now)}`
          : database
            ? " · no change yet"
            : " · no new lines yet"}
      </span>
      {error && <span className="live-error">{`Could not read it again: ${error}`}</span>}
      <label className="live-follow" title="Keep the newest turn selected as turns arrive (stops while you look at another turn, resumes when you come back to the newest)">
        <input type="checkbox" checked={follow} onChange={(event) => setFollow(event.target.checked)} data-testid="live-follow" />
        Follow newest turn
      </label>
      {database && !database.walApplied && (
        <span className="live-late" data-testid="live-wal-late">
          {`New messages may appear late, and recent ones may be missing: ${database.agentLabel} writes them to ${database.storage}-wal first, and only ${database.storage} was opened. Open the folder that holds ${database.storage} and its -wal file (Sessions folder…), or drop both together, to see them as they are written.`}
        </span>
      )}
      {notices.length > 0 && (
        <ul className="live-notices" aria-label="New cache breaks and compactions">
          {notices.map((notice) => (
            <li key={notice.id} className={`live-notice ${notice.kind}`} data-testid="live-notice">
              <button type="button" className="live-notice-text" onClick={() => selectTurnNumber(notice.turn)} title="Show this turn">
                {noticeText(notice)}
              </button>
              <button type="button" className="btn small" aria-label="Dismiss" onClick={() => dismissNotice(notice.id)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
