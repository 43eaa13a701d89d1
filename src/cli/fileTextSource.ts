// A session file readable again at any offset: the text source the CLI hands the readers, so a
// session's large texts stay in the file instead of being copied into memory (a gigabyte session
// then needs memory for its structure, not for its texts). The window and the check that a text
// is still where it was are the core's (src/core/text/windowedSource.ts); this file reads bytes.
import fs from "node:fs";
import type { TextSource } from "../core/text/storedText";
import { windowedTextSource } from "../core/text/windowedSource";

/** The file as a text source, or null when it is not a regular file (a pipe cannot be read twice). */
export function fileTextSource(file: string): TextSource | null {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch {
    return null; // the chunk reader reports why the file cannot be read
  }
  if (!fs.fstatSync(fd).isFile()) {
    fs.closeSync(fd);
    return null;
  }
  return windowedTextSource({
    name: file,
    readRange(offset: number, length: number): Uint8Array {
      // Not zero-filled (every byte used is read), and not from Node's shared pool (a view kept
      // would keep a pool slab alive).
      const buffer = Buffer.allocUnsafeSlow(length);
      let filled = 0;
      while (filled < length) {
        const read = fs.readSync(fd, buffer, filled, length - filled, offset + filled);
        if (read === 0) break;
        filled += read;
      }
      return buffer.subarray(0, filled);
    },
    close: () => fs.closeSync(fd),
  });
}
