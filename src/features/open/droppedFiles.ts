// The files of a drop, folders included: a dropped folder (a Claude Code session folder with its
// `subagents/`, a day of Codex rollouts, a hermes-agent home with `state.db` and `sessions/`) is walked through the File System entries API
// (`webkitGetAsEntry`) and its session files are opened together, as they were when dropped. (A
// folder dropped with its handle opens through it instead, followed: src/features/open/openDroppedFolder.ts.) Without that API, or for plain
// files, the drop's own file list is used. Which files a folder contributes is the intake's rule
// (session files, compressed or not, and a database's own; never editor or OS leftovers).

import { isWalkedName } from "../../core/intake/folder";

/** Folder walks stop here: a drop is a session and its threads, not a whole disk. */
const MAX_FILES = 5000;
const MAX_DEPTH = 6;

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function walk(entry: FileSystemEntry, depth: number, out: File[]): Promise<void> {
  if (out.length >= MAX_FILES) return;
  if (entry.isFile) {
    if (depth === 0 || isWalkedName(entry.name)) out.push(await fileOf(entry as FileSystemFileEntry));
    return;
  }
  if (!entry.isDirectory || depth >= MAX_DEPTH) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries returns the listing in batches until an empty one.
  for (;;) {
    const batch = await readEntries(reader);
    if (batch.length === 0) break;
    batch.sort((a, b) => a.name.localeCompare(b.name));
    for (const child of batch) await walk(child, depth + 1, out);
  }
}

/**
 * Reads the drop's entries synchronously (the browser voids them after the event); `read` walks
 * folders when called (not at all when the drop opens through its handles) and resolves to the
 * files in drop order, a folder's files sorted by path. `folder`: the drop holds a folder.
 */
export function droppedFiles(transfer: DataTransfer | null): { folder: boolean; read: () => Promise<File[]> } {
  const plain = Array.from(transfer?.files ?? []);
  const items = Array.from(transfer?.items ?? []).filter((item) => item.kind === "file");
  const entries = items.map((item) => (typeof item.webkitGetAsEntry === "function" ? item.webkitGetAsEntry() : null));
  if (entries.length === 0 || entries.some((entry) => entry === null) || !entries.some((entry) => entry?.isDirectory)) {
    return { folder: false, read: () => Promise.resolve(plain) };
  }
  const read = async () => {
    const out: File[] = [];
    for (const entry of entries) if (entry) await walk(entry, 0, out);
    return out;
  };
  return { folder: true, read };
}
