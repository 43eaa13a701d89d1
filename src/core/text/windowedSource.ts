// A session's input as a text source read through a window: the CLI's regular file and the page's
// dropped File both hand their readers a source made here, each with its own way of reading a
// range of bytes. Stages read texts back mostly in file order, so a window of a megabyte serves
// the next texts too, and a few windows are kept, since two stages (or one reading a turn's old
// and new messages) read from different places in turn; each window is a new buffer, so a view
// handed out earlier stays valid. Each
// text's bytes are checked to still stand between the quotes of its string literal: an input
// rewritten while it is in use fails loudly instead of showing other bytes.
import type { TextSource } from "./storedText";

/** Bytes read at once: the next texts a stage asks for are usually in the same window. */
const WINDOW_BYTES = 1024 * 1024;
/**
 * Bytes read at once while reads are scattered (the last window served one text only): a stage
 * reading one short text here and there (a message per turn across the whole file) would
 * otherwise read a megabyte for each. A read in the browser costs milliseconds whatever its size.
 */
const SCATTERED_WINDOW_BYTES = 64 * 1024;
/** A text at least this long is read on its own (a window around it would mostly be read for nothing). */
const OWN_READ_BYTES = 256 * 1024;
const QUOTE = 0x22;

export interface WindowedInput {
  /** The input's name, for the errors. */
  readonly name: string;
  /** Up to `length` bytes at `offset` (fewer at the end of the input), in a buffer of their own. */
  readRange(offset: number, length: number): Uint8Array;
  /** Called when the store over the input is released. */
  close?(): void;
}

/** Windows kept at once: stages that read from two or three places of the file in turn each keep theirs. */
const WINDOWS = 4;

interface Window {
  start: number;
  bytes: Uint8Array;
  /** Texts read from it. */
  reads: number;
}

/**
 * `input` as a text source: windows of a megabyte (64 KB while reads are scattered; the last few
 * kept), a large text read on its own.
 */
export function windowedTextSource(input: WindowedInput): TextSource {
  // Most recently used first.
  const windows: Window[] = [];
  let open = true;
  const changed = (offset: number) => new Error(`${input.name} changed while it was being read: the text at byte ${offset} is no longer there`);
  /** A kept window holding `[from, to)`, moved to the front; else a new one read there. */
  const windowOver = (from: number, to: number, length: number): Window => {
    for (let i = 0; i < windows.length; i++) {
      const window = windows[i]!;
      if (from >= window.start && to <= window.start + window.bytes.length) {
        window.reads++;
        if (i > 0) {
          windows.splice(i, 1);
          windows.unshift(window);
        }
        return window;
      }
    }
    const start = Math.max(0, from);
    const scattered = windows.length > 0 && windows[0]!.reads <= 1;
    const size = length >= OWN_READ_BYTES ? to - start : Math.max(scattered ? SCATTERED_WINDOW_BYTES : WINDOW_BYTES, to - start);
    const window = { start, bytes: input.readRange(start, size), reads: 1 };
    windows.unshift(window);
    if (windows.length > WINDOWS) windows.pop();
    return window;
  };
  return {
    read(offset: number, length: number): Uint8Array {
      if (!open) throw new Error(`${input.name} is closed: its session was released`);
      // The window must hold the text and the quotes around it.
      const from = offset - 1;
      const to = offset + length + 1;
      const window = windowOver(from, to, length);
      if (to > window.start + window.bytes.length) throw changed(offset);
      const at = offset - window.start;
      if (window.bytes[at - 1] !== QUOTE || window.bytes[at + length] !== QUOTE) throw changed(offset);
      return window.bytes.subarray(at, at + length);
    },
    close(): void {
      if (!open) return;
      open = false;
      windows.length = 0;
      input.close?.();
    },
  };
}
