// What the open feature hands on to the features that follow files and list folders. The open
// feature reads drops and the session picker's choice; following a file as it grows (the live
// feature) and listing a folder of sessions (the library) are theirs, and the page's mount
// (src/page/App.tsx) gives their actions here. Until it does, drops open as snapshots and the
// session picker reads the database again.
import { openDatabaseSession } from "./openSession";

interface FollowedOpeners {
  /**
   * Files dropped with their handles: followed when they are a set the page follows (true), else
   * left to the drop's usual path (false). `folder`: they are a dropped folder's files.
   */
  followDropped(files: readonly File[], handles: readonly Promise<FileSystemHandle | null>[], folder: boolean): Promise<boolean>;
  /** A dropped folder that holds several sessions: listed as the sessions library. */
  listFolder: ((folder: FileSystemDirectoryHandle) => Promise<void>) | null;
  /** A dropped folder that holds one session: its files followed together, in the library's place. */
  followFolderSession: ((handles: FileSystemFileHandle[]) => Promise<void>) | null;
  /** The session picker's choice: another session of the open database (still followed when it is). */
  openDatabaseSession(sessionId: string): Promise<void>;
}

const openers: FollowedOpeners = {
  followDropped: () => Promise.resolve(false),
  listFolder: null,
  followFolderSession: null,
  openDatabaseSession,
};

/** Gives the actions of the features that follow files and list folders (the page's mount calls it once). */
export function provideFollowedOpeners(given: Partial<FollowedOpeners>): void {
  Object.assign(openers, given);
}

export function followedOpeners(): Readonly<FollowedOpeners> {
  return openers;
}
