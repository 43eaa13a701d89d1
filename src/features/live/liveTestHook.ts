// Lets end-to-end tests drive what only a user's picker could otherwise give: a file or folder
// handle (the tests make them in the origin private file system, which gives the same handle
// interface) is opened as a followed file, as the sessions library, or as a folder dropped with its
// handle would be; the live and library state
// is read back on `window.__contextscopeLive`.
import { openLibraryFolder, useLibraryStore } from "../library/libraryState";
import { liveGrowthCounts, openLiveHandle, openLiveHandles, useLiveStore } from "./liveState";
import { openDroppedFolder } from "../open/openDroppedFolder";

interface LiveTestHook {
  openLiveHandle(handle: FileSystemFileHandle): Promise<void>;
  /** Files followed together: a database with its -wal, a session with its sub-agent files. */
  openLiveHandles(handles: FileSystemFileHandle[]): Promise<void>;
  openLibraryFolder(handle: FileSystemDirectoryHandle): Promise<void>;
  /** What a folder dropped with its handle does (the library, or its one session followed); false when it is left to the snapshot. */
  openDroppedFolder(handle: FileSystemDirectoryHandle): Promise<boolean>;
  live(): { fileName: string | null; follow: boolean; notices: { turn: number; kind: string; cause: string | null }[]; growths: { appended: number; whole: number } };
  library(): { rows: number; read: number; toRead: number; firstRowsMs: number | null; allRowsMs: number | null };
}

declare global {
  interface Window {
    __contextscopeLive?: LiveTestHook;
  }
}

export function installLiveTestHook(): void {
  window.__contextscopeLive = {
    openLiveHandle,
    openLiveHandles: (handles) => openLiveHandles(handles),
    openLibraryFolder,
    openDroppedFolder,
    live: () => {
      const state = useLiveStore.getState();
      return { fileName: state.fileName, follow: state.follow, notices: state.notices.map(({ turn, kind, cause }) => ({ turn, kind, cause })), growths: liveGrowthCounts() };
    },
    library: () => {
      const state = useLibraryStore.getState();
      return { rows: state.rows.length, read: state.read, toRead: state.toRead, firstRowsMs: state.firstRowsMs, allRowsMs: state.allRowsMs };
    },
  };
}
