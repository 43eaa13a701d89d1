// A folder dropped in a browser that gives the drop's handles (Chromium's File System Access
// API): its files are listed through the folder's handle and it opens as "Sessions folder…" or a
// library row would (the intake's folder plan decides which, src/core/intake/folder.ts): the
// sessions library on that folder, remembered for the next visit, or its one session followed
// with its own files (the library's and the live feature's actions, given through
// ./followedOpeners.ts). A folder only a snapshot can read is left to the drop's usual path.
import { isStale } from "../../worker/client";
import { planFolder, type JsonRole } from "../../core/intake/folder";
import { folderEntries } from "../../page/fileSystemAccess";
import { followedOpeners } from "./followedOpeners";
import { setAppState } from "../../page/store";
import { errorMessage, pipeline } from "../../page/workerBridge";

/** The walk stops here, as the drop's own folder walk does: past it, the folder holds many sessions. */
const MAX_FILES = 5000;
const MAX_DEPTH = 6;

/** Every file of `dir` (hidden folders left out, as the library does), by its path inside it. */
async function listFiles(dir: FileSystemDirectoryHandle, prefix: string, depth: number, out: Map<string, FileSystemFileHandle>): Promise<void> {
  const folders: FileSystemDirectoryHandle[] = [];
  for await (const entry of folderEntries(dir)) {
    if (out.size >= MAX_FILES) return;
    if (entry.kind === "file") out.set(`${prefix}${entry.name}`, entry as FileSystemFileHandle);
    else if (!entry.name.startsWith(".")) folders.push(entry as FileSystemDirectoryHandle);
  }
  if (depth >= MAX_DEPTH) return;
  for (const child of folders.sort((a, b) => a.name.localeCompare(b.name))) await listFiles(child, `${prefix}${child.name}/`, depth + 1, out);
}

/** What each `.json` file is (a session, an agent's side file, or neither), asked of the worker (the page holds no agent's code). */
async function jsonRoles(files: ReadonlyMap<string, FileSystemFileHandle>): Promise<Map<string, JsonRole>> {
  const jsonPaths = [...files.keys()].filter((path) => path.toLowerCase().endsWith(".json"));
  if (jsonPaths.length === 0) return new Map();
  const read = await Promise.all(jsonPaths.map((path) => files.get(path)!.getFile()));
  const kinds = await pipeline().call("sniffSessions", { files: read });
  return new Map(jsonPaths.map((path, index) => [path, kinds[index] ?? null]));
}

/**
 * The dropped folder's handle, when the drop is one folder and the browser gave its handle
 * (`handlePromises` asked for during the drop event); null otherwise.
 */
export async function droppedFolderHandle(handlePromises: readonly Promise<FileSystemHandle | null>[]): Promise<FileSystemDirectoryHandle | null> {
  if (handlePromises.length !== 1) return null;
  const handle = await handlePromises[0]!;
  return handle?.kind === "directory" ? (handle as FileSystemDirectoryHandle) : null;
}

/**
 * Opens a dropped folder through its handle: the library when it holds several sessions, its one
 * session followed with its files. False when the folder is for the snapshot path (compressed
 * sessions, captured requests, no session), which the caller then takes.
 */
export async function openDroppedFolder(folder: FileSystemDirectoryHandle): Promise<boolean> {
  const { listFolder, followFolderSession } = followedOpeners();
  // Without the library and the live file, only the snapshot path can open a folder.
  if (!listFolder || !followFolderSession) return false;
  const files = new Map<string, FileSystemFileHandle>();
  let plan;
  try {
    await listFiles(folder, "", 0, files);
    plan = planFolder([...files.keys()], await jsonRoles(files));
  } catch (error) {
    if (isStale(error)) return true;
    setAppState({ error: `The folder "${folder.name}" could not be read: ${errorMessage(error)}` });
    return true;
  }
  if (plan.kind === "library") {
    await listFolder(folder);
    return true;
  }
  if (plan.kind === "session") {
    // The session takes the library's place on screen, as a row's click does; the table stays a click away.
    await followFolderSession(plan.paths.map((path) => files.get(path)!));
    return true;
  }
  return false;
}
