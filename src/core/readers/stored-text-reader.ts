// What every line reader that keeps its large texts as bytes has in common: the file's name, the
// store made on the first line that may hold a large text (over the file itself when it can be
// read again), and the byte-line entry point, present only while readers keep stored texts, so a
// reader without it is handed its lines as text.
import { createTextStore, type TextSource, type TextStore } from "../text/storedText";
import { readersKeepStoredTexts } from "../text/storedTextsSwitch";
import type { LineReaderOptions } from "./types";

export abstract class StoredTextReader {
  /** The bytes of the large texts kept as bytes (created with the first line that may hold one). */
  protected store: TextStore | null = null;
  /** Present when readers keep stored texts (src/core/text/storedTextsSwitch.ts). */
  readonly pushLineBytes?: (bytes: Uint8Array, start: number, end: number, lineNumber: number, offset?: number) => void;
  /** The file, readable again: texts of lines handed with their offset stay there. */
  private readonly textSource: TextSource | null;

  protected constructor(
    protected readonly fileName: string,
    options: LineReaderOptions,
  ) {
    this.textSource = options.textSource ?? null;
    if (readersKeepStoredTexts()) this.pushLineBytes = (bytes, start, end, lineNumber, offset) => this.readLineBytes(bytes, start, end, lineNumber, offset);
  }

  /** The reader's store, made on first use. */
  protected textStore(): TextStore {
    return (this.store ??= createTextStore(undefined, this.textSource));
  }

  /** The line `bytes[start, end)`, its large texts stored at the reader's places. */
  protected abstract readLineBytes(bytes: Uint8Array, start: number, end: number, lineNumber: number, offset?: number): void;
}
