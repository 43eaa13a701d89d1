// Warning banner for an opencode database opened without its `-wal` file (FM-OC-1): opencode keeps
// its database in WAL mode, so the newest rows may exist only in `opencode.db-wal`.
import { useAppStore } from "../state/store";

export function WalBanner() {
  const database = useAppStore((state) => state.session?.database);
  if (!database || database.walApplied) return null;
  return (
    <div className="wal-banner" role="status" data-testid="wal-warning">
      <span className="error-icon">⚠</span>
      <span className="wal-text">
        {`${database.fileNames.join(", ")} was opened without its -wal file: opencode keeps the database in WAL mode, so recent rows (messages, whole sessions) may be missing. Drop opencode.db together with opencode.db-wal to read everything.`}
      </span>
    </div>
  );
}
