// Reader of Qwen Code chat files (docs/formats/qwen-code.md): ~/.qwen/projects/<project>/chats/<sessionId>.jsonl,
// one record per line `{uuid, parentUuid, sessionId, timestamp, type, provenance, cwd, version, …}`
// with Gemini-style `message: {role, parts}` (Qwen Code is a fork of Gemini CLI whose records look
// like Claude Code's). Every line becomes one entry in file order; history.ts folds them into the
// history of each request. Lenient: a bad line is a warning with its line number, never an exception.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { firstObjects } from "../../readers/jsonl-object";
import { finishTextStore, readerSession } from "../../readers/finish";
import { LineTally } from "../../readers/line-tally";
import type { FormatReader, LineReader, LineReaderOptions } from "../../readers/types";
import { StoredTextReader } from "../../readers/stored-text-reader";
import { readStoredTextLine } from "../../readers/stored-text-line";
import { isObject } from "../../util/is-object";
import { keepQwenStoredTexts, QWEN_STORED_TEXT_KEYS } from "./storedTextPlaces";
import type { TypedRecord } from "../../readers/line-tally";

export const QWEN_CODE_FORMAT_ID = "qwen-code";
const FORMAT_LABEL = "Qwen Code chat";

const EXPECTATION =
  'a Qwen Code chat file (~/.qwen/projects/<project>/chats/<session id>.jsonl): JSONL records with "uuid", "sessionId", "type" and a "provenance" or a message of Gemini-style "parts"';

/** The record types Qwen Code writes (ChatRecordingService). */
const QWEN_RECORD_TYPES = new Set(["user", "assistant", "tool_result", "system"]);

/**
 * A Qwen Code record: the uuid chain and session id Claude Code also writes, plus what Claude Code
 * never writes — a `provenance`, or a message made of Gemini-style `parts`.
 */
function isQwenRecord(value: Record<string, unknown>): boolean {
  if (typeof value.sessionId !== "string" || typeof value.type !== "string" || !("uuid" in value || "parentUuid" in value)) return false;
  if (typeof value.provenance === "string") return true;
  return isObject(value.message) && Array.isArray(value.message.parts);
}

function detectQwenCode(firstLines: string[]): boolean {
  return firstObjects(firstLines, 20).some(isQwenRecord);
}

const NO_TYPE = "not a Qwen Code record (no type), line skipped";

/**
 * Makes the strings a line repeats from the lines before it the same string objects as theirs:
 * every record names the session and its working directory, points at the record before it by
 * its uuid, and a tool result's display copy (`toolCallResult.resultDisplay`) is most often its
 * output, or the start of it, as a string again. Parsed, each is a string of its own (a tenth of what a read chat
 * holds); the values are the same.
 */
function shareRepeatedStrings(raw: Record<string, unknown>, header: Record<string, unknown> | null, last: Record<string, unknown> | null): void {
  if (header !== null) {
    if (raw.sessionId === header.sessionId) raw.sessionId = header.sessionId;
    if (raw.cwd === header.cwd) raw.cwd = header.cwd;
  }
  if (last !== null && raw.parentUuid === last.uuid) raw.parentUuid = last.uuid;
  if (raw.type === "tool_result") shareDisplayCopy(raw);
}

/**
 * A string display copy that is the output of the record's one function response, or its start
 * (a long output is shown cut), taken from that output: the output itself, or a slice of it, which
 * the engine keeps as a reference into the output instead of a copy of its characters.
 */
function shareDisplayCopy(raw: Record<string, unknown>): void {
  const result = raw.toolCallResult;
  if (!isObject(result) || typeof result.resultDisplay !== "string" || !isObject(raw.message) || !Array.isArray(raw.message.parts) || raw.message.parts.length !== 1) return;
  const part: unknown = raw.message.parts[0];
  const response = isObject(part) && isObject(part.functionResponse) ? part.functionResponse.response : null;
  const output = isObject(response) ? response.output : null;
  const display = result.resultDisplay;
  if (typeof output !== "string" || !output.startsWith(display)) return;
  result.resultDisplay = output.length === display.length ? output : output.slice(0, display.length);
}

class QwenLineReader extends StoredTextReader implements LineReader {
  private readonly entries: SessionEntry[] = [];
  private readonly seenIds = new Set<string>();
  private header: Record<string, unknown> | null = null;
  private readonly lines = new LineTally();


  constructor(
    fileName: string,
    options: LineReaderOptions = {},
  ) {
    super(fileName, options);
  }

  pushLine(text: string, lineNumber: number): void {
    this.readRecord(this.lines.record(text, lineNumber, NO_TYPE), lineNumber);
  }

  /**
   * A line as bytes: its large texts are stored, and kept as bytes where a record may hold them
   * (storedTextPlaces.ts). Lines too short to hold a large text and lines that do not start an
   * object (blank ones, garbage) are read as text.
   */
  protected readLineBytes(bytes: Uint8Array, start: number, end: number, lineNumber: number, offset?: number): void {
    readStoredTextLine({ bytes, start, end, offset }, {
      store: () => this.textStore(),
      asText: (text) => this.pushLine(text, lineNumber),
      keep: (raw, store, mark) => keepQwenStoredTexts(raw, store, mark),
      keys: QWEN_STORED_TEXT_KEYS,
      // A line that makes no entry (no type) keeps no bytes.
      read: (parsed) => this.readRecord(this.lines.parsedRecord(parsed, lineNumber, NO_TYPE), lineNumber),
    });
  }

  /** Reads a parsed record (null: blank or skipped); true when it made an entry. */
  private readRecord(raw: TypedRecord | null, lineNumber: number): boolean {
    if (raw === null) return false;
    if (!QWEN_RECORD_TYPES.has(raw.type)) {
      this.lines.warn(lineNumber, `record type "${raw.type}" is not one Qwen Code 0.24 writes; it is kept but never sent`);
    }
    if (this.header === null && typeof raw.sessionId === "string") {
      this.header = { agent: QWEN_CODE_FORMAT_ID, sessionId: raw.sessionId, cwd: raw.cwd ?? null, version: raw.version ?? null };
    }
    // The uuid names the entry when it is new; a repeated or missing uuid gets the line's own id.
    const uuid = typeof raw.uuid === "string" && !this.seenIds.has(raw.uuid) ? raw.uuid : `L${lineNumber}`;
    if (typeof raw.uuid === "string" && uuid !== raw.uuid) this.lines.warn(lineNumber, `uuid ${raw.uuid} was used by an earlier line; this record is read as its own entry`);
    this.seenIds.add(uuid);
    const last = this.entries[this.entries.length - 1];
    shareRepeatedStrings(raw, this.header, last?.raw ?? null);
    const previous = last?.id ?? null;
    const timestamp = typeof raw.timestamp === "string" ? raw.timestamp : null;
    // A system record is named by its subtype too: they are read (chat_compression) or skipped (bookkeeping) one by one.
    const type = raw.type === "system" && typeof raw.subtype === "string" ? `system/${raw.subtype}` : raw.type;
    this.entries.push({ id: uuid, parentId: previous, type, timestamp, line: lineNumber, raw });
    return true;
  }

  private session(entries: SessionEntry[], warnings: ReaderWarning[]): Session {
    return readerSession({ formatId: QWEN_CODE_FORMAT_ID, formatLabel: FORMAT_LABEL, fileName: this.fileName, formatVersion: null, header: this.header, headerIsLine: false, lineCount: this.lines.lineCount }, entries, warnings, this.store);
  }

  finish(): Session {
    this.store = finishTextStore(this.store);
    this.lines.finish(this.entries.length === 0 ? `no chat records found: expected ${EXPECTATION}` : null);
    return this.session(this.entries, this.lines.warnings);
  }

  snapshot(): Session {
    return this.session(this.entries.slice(), this.lines.warnings.slice());
  }
}

export const qwenCodeReader: FormatReader = {
  id: QWEN_CODE_FORMAT_ID,
  label: FORMAT_LABEL,
  mismatchMessage: `not a Qwen Code chat: expected ${EXPECTATION}`,
  detect: (firstLines) => detectQwenCode(firstLines),
  createLineReader: (fileName, options) => new QwenLineReader(fileName, options),
};
