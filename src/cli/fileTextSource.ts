// A session file readable again at any offset: the text source the CLI hands the readers, so a
// session's large texts stay in the file instead of being copied into memory (a gigabyte session
// then needs memory for its structure, not for its texts). Stages read a text back when they need
// its bytes (hashing, decoding for a view), mostly in file order: reads go through a window of a
// few megabytes, and each window is a new buffer, so a view handed out earlier stays valid.
import fs from "node:fs";
import type { TextSource } from "../core/text/storedText";

/** Bytes read at once: the next texts a stage asks for are usually in the same window. */
const WINDOW_BYTES = 1024 * 1024;
/** A text at least this long is read on its own (a window around it would mostly be read for nothing). */
const OWN_READ_BYTES = 256 * 1024;
const QUOTE = 0x22;

/**
 * The file as a text source, or null when it is not a regular file (a pipe cannot be read twice).
 * Each text's bytes are checked to still stand between the quotes of its string literal: a file
 * rewritten while it is in use fails loudly instead of showing other bytes.
 */
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
  let windowStart = 0;
  let window = new Uint8Array(0);
  let open = true;
  const changed = (offset: number) => new Error(`${file} changed while it was being read: the text at byte ${offset} is no longer there`);
  return {
    read(offset: number, length: number): Uint8Array {
      if (!open) throw new Error(`${file} is closed: its session was released`);
      // The window must hold the text and the quotes around it.
      const from = offset - 1;
      const to = offset + length + 1;
      if (from < windowStart || to > windowStart + window.length) {
        windowStart = Math.max(0, from);
        // Not zero-filled (every byte used is read), and not from Node's shared pool (a view kept
        // would keep a pool slab alive).
        window = Buffer.allocUnsafeSlow(length >= OWN_READ_BYTES ? to - windowStart : Math.max(WINDOW_BYTES, to - windowStart));
        let filled = 0;
        while (filled < window.length) {
          const read = fs.readSync(fd, window, filled, window.length - filled, windowStart + filled);
          if (read === 0) break;
          filled += read;
        }
        window = window.subarray(0, filled);
        if (to > windowStart + filled) throw changed(offset);
      }
      const at = offset - windowStart;
      if (window[at - 1] !== QUOTE || window[at + length] !== QUOTE) throw changed(offset);
      return window.subarray(at, at + length);
    },
    close(): void {
      if (!open) return;
      open = false;
      fs.closeSync(fd);
    },
  };
}
