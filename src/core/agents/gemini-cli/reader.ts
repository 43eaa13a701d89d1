// Reader of Gemini CLI chat files (docs/formats/gemini-cli.md): the JSONL form
// (~/.gemini/tmp/<project>/chats/session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl) — one record per line: a
// metadata line, message records `{id, timestamp, type, content, …}`, `{"$set": …}` updates and
// `{"$rewindTo": id}` — and the older form, one pretty-printed JSON object
// `{sessionId, projectHash, startTime, lastUpdated, messages[]}`. Every line becomes one entry, in
// file order, with a synthetic id from its line number (a message id is written again when the
// message is updated, so it cannot be the entry id); history.ts folds them. Lenient: a bad line is
// a warning with its line number, never an exception.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { firstObjects, parseObjectLine } from "../../readers/jsonl-object";
import { finishReadWarnings, finishTextStore, readerSession } from "../../readers/finish";
import type { FormatReader, LineReader, LineReaderOptions } from "../../readers/types";
import type { TextStore } from "../../text/storedText";
import { StoredTextReader } from "../../readers/stored-text-reader";
import { readStoredTextLine } from "../../readers/stored-text-line";
import { isObject } from "../../util/is-object";
import { utf8Decode } from "../../util/utf8";
import { parseJsonCapped } from "../../util/json-depth";
import { duplicateKeys, duplicateKeysInBytes, duplicateKeysReason, type DuplicateKey } from "../../util/json-duplicate-keys";
import { keepGeminiStoredTexts } from "./storedTextPlaces";
import { DocumentLines } from "./documentLines";

export const GEMINI_CLI_FORMAT_ID = "gemini-cli";
const FORMAT_LABEL = "Gemini CLI chat";

const EXPECTATION =
  'a Gemini CLI chat file (~/.gemini/tmp/<project>/chats/session-….jsonl): JSONL whose first line is {"sessionId","projectHash","startTime",…}, or the older single JSON object with "messages"';

/** The kinds of line the chat file holds (the entry `type`). */
type GeminiLineKind = "metadata" | "message" | "set" | "rewind";

const MESSAGE_TYPES = new Set(["user", "gemini", "info", "error", "warning"]);

function isMetadata(value: Record<string, unknown>): boolean {
  return typeof value.sessionId === "string" && typeof value.projectHash === "string";
}

function isMessageRecord(value: Record<string, unknown>): boolean {
  return typeof value.id === "string" && typeof value.type === "string" && "content" in value;
}

/** The kind of one parsed line, or null when it is none the CLI writes. */
function lineKind(value: Record<string, unknown>): GeminiLineKind | null {
  if (typeof value.$rewindTo === "string") return "rewind";
  if (isObject(value.$set)) return "set";
  if (isMessageRecord(value)) return "message";
  if (isMetadata(value)) return "metadata";
  return null;
}

/** The older form's first lines: `{` then its keys, one a line (`"sessionId": "…"`). */
function looksLikeLegacyDocument(firstLines: readonly string[]): boolean {
  const lines = firstLines.map((line) => line.trim()).filter((line) => line.length > 0);
  if (lines[0] !== "{") return false;
  const head = lines.slice(1, 8).join("\n");
  return /^"sessionId"\s*:/m.test(head) && /^"projectHash"\s*:/m.test(head);
}

function detectGeminiCli(firstLines: string[], fileName: string): boolean {
  if (looksLikeLegacyDocument(firstLines)) return true;
  const objects = firstObjects(firstLines, 3);
  const first = objects[0];
  if (!first) return false;
  if (isMetadata(first) && ("startTime" in first || "messages" in first)) return true;
  // A file whose metadata line is damaged: its own file name and Gemini records after it.
  const named = /(^|\/)session-[^/]*\.jsonl$/.test(fileName);
  return named && objects.some((o) => isObject(o.$set)) && objects.some((o) => isMessageRecord(o) && MESSAGE_TYPES.has(o.type as string));
}

function entryOf(line: number, kind: GeminiLineKind, raw: Record<string, unknown>, previous: string | null): SessionEntry {
  const timestamp = typeof raw.timestamp === "string" ? raw.timestamp : typeof raw.startTime === "string" ? raw.startTime : null;
  return { id: `L${line}`, parentId: previous, type: kind, timestamp, line, raw };
}

function sessionOf(fileName: string, header: Record<string, unknown> | null, entries: SessionEntry[], warnings: ReaderWarning[], lineCount: number, legacy: boolean, store: TextStore | null = null): Session {
  return readerSession({ formatId: GEMINI_CLI_FORMAT_ID, formatLabel: legacy ? `${FORMAT_LABEL} (single JSON object)` : FORMAT_LABEL, fileName, formatVersion: null, header, lineCount }, entries, warnings, store);
}

function metadataOf(raw: Record<string, unknown>): Record<string, unknown> {
  const { messages: _messages, ...rest } = raw;
  return { agent: GEMINI_CLI_FORMAT_ID, ...rest };
}

class GeminiLineReader extends StoredTextReader implements LineReader {
  private readonly entries: SessionEntry[] = [];
  private readonly warnings: ReaderWarning[] = [];
  private header: Record<string, unknown> | null = null;
  private lastLine = 0;
  private lastBadLine = -1;
  /** Every line, kept while the file may still be the older single-object form. */
  private readonly document = new DocumentLines();
  private legacy: boolean | null = null;


  constructor(
    fileName: string,
    options: LineReaderOptions = {},
  ) {
    super(fileName, options);
  }

  pushLine(text: string, lineNumber: number): void {
    this.readTextLine(text, lineNumber, () => duplicateKeys(text, 5, lineNumber));
  }

  /** A line read as text (`repeatedKeys`: its keys written twice, looked for when it parsed). */
  private readTextLine(text: string, lineNumber: number, repeatedKeys: () => { found: DuplicateKey[]; total: number }): void {
    this.lastLine = lineNumber;
    if (this.legacy === null && text.trim() !== "") this.legacy = text.trim() === "{";
    if (this.legacy) {
      while (this.document.count < lineNumber - 1) this.document.addText("");
      this.document.addText(text);
      return;
    }
    if (text.trim() === "") return;
    this.readParsed(parseObjectLine(text), lineNumber, repeatedKeys);
  }

  /**
   * A line as bytes: its large texts are stored, and kept as bytes where a record may hold them
   * (storedTextPlaces.ts). Lines too short to hold a large text, lines that do not start an
   * object (blank ones, garbage) are read as text; the lines of the older single-object form
   * after its first are kept as bytes for the document (documentLines.ts).
   */
  protected readLineBytes(bytes: Uint8Array, start: number, end: number, lineNumber: number, offset?: number): void {
    if (this.legacy === true) {
      // Kept as bytes, decoded with the whole document (documentLines.ts).
      this.lastLine = lineNumber;
      while (this.document.count < lineNumber - 1) this.document.addText("");
      this.document.addBytes(bytes, start, end);
      return;
    }
    readStoredTextLine({ bytes, start, end, offset }, {
      store: () => {
        this.lastLine = lineNumber;
        // A first line long enough to hold a large text is not the older form's lone "{".
        this.legacy = false;
        return this.textStore();
      },
      // A short line's repeated keys are looked for in its bytes too, not in the text encoded again.
      asText: (text) => this.readTextLine(text, lineNumber, () => duplicateKeysInBytes(bytes, start, end, 5, lineNumber)),
      keep: (raw, store, mark) => keepGeminiStoredTexts(raw, store, mark),
      // A line that makes no entry (a bad line, not a chat record) keeps no bytes. The repeated
      // keys are looked for in the line's bytes: decoding the whole line for them cost as much as
      // the parse.
      read: (parsed) => this.readParsed(parsed, lineNumber, () => duplicateKeysInBytes(bytes, start, end, 5, lineNumber)),
    });
  }


  /** Reads a parsed line (`repeatedKeys`: the keys written twice in the line as written); true when it made an entry. */
  private readParsed(parsed: { value: Record<string, unknown>; note?: string } | { reason: string }, lineNumber: number, repeatedKeys: () => { found: DuplicateKey[]; total: number }): boolean {
    if ("reason" in parsed) {
      this.lastBadLine = lineNumber;
      this.warnings.push({ line: lineNumber, reason: parsed.reason });
      return false;
    }
    if (parsed.note) this.warnings.push({ line: lineNumber, reason: parsed.note });
    const repeated = duplicateKeysReason(repeatedKeys());
    if (repeated) this.warnings.push({ line: lineNumber, reason: repeated });
    const kind = lineKind(parsed.value);
    if (kind === null) {
      this.lastBadLine = lineNumber;
      this.warnings.push({ line: lineNumber, reason: "not a Gemini CLI record (metadata, message, $set or $rewindTo), line skipped" });
      return false;
    }
    if (kind === "message" && !MESSAGE_TYPES.has(parsed.value.type as string)) {
      this.warnings.push({ line: lineNumber, reason: `message type "${String(parsed.value.type)}" is not one the CLI writes; it is kept but never sent` });
    }
    if (kind === "metadata" && this.header === null) this.header = metadataOf(parsed.value);
    const previous = this.entries[this.entries.length - 1]?.id ?? null;
    this.entries.push(entryOf(lineNumber, kind, parsed.value, previous));
    if (kind === "metadata" && Array.isArray(parsed.value.messages)) this.wholeChat(parsed.value.messages as unknown[], lineNumber);
    return true;
  }

  /**
   * A whole chat object (metadata and its `messages` list) where a metadata line stands: the
   * older single-object form inside a JSON array, or written on one line. Not a file Gemini CLI
   * writes, so it is said; its messages are read, not lost.
   */
  private wholeChat(messages: unknown[], lineNumber: number): void {
    this.warnings.push({
      line: lineNumber,
      reason: `a whole Gemini CLI chat (its metadata and a messages list of ${messages.length}) where one record should stand: not a chat file as Gemini CLI writes it (a JSON array around the chat, or the chat on one line); its messages are read`,
    });
    messages.forEach((message, index) => {
      if (!isObject(message) || !isMessageRecord(message)) {
        this.warnings.push({ line: lineNumber, reason: `messages[${index}] is not a message record ({id, type, content}); skipped` });
        return;
      }
      const previous = this.entries[this.entries.length - 1]?.id ?? null;
      this.entries.push({ ...entryOf(lineNumber, "message", message, previous), id: `L${lineNumber}M${index}` });
    });
  }

  finish(): Session {
    if (this.legacy) return readLegacyDocument(this.document.text(), this.fileName, this.lastLine);
    finishReadWarnings(this.warnings, this.lastLine, this.lastBadLine, this.entries.length === 0 ? `no chat records found: expected ${EXPECTATION}` : null);
    if (this.header === null && this.entries.length > 0) {
      this.warnings.push({ line: 0, reason: "the metadata line (sessionId, projectHash) is missing or damaged: the session id and project are unknown; every record is read" });
    }
    this.store = finishTextStore(this.store);
    return sessionOf(this.fileName, this.header, this.entries, this.warnings, this.lastLine, false, this.store);
  }

  snapshot(): Session {
    if (this.legacy) return sessionOf(this.fileName, null, [], [], this.lastLine, true);
    return sessionOf(this.fileName, this.header, this.entries.slice(), this.warnings.slice(), this.lastLine, false, this.store);
  }
}

const ID_KEY = '"id": ';
const QUOTE = 34;
const BACKSLASH = 92;

/**
 * Where each `"id": "<value>"` first stands in the document, by the value's literal as written
 * (quotes included): found in one pass, so that placing every message costs one lookup instead of
 * a search of the document from the top.
 */
function idPlaces(text: string): Map<string, number> {
  const places = new Map<string, number>();
  for (let at = text.indexOf(ID_KEY); at >= 0; at = text.indexOf(ID_KEY, at + 1)) {
    const open = at + ID_KEY.length;
    if (text.charCodeAt(open) !== QUOTE) continue;
    let close = open + 1;
    while (close < text.length && text.charCodeAt(close) !== QUOTE) close += text.charCodeAt(close) === BACKSLASH ? 2 : 1;
    if (close >= text.length) break;
    const literal = text.slice(open, close + 1);
    if (!places.has(literal)) places.set(literal, at);
  }
  return places;
}

/** Line of the first `"id": "<value>"` in the document, for warnings and entries (1 when not found). */
function lineOfId(places: Map<string, number>, id: string, lineStarts: number[]): number {
  const at = places.get(JSON.stringify(id)) ?? -1;
  if (at < 0) return 1;
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (lineStarts[mid]! <= at) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}

/** The older form: one JSON object with every message in `messages`. Never throws. */
function readLegacyDocument(text: string, fileName: string, lineCount: number): Session {
  const warnings: ReaderWarning[] = [];
  let value: unknown;
  try {
    const parsed = parseJsonCapped(text);
    value = parsed.value;
    if (parsed.note) warnings.push({ line: 0, reason: parsed.note });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    warnings.push({ line: 0, reason: `not valid JSON (${detail}): expected ${EXPECTATION}` });
    return sessionOf(fileName, null, [], warnings, lineCount, true);
  }
  if (!isObject(value)) {
    warnings.push({ line: 0, reason: `not a JSON object: expected ${EXPECTATION}` });
    return sessionOf(fileName, null, [], warnings, lineCount, true);
  }
  const duplicates = duplicateKeys(text);
  const repeated = duplicateKeysReason(duplicates);
  if (repeated) warnings.push({ line: duplicates.found[0]!.line, reason: repeated });
  const lineStarts = [0];
  // Found by the engine's own search, not a test of every character of the document.
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const places = idPlaces(text);
  const entries: SessionEntry[] = [entryOf(1, "metadata", metadataOf(value), null)];
  const messages = Array.isArray(value.messages) ? value.messages : [];
  if (!Array.isArray(value.messages)) warnings.push({ line: 0, reason: "no messages list: the chat holds no messages" });
  messages.forEach((message, index) => {
    if (!isObject(message) || !isMessageRecord(message)) {
      warnings.push({ line: 0, reason: `messages[${index}] is not a message record ({id, type, content}); skipped` });
      return;
    }
    const line = lineOfId(places, message.id as string, lineStarts);
    const entry = entryOf(line, "message", message, entries[entries.length - 1]!.id);
    entries.push({ ...entry, id: `M${index}` });
  });
  return sessionOf(fileName, metadataOf(value), entries, warnings, lineCount || lineStarts.length, true);
}

export const geminiCliReader: FormatReader = {
  id: GEMINI_CLI_FORMAT_ID,
  label: "Gemini CLI chat (JSONL or JSON)",
  mismatchMessage: `not a Gemini CLI chat: expected ${EXPECTATION}`,
  detect: (firstLines, fileName) => detectGeminiCli(firstLines, fileName),
  createLineReader: (fileName, options) => new GeminiLineReader(fileName, options),
};
