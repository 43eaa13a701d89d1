// A dropped session file readable again at any offset, inside the worker: its large texts stay in
// the file instead of being copied into the worker's memory, and are read back (synchronous reads
// of slices of the File, which only a worker can do) when a stage needs their bytes. A session of
// gigabytes then costs the worker its structure, not its texts. The browser refuses to read a
// File whose file changed on disk after it was picked; that is said in words, with what to do.
import type { TextSource } from "../../core/text/storedText";
import { windowedTextSource } from "../../core/text/windowedSource";

/** From this size on a dropped file's texts are left in it; a smaller file is copied, as before. */
export const TEXTS_IN_FILE_FROM_BYTES = 64 * 1024 * 1024;

interface SyncReader {
  readAsArrayBuffer(blob: Blob): ArrayBuffer;
}

/** The worker's synchronous File reader, or null where there is none (the page's main thread). */
function syncReader(): SyncReader | null {
  const ReaderClass = (globalThis as { FileReaderSync?: new () => SyncReader }).FileReaderSync;
  return ReaderClass ? new ReaderClass() : null;
}

/** `file` as a text source when it is large enough to be worth it and this realm can read it synchronously. */
export function droppedFileTextSource(file: Blob & { readonly name: string }, fromBytes: number): TextSource | null {
  if (file.size < fromBytes) return null;
  const reader = syncReader();
  if (!reader) return null;
  return windowedTextSource({
    name: file.name,
    readRange(offset: number, length: number): Uint8Array {
      try {
        return new Uint8Array(reader.readAsArrayBuffer(file.slice(offset, offset + length)));
      } catch {
        throw new Error(`${file.name} can no longer be read: it changed on disk after it was opened, and this session reads its long texts from it. Open the file again to see it as it is now.`);
      }
    },
  });
}
