// The parts of the File System Access API the live file and the sessions library use that
// TypeScript's DOM library does not declare yet (Chromium-family browsers have them): the file
// and folder pickers, a dropped item's handle, and asking for permission again on a later visit.
// Each is looked up at the call, so browsers without them get a clear "not available" instead.

interface PickerWindow {
  showOpenFilePicker?: (options?: { multiple?: boolean; id?: string }) => Promise<FileSystemFileHandle[]>;
  showDirectoryPicker?: (options?: { id?: string; mode?: "read" | "readwrite" }) => Promise<FileSystemDirectoryHandle>;
}

interface PermissionHandle {
  queryPermission?: (options: { mode: "read" }) => Promise<PermissionState>;
  requestPermission?: (options: { mode: "read" }) => Promise<PermissionState>;
}

interface HandleItem {
  getAsFileSystemHandle?: () => Promise<FileSystemHandle | null>;
}

/** True where a picked or dropped file can be read again as it grows. */
export function canFollowFiles(): boolean {
  return typeof window !== "undefined" && typeof (window as PickerWindow).showOpenFilePicker === "function";
}

/** True where a folder can be opened with the directory picker. */
export function canOpenFolders(): boolean {
  return typeof window !== "undefined" && typeof (window as PickerWindow).showDirectoryPicker === "function";
}

/** The file picker: one session file's handle, or null when the user cancels. */
export async function pickFileHandle(): Promise<FileSystemFileHandle | null> {
  const picker = (window as PickerWindow).showOpenFilePicker;
  if (!picker) return null;
  try {
    return (await picker({ multiple: false, id: "contextscope-session" }))[0] ?? null;
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") return null;
    throw error;
  }
}

/** The folder picker: a folder's handle, or null when the user cancels. */
export async function pickFolderHandle(): Promise<FileSystemDirectoryHandle | null> {
  const picker = (window as PickerWindow).showDirectoryPicker;
  if (!picker) return null;
  try {
    return await picker({ id: "contextscope-library", mode: "read" });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") return null;
    throw error;
  }
}

/**
 * The handles of a drop's items, asked for during the drop event (the browser voids the items
 * once the event is over); null per item where the browser cannot give one.
 */
export function droppedHandles(transfer: DataTransfer | null): Promise<FileSystemHandle | null>[] {
  return Array.from(transfer?.items ?? [])
    .filter((item) => item.kind === "file")
    .map((item) => {
      const get = (item as DataTransferItem & HandleItem).getAsFileSystemHandle;
      return typeof get === "function" ? get.call(item).catch(() => null) : Promise.resolve(null);
    });
}

/**
 * Read permission on a handle kept from an earlier visit: granted at once when the browser still
 * grants it, else asked (the browser's prompt needs a click, so call this from one).
 */
export async function ensureReadPermission(handle: FileSystemHandle, ask: boolean): Promise<boolean> {
  const withPermission = handle as FileSystemHandle & PermissionHandle;
  if (!withPermission.queryPermission) return true;
  if ((await withPermission.queryPermission({ mode: "read" })) === "granted") return true;
  if (!ask || !withPermission.requestPermission) return false;
  return (await withPermission.requestPermission({ mode: "read" })) === "granted";
}

interface IterableDirectory {
  values(): AsyncIterable<FileSystemHandle>;
}

/** The entries of a folder (the async iteration TypeScript's DOM library leaves out). */
export function folderEntries(dir: FileSystemDirectoryHandle): AsyncIterable<FileSystemHandle> {
  return (dir as unknown as IterableDirectory).values();
}
