// The line step the JSONL readers of one record per line share (Qwen Code, Kimi Code, Copilot CLI,
// Codex): every line is counted, a blank one passed over, a line that is not a JSON object (or a
// record without the type the reader needs) skipped with a warning naming its line, and the last
// skipped line remembered, so that the end of the file can say its last line was cut short
// (finish.ts). Written once so that these readers warn alike, with the same line numbers.
import type { ReaderWarning } from "../model";
import { finishReadWarnings } from "./finish";
import { parseObjectLine } from "./jsonl-object";

/** A record that names its type. */
export type TypedRecord = Record<string, unknown> & { type: string };

function hasType(value: Record<string, unknown>): value is TypedRecord {
  return typeof value.type === "string";
}

/** The warnings and line counts of one file being read, line by line. */
export class LineTally {
  /** The file's warnings so far, in line order. */
  readonly warnings: ReaderWarning[] = [];
  private last = 0;
  /** The last line skipped as bad; -1 while none was. */
  private lastBad = -1;

  /** The last line looked at (blank and bad ones included): the session's line count. */
  get lineCount(): number {
    return this.last;
  }

  warn(line: number, reason: string): void {
    this.warnings.push({ line, reason });
  }

  /** Skips line `line`, with `reason` as its warning. Null, for the caller to return. */
  skip(line: number, reason: string): null {
    this.lastBad = line;
    this.warn(line, reason);
    return null;
  }

  /**
   * The object on line `line`; null for a blank line (passed over) or one that is not a JSON object
   * (skipped). Values cut at the depth cap (jsonl-object.ts) are named in a warning on the line.
   */
  object(text: string, line: number): Record<string, unknown> | null {
    this.last = line;
    if (text.trim() === "") return null;
    return this.parsed(parseObjectLine(text), line);
  }

  /**
   * `object` of a line parsed already (from its bytes, its large texts stored: jsonl-object.ts):
   * the object, or null when it was not one (skipped, with the parser's reason as its warning).
   */
  parsed(parsed: ReturnType<typeof parseObjectLine>, line: number): Record<string, unknown> | null {
    this.last = line;
    if ("reason" in parsed) return this.skip(line, parsed.reason);
    if (parsed.note) this.warn(line, parsed.note);
    return parsed.value;
  }

  /** `object` when it names its type as a string; else null, and an object without one is skipped with `noType` as its warning. */
  record(text: string, line: number, noType: string): TypedRecord | null {
    return this.typed(this.object(text, line), line, noType);
  }

  /** `record` of a line parsed already (`parsed`). */
  parsedRecord(parsed: ReturnType<typeof parseObjectLine>, line: number, noType: string): TypedRecord | null {
    return this.typed(this.parsed(parsed, line), line, noType);
  }

  private typed(value: Record<string, unknown> | null, line: number, noType: string): TypedRecord | null {
    if (value === null) return null;
    return hasType(value) ? value : this.skip(line, noType);
  }

  /** The end-of-file warnings (finish.ts): `nothingRead` is the reason to give when the file had lines but nothing the reader could use. */
  finish(nothingRead: string | null): void {
    finishReadWarnings(this.warnings, this.last, this.lastBad, nothingRead);
  }
}
