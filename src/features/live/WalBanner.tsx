// Warning banner for a database opened without its `-wal` file (opencode FM-OC-1, hermes-agent
// HS-5): both keep their database in WAL mode, so the newest rows may exist only in the `-wal`.
// A followed database says the same in the live bar (src/features/live/FollowControl.tsx) instead.
import { useLiveStore } from "./liveState";
import { useAppStore } from "../../page/store";

export function WalBanner() {
  const database = useAppStore((state) => state.session?.database);
  // A followed database says it in the live bar, with what following it alone means.
  const followed = useLiveStore((state) => state.fileName !== null);
  if (!database || database.walApplied || followed) return null;
  const db = database.storage;
  return (
    <div className="wal-banner" role="status" data-testid="wal-warning">
      <span className="error-icon">⚠</span>
      <span className="wal-text">
        {`${database.fileNames.join(", ")} was opened without its -wal file: ${database.agentLabel} keeps the database in WAL mode, so recent rows (messages, whole sessions) may be missing. Drop ${db} together with ${db}-wal to read everything.`}
      </span>
    </div>
  );
}
