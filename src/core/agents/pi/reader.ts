// Reader for pi and senpi session files (JSONL, format versions 1–3; spec pi-senpi.md §1). One
// JSON object per line: a `session` header, then entries forming a tree via id/parentId. The
// reader is lenient (PI-F3): bad lines become warnings with their line number and reading goes
// on. Older versions are migrated in memory only (PI-F14), with synthetic ids derived from the
// line number so that they are stable across reads. Lines handed as bytes (`pushLineBytes`, when
// readers keep stored texts) keep their large texts as bytes at the places ./storedTextPlaces.ts
// names; the session then carries the store they are in.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { parseObjectLine } from "../../readers/jsonl-object";
import { finishTextStore, finishReadWarnings, readerSession } from "../../readers/finish";
import type { FormatReader, LineReader, LineReaderOptions } from "../../readers/types";
import { fnv1aHex } from "../../util/fnv1a";
import { isObject } from "../../util/is-object";
import { conform } from "../../readers/shape";
import { PI_ENTRY_SHAPE } from "./shape";
import { keepStoredTextsAtPlaces } from "./storedTextPlaces";
import { StoredTextReader } from "../../readers/stored-text-reader";
import { readStoredTextLine } from "../../readers/stored-text-line";
import { utf8Decode } from "../../util/utf8";

export const PI_FORMAT_ID = "pi";
const PI_CURRENT_VERSION = 3;

/** Entry types written by pi and senpi (§1.3, PI-F8). Others are kept but contribute nothing. */
const PI_ENTRY_TYPES: readonly string[] = [
  "message",
  "thinking_level_change",
  "model_change",
  "compaction",
  "branch_summary",
  "custom",
  "custom_message",
  "label",
  "session_info",
  // senpi additions (PI-F8)
  "context_edit",
  "configuration_update",
  "model_change_rejected",
];

const HEADER_EXPECTATION = 'a JSONL file whose first line is {"type":"session",...}';

/** How many leading lines detection looks at before giving up. */
const DETECT_LINES = 20;

/** True for the first parsed object of a pi file: a header, or (legacy, PI-F4) a pi entry. */
function looksLikePiObject(value: Record<string, unknown>): boolean {
  if (value.type === "session") return true;
  if (typeof value.type !== "string" || !PI_ENTRY_TYPES.includes(value.type)) return false;
  if (value.type === "message") return isObject(value.message) && typeof value.message.role === "string";
  return true;
}

/** A v2+ entry: a pi entry type with its own id and a parentId key (nothing else writes that triple). */
function looksLikeTreeEntry(value: Record<string, unknown>): boolean {
  return value.type !== "session" && looksLikePiObject(value) && typeof value.id === "string" && "parentId" in value;
}

/**
 * The header line damaged (a field of the wrong type, a flipped bit) but kept as an object: it
 * still has the header's fields and no entry type. Read as the header, with a warning.
 */
function looksLikeDamagedHeader(value: Record<string, unknown>): boolean {
  return value.type !== "session" && !(typeof value.type === "string" && PI_ENTRY_TYPES.includes(value.type)) && "cwd" in value && "id" in value && !("parentId" in value);
}

function detectPi(firstLines: string[]): boolean {
  let looked = 0;
  const objects: Record<string, unknown>[] = [];
  for (const line of firstLines) {
    if (looked >= DETECT_LINES) break;
    if (line.trim() === "") continue;
    looked += 1;
    const parsed = parseObjectLine(line);
    // A garbage first line does not decide anything (PI-F3); the first object does.
    if (!("value" in parsed)) continue;
    if (objects.length === 0 && looksLikePiObject(parsed.value)) return true;
    objects.push(parsed.value);
  }
  // The first object is not pi's (a damaged header): the entries after it decide, when nearly all
  // of them are pi tree entries.
  const later = objects.slice(1);
  const entries = later.filter(looksLikeTreeEntry).length;
  return entries >= 2 && entries >= later.length * 0.8;
}

class PiLineReader extends StoredTextReader implements LineReader {
  private header: Record<string, unknown> | null = null;
  private version = 1;
  private sawFirstObject = false;
  /** Base of synthetic ids: hash of the header line, or of the file name without a header. */
  private idBase: string | null = null;
  private readonly entries: SessionEntry[] = [];
  private readonly warnings: ReaderWarning[] = [];
  /** Ids by file-object index (header = 0), for v1 `firstKeptEntryIndex` (PI-F14). */
  private readonly objectIds: (string | null)[] = [];
  private readonly usedIds = new Set<string>();
  private previousId: string | null = null;
  private lastLine = 0;
  private lastBadLine = -1;

  constructor(fileName: string, options: LineReaderOptions = {}) {
    super(fileName, options);
  }

  pushLine(text: string, lineNumber: number): void {
    this.lastLine = lineNumber;
    if (text.trim() === "") {
      this.warnings.push({ line: lineNumber, reason: "blank line skipped" });
      return;
    }
    this.readParsed(parseObjectLine(text), text, lineNumber);
  }

  /**
   * A line as bytes: its large texts are stored, and kept as bytes where an entry may hold them.
   * The first object (the header, whose text names the synthetic ids), lines too short to hold a
   * large text and lines that do not start an object (blank ones, garbage) are read as text.
   */
  protected readLineBytes(bytes: Uint8Array, start: number, end: number, lineNumber: number, offset?: number): void {
    // The first object (the header, whose text names the synthetic ids) is read as text.
    if (!this.sawFirstObject) {
      this.pushLine(start === end ? "" : utf8Decode(bytes.subarray(start, end)), lineNumber);
      return;
    }
    this.lastLine = lineNumber;
    readStoredTextLine({ bytes, start, end, offset }, {
      store: () => this.textStore(),
      asText: (text) => this.pushLine(text, lineNumber),
      keep: (raw, store, mark) => keepStoredTextsAtPlaces(raw, this.version, store, mark),
      // A line that makes no entry (a second header, an object without a type) keeps no bytes.
      read: (parsed) => {
        const before = this.entries.length;
        this.readParsed(parsed, null, lineNumber);
        return this.entries.length > before;
      },
    });
  }

  /** A parsed line (`text`: the line itself, for the header's id base; null only once the first object was read). */
  private readParsed(parsed: ReturnType<typeof parseObjectLine>, text: string | null, lineNumber: number): void {
    if ("reason" in parsed) {
      this.lastBadLine = lineNumber;
      this.warnings.push({ line: lineNumber, reason: parsed.reason });
      return;
    }
    if (parsed.note) this.warnings.push({ line: lineNumber, reason: parsed.note });
    const value = parsed.value;
    if (!this.sawFirstObject) {
      this.sawFirstObject = true;
      if (value.type === "session") {
        this.readHeader(value, text ?? "", lineNumber);
        return;
      }
      if (looksLikeDamagedHeader(value)) {
        this.warnings.push({ line: lineNumber, reason: `session header with type ${JSON.stringify(value.type) ?? "missing"} instead of "session"; read as the header` });
        this.readHeader({ ...value, type: "session" }, text ?? "", lineNumber);
        return;
      }
      // PI-F4: pi reads a header-less file as legacy; Contextscope does too, with a warning.
      this.warnings.push({
        line: lineNumber,
        reason: "missing session header: reading the file as format version 1 (legacy)",
      });
      this.idBase = fnv1aHex(this.fileName);
      this.objectIds.push(null); // index 0 stands for the missing header
    } else if (value.type === "session") {
      this.warnings.push({ line: lineNumber, reason: "second session header ignored" });
      return;
    }
    this.readEntry(value, lineNumber);
  }

  private readHeader(value: Record<string, unknown>, text: string, lineNumber: number): void {
    this.header = value;
    this.idBase = fnv1aHex(text);
    this.objectIds.push(null);
    const version = value.version;
    if (version === undefined) this.version = 1;
    else if (typeof version === "number" && Number.isFinite(version)) this.version = version;
    else {
      this.version = 1;
      this.warnings.push({ line: lineNumber, reason: `header version ${JSON.stringify(version)} is not a number; read as 1` });
    }
    if (this.version > PI_CURRENT_VERSION) {
      this.warnings.push({
        line: lineNumber,
        reason: `format version ${this.version} is newer than ${PI_CURRENT_VERSION}; read as version ${PI_CURRENT_VERSION}`,
      });
    }
  }

  /** Deterministic id for entries without one (PI-F14 [INF]). */
  private syntheticId(lineNumber: number): string {
    let id = fnv1aHex(`${this.idBase ?? ""}:${lineNumber}`);
    for (let salt = 1; this.usedIds.has(id); salt++) id = fnv1aHex(`${this.idBase ?? ""}:${lineNumber}:${salt}`);
    return id;
  }

  private readEntry(value: Record<string, unknown>, lineNumber: number): void {
    if (typeof value.type !== "string") {
      this.lastBadLine = lineNumber;
      this.warnings.push({ line: lineNumber, reason: "object without a string `type`, line skipped" });
      this.objectIds.push(null);
      return;
    }
    let raw = value;
    let id: string;
    let parentId: string | null;
    if (typeof raw.id === "string" && raw.id !== "") {
      // Real v1 files never have ids; a header-less v2/v3 file keeps its tree.
      id = raw.id;
      parentId = typeof raw.parentId === "string" ? raw.parentId : null;
      if (raw.parentId !== undefined && raw.parentId !== null && typeof raw.parentId !== "string") {
        this.warnings.push({ line: lineNumber, reason: "`parentId` is not a string; treated as a root entry" });
      }
    } else {
      // v1 → v2 (PI-F14): synthetic id, parent = previous entry (a linear chain).
      id = this.syntheticId(lineNumber);
      parentId = this.previousId;
      if (this.version >= 2) {
        this.warnings.push({ line: lineNumber, reason: `entry without an id: synthetic id ${id} assigned` });
        if (typeof raw.parentId === "string" || raw.parentId === null) parentId = raw.parentId;
      }
      raw = { ...raw, id, parentId };
    }
    if (raw.type === "compaction" && typeof raw.firstKeptEntryIndex === "number" && raw.firstKeptEntryId === undefined) {
      const target = this.objectIds[raw.firstKeptEntryIndex];
      const { firstKeptEntryIndex: _dropped, ...rest } = raw;
      raw = target ? { ...rest, firstKeptEntryId: target } : rest;
      if (!target) {
        this.warnings.push({ line: lineNumber, reason: `compaction firstKeptEntryIndex ${String(_dropped)} names no earlier entry` });
      }
    }
    if (this.version < 3 && raw.type === "message" && isObject(raw.message) && raw.message.role === "hookMessage") {
      // v2 → v3 (PI-F14): the `hookMessage` role became `custom`.
      raw = { ...raw, message: { ...raw.message, role: "custom" } };
    }
    if (raw.type === "message" && !isObject(raw.message)) {
      this.warnings.push({ line: lineNumber, reason: `message entry ${id} has no message object; kept without a message` });
    }
    // Fields of a type pi never writes are taken out here, each named, so no later stage meets them.
    const problems: string[] = [];
    raw = conform(PI_ENTRY_SHAPE, raw, "", problems) as Record<string, unknown>;
    for (const problem of problems) this.warnings.push({ line: lineNumber, reason: `entry ${id}: ${problem}` });
    this.usedIds.add(id);
    this.objectIds.push(id);
    this.previousId = id;
    this.entries.push({
      id,
      parentId,
      type: raw.type as string,
      timestamp: typeof raw.timestamp === "string" ? raw.timestamp : null,
      line: lineNumber,
      raw,
    });
  }

  finish(): Session {
    this.store = finishTextStore(this.store);
    const nothingRead = this.entries.length === 0 && this.header === null;
    finishReadWarnings(this.warnings, this.lastLine, this.lastBadLine, nothingRead ? `no pi entries found: expected ${HEADER_EXPECTATION}` : null);
    return this.sessionOf(this.entries, this.warnings);
  }

  snapshot(): Session {
    // Copies of the lists: the reader keeps appending to its own.
    return this.sessionOf(this.entries.slice(), this.warnings.slice());
  }

  private sessionOf(entries: Session["entries"], warnings: Session["warnings"]): Session {
    const facts = { formatId: PI_FORMAT_ID, formatLabel: "pi / senpi session", fileName: this.fileName, formatVersion: this.version, header: this.header, lineCount: this.lastLine };
    return readerSession(facts, entries, warnings, this.store);
  }
}



export const piReader: FormatReader = {
  id: PI_FORMAT_ID,
  label: "pi / senpi session (JSONL)",
  mismatchMessage: `not a pi session: expected ${HEADER_EXPECTATION}`,
  detect: (firstLines) => detectPi(firstLines),
  createLineReader: (fileName, options) => new PiLineReader(fileName, options),
};
