// One line handed as bytes to a reader that keeps its large texts stored (pi, Claude Code, Codex,
// Qwen Code, Gemini CLI, deepseek-harness): the steps they share around their own places and records. A line too short to hold
// a large text, or one that does not open an object (blank, garbage), is read as text, so its
// warnings are the string read's; any other line is parsed with its large texts in the store,
// which keeps them only at the reader's places, and gives back every byte of a line that made no
// entry.
import { LARGE_TEXT_BYTES, type StoredTextKeys } from "../text/largeLiterals";
import { readLineIntoStore, startsObject } from "../text/keptPlaces";
import type { SourceLine, StoreMark, TextStore } from "../text/storedText";
import { utf8Decode } from "../util/utf8";
import { parseObjectLineBytes } from "./jsonl-object";

export interface StoredTextLineSteps {
  /** The reader's store, made on the first line that may hold a large text. */
  store(): TextStore;
  /** Reads the line as text (the reader's string path). */
  asText(text: string): void;
  /** Leaves stored texts only at the reader's places of `raw` (its texts stored after `mark`). */
  keep(raw: Record<string, unknown>, store: TextStore, mark: StoreMark): void;
  /** Reads the parsed line; true when it made an entry. */
  read(parsed: ReturnType<typeof parseObjectLineBytes>): boolean;
  /** The property names of the reader's places, when it names them: other large values are parsed as strings. */
  keys?: StoredTextKeys;
}

export function readStoredTextLine(line: SourceLine, steps: StoredTextLineSteps): void {
  const { bytes, start, end, offset } = line;
  if (end - start < LARGE_TEXT_BYTES || !startsObject(bytes, start, end)) {
    steps.asText(start === end ? "" : utf8Decode(bytes.subarray(start, end)));
    return;
  }
  const store = steps.store();
  readLineIntoStore(
    store,
    line,
    () => parseObjectLineBytes(bytes, start, end, store, offset, steps.keys),
    (raw, mark) => steps.keep(raw, store, mark),
    steps.read,
  );
}
