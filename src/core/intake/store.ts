// An agent's store files on a disk the host can list (the CLI): which of a folder's files go with
// a database (the folder its agent keeps beside it: hermes-agent's `sessions/` beside `state.db`),
// which file a home folder is read through (its database), and what a store file given alone is
// read with (its session's request dumps in the same folder). The host lists folders and reads
// texts through `FolderAccess`; every choice is made here, from the agents' descriptors.
import type { Session } from "../model";
import type { TextFile } from "../session/index";
import { agentDatabaseFiles, DETECTION_LINE_COUNT, detectFormat, sideFileLayouts } from "../session/index";
import { utf8Decode } from "../util/utf8";

/** How the intake looks at a disk: "/"-free names inside a folder, the folder given as the host names it. */
export interface FolderAccess {
  /** The names of the files in `folder`, or null when it is no folder. */
  list(folder: string): readonly string[] | null;
  /** The text of `name` in `folder`. */
  read(folder: string, name: string): string;
  /** `folder`'s sub-folder `name`, as the host names it. */
  join(folder: string, name: string): string;
}

type Layout = ReturnType<typeof sideFileLayouts>[number];

/** The store files of `layout`'s agent in a folder (or only those named in `only`), as text, in name order. */
function storeFilesIn(access: FolderAccess, folder: string, layout: Layout, only?: ReadonlySet<string>): TextFile[] {
  return [...(access.list(folder) ?? [])]
    .filter((name) => layout.namePattern.test(name) && (only === undefined || only.has(name)))
    .sort()
    .map((name) => ({ name, text: access.read(folder, name) }))
    .filter((file) => layout.accepts(file.name, file.text));
}

/** The store files that go with a database in `databaseFolder`: each agent's folder beside its database. */
export function storeFilesBesideDatabase(access: FolderAccess, databaseFolder: string): TextFile[] {
  return sideFileLayouts().flatMap((layout) => storeFilesIn(access, access.join(databaseFolder, layout.folderBesideDatabase), layout));
}

/**
 * The database a folder holding `fileNames` is read through, or null: an agent's home folder
 * (hermes-agent's state.db, read with its side files), else the database an agent keeps in its
 * data folder (opencode.db, kilo.db, crush.db).
 */
export function homeDatabaseName(fileNames: readonly string[]): string | null {
  const home = sideFileLayouts().find((layout) => fileNames.includes(layout.homeDatabaseName))?.homeDatabaseName;
  return home ?? agentDatabaseFiles().find((database) => fileNames.includes(database.fileName))?.fileName ?? null;
}

/** What a folder we read is expected to hold, for the message when it holds nothing we read. */
export function homeFolderHint(): string {
  const names = agentDatabaseFiles().map((database) => `${database.fileName} (${database.agentLabel})`);
  return `a folder is read through the database it holds: ${names.join(", ")}`;
}

/**
 * A file given alone (`name` in `folder`, `head` its first bytes), when it is an agent's store
 * file: itself and its companions in the same folder, and how they are read. A file whose first
 * lines another agent's reader recognises is that agent's (store readers come last in detection
 * order): it is not read whole here, which a file over 512 MiB could not be.
 */
export function storeFileGivenAlone(access: FolderAccess, folder: string, name: string, head: Uint8Array, size: number): { files: TextFile[]; read(sessionId: string | null): Session } | null {
  const layouts = sideFileLayouts().filter((layout) => layout.namePattern.test(name));
  if (layouts.length === 0) return null;
  const lines = utf8Decode(head).split("\n").slice(0, DETECTION_LINE_COUNT + 1);
  // A line cut by the end of the head is left out.
  if (head.byteLength < size && lines.length > 1) lines.pop();
  const reader = detectFormat(lines.slice(0, DETECTION_LINE_COUNT).filter((line) => line.trim() !== ""), name);
  const own = layouts.find((candidate) => reader === null || candidate.agent.readers.includes(reader));
  if (!own) return null;
  const text = access.read(folder, name);
  if (!own.accepts(name, text)) return null;
  const companions = new Set(own.companions(name, access.list(folder) ?? []));
  // Only the companions are read, not every store file of the folder.
  const files = [{ name, text }, ...storeFilesIn(access, folder, own, companions)];
  return { files, read: (sessionId) => own.read(files, sessionId) };
}
