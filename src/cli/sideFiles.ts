// An agent's store files for the CLI (hermes-agent's session_<id>.json snapshots, <id>.jsonl
// transcripts and request dumps under `<home>/sessions/`): the disk as the intake sees it
// (src/core/intake/store.ts decides): a database is read with the store files of the folder beside
// it, a home folder given itself is read through its database, and a store file given alone is
// read with its companions in the same folder (its session's request dumps).
import fs from "node:fs";
import path from "node:path";
import type { Session } from "../core/model";
import type { TextFile } from "../core/session/index";
import { homeDatabaseName, storeFileGivenAlone, storeFilesBesideDatabase, type FolderAccess } from "../core/intake/index";
import { headBytes } from "./headLines";

const disk: FolderAccess = {
  list: (folder) => (fs.existsSync(folder) && fs.statSync(folder).isDirectory() ? fs.readdirSync(folder) : null),
  read: (folder, name) => new TextDecoder("utf-8").decode(fs.readFileSync(path.join(folder, name))),
  join: (folder, name) => path.join(folder, name),
};

/** Store files that belong with the database at `databasePath`: the agents' folders beside it (`<dir>/sessions/*`). */
export function sideFilesFor(databasePath: string): TextFile[] {
  return storeFilesBesideDatabase(disk, path.dirname(databasePath));
}

/** A file given alone, when it is an agent's store file: itself and its companions in the same folder, and how they are read. */
export function sideFileWithCompanions(file: string): { files: TextFile[]; read(sessionId: string | null): Session } | null {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) return null;
  return storeFileGivenAlone(disk, path.dirname(file), path.basename(file), headBytes(file), fs.statSync(file).size);
}

/** The database a home folder holds (hermes-agent's state.db), or null. */
export function homeDatabase(folder: string): string | null {
  const name = homeDatabaseName(disk.list(folder) ?? []);
  return name === null ? null : path.join(folder, name);
}
