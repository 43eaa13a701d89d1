// The interface every session-format reader implements (design.md §2 "stage contract"): detect
// a format from its first lines, then read the file line by line into a Session (each line as a
// string, or as UTF-8 bytes for a reader that keeps large texts as bytes).
import type { Session } from "../model";
import type { TextSource } from "../text/storedText";

/** What a reader may be given beside the file's name. */
export interface LineReaderOptions {
  /**
   * The input itself, readable again: a reader that keeps large texts as bytes may leave them
   * there (a line handed with its offset) instead of copying them into its store.
   */
  textSource?: TextSource;
}

/** Consumes the lines of one file, in order, and produces the Session at the end. */
export interface LineReader {
  /** `lineNumber` is 1-based. Never throws on bad content: problems become warnings. */
  pushLine(text: string, lineNumber: number): void;
  /**
   * Optional: the same line as its UTF-8 bytes `bytes[start, end)` (no line terminator, no BOM
   * at the file's start), for a reader that keeps large texts as bytes (src/core/text/). The
   * bytes are valid only during the call (the buffer is reused for the next chunk). A reader that
   * has it is handed every line this way once its format is known. `offset`, when known, is where
   * `bytes[start]` is in the input (see `LineReaderOptions.textSource`).
   */
  pushLineBytes?(bytes: Uint8Array, start: number, end: number, lineNumber: number, offset?: number): void;
  finish(): Session;
  /**
   * Optional: the entries read so far as a provisional Session, without the end-of-file checks,
   * while the file is still being read (the reader goes on afterwards). Formats read as one JSON
   * document have none.
   */
  snapshot?(): Session;
}

export interface FormatReader {
  /** Registry id, also written to Session.formatId ("pi"). */
  id: string;
  label: string;
  /**
   * Why a file is not this format, for "unsupported format" messages, e.g.
   * `not a pi session: expected a JSONL file whose first line is {"type":"session",...}`.
   */
  mismatchMessage: string;
  /** True when the first lines of a file (BOM and line ends already removed) are this format. */
  detect(firstLines: string[], fileName: string): boolean;
  createLineReader(fileName: string, options?: LineReaderOptions): LineReader;
  /**
   * Formats that are one JSON document rather than JSONL (opencode export) can also be read from
   * the whole text at once. Optional; never throws on bad content.
   */
  readWhole?(text: string, fileName: string): Session;
}
