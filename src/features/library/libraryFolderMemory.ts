// The sessions library's folder, remembered across visits: its handle is kept in the page's own
// IndexedDB (handles are structured-cloneable; nothing leaves the browser). On a later visit the
// browser asks the user again before the folder can be read (src/features/live/fileSystemAccess.ts).
const DATABASE = "contextscope-library";
const STORE = "folders";
const KEY = "last";

function openDatabase(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB could not be opened"));
  });
}

async function withStore<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const database = await openDatabase();
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = run(database.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error("IndexedDB request failed"));
    });
  } finally {
    database.close();
  }
}

export async function rememberFolder(handle: FileSystemDirectoryHandle): Promise<void> {
  if (typeof indexedDB === "undefined") return;
  await withStore("readwrite", (store) => store.put(handle, KEY));
}

/** The folder opened on an earlier visit, or null. */
export async function rememberedFolder(): Promise<FileSystemDirectoryHandle | null> {
  if (typeof indexedDB === "undefined") return null;
  try {
    const value = await withStore<unknown>("readonly", (store) => store.get(KEY));
    return value instanceof FileSystemDirectoryHandle ? value : null;
  } catch {
    return null;
  }
}

export async function forgetFolder(): Promise<void> {
  if (typeof indexedDB === "undefined") return;
  await withStore("readwrite", (store) => store.delete(KEY));
}
