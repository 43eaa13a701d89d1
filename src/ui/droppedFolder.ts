// Files of dropped folders (a hermes-agent home `~/.hermes`, HS-1 … HS-3): the drop's entries are
// walked two levels deep (the folder's own files and those of its sub-folders, e.g. `sessions/`),
// so dropping the folder is like dropping its files. The entries must be taken during the drop
// event; reading them is asynchronous. Capped, so a huge folder cannot stall the page.
const MAX_FILES = 5000;
const MAX_DEPTH = 2;

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

function children(entry: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = entry.createReader();
  const all: FileSystemEntry[] = [];
  return new Promise((resolve, reject) => {
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(all);
        else {
          all.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

async function walk(entry: FileSystemEntry, depth: number, out: File[]): Promise<void> {
  if (out.length >= MAX_FILES) return;
  if (entry.isFile) {
    out.push(await fileOf(entry as FileSystemFileEntry));
    return;
  }
  if (!entry.isDirectory || depth > MAX_DEPTH) return;
  for (const child of await children(entry as FileSystemDirectoryEntry)) await walk(child, depth + 1, out);
}

/** The entries of a drop when at least one is a folder (call during the drop event), else null. */
export function droppedEntries(transfer: DataTransfer | null): FileSystemEntry[] | null {
  if (!transfer) return null;
  const entries = Array.from(transfer.items)
    .map((item) => (item.kind === "file" && typeof item.webkitGetAsEntry === "function" ? item.webkitGetAsEntry() : null))
    .filter((entry): entry is FileSystemEntry => entry !== null);
  return entries.some((entry) => entry.isDirectory) ? entries : null;
}

/** Every file of the entries, folders walked. */
export async function filesOfEntries(entries: readonly FileSystemEntry[]): Promise<File[]> {
  const out: File[] = [];
  for (const entry of entries) await walk(entry, 1, out);
  return out;
}
