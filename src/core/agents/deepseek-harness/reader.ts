// Reader of a deepseek-harness session log (docs/formats/deepseek-harness.md): `session.jsonl`, or
// `session.jsonl.zstd` once its Zstandard frames are decoded (src/core/intake/containers/zstd.ts; the bytes,
// not the name, say it is compressed). Line 1 is the header `{"type":"session","version":0,"id",
// "createdAt",…}`; every other line is one event `{type, seq, time, data, …}` or a packed chunk
// row (`text-chunks`, `reasoning-chunks`, `tool-call-chunks`) that stands for a run of
// `assistant/chunk` events and stays one entry, as written (its id is its first member's seq). `version` has been 0 through many
// shape changes, so shapes are recognised, not numbers. A bad line is a warning with its line
// number; the entries around it are kept.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { firstObjects, parseObjectLine } from "../../readers/jsonl-object";
import { finishReadWarnings, finishTextStore, readerSession } from "../../readers/finish";
import { readStoredTextLine } from "../../readers/stored-text-line";
import type { FormatReader, LineReader, LineReaderOptions } from "../../readers/types";
import { StoredTextReader } from "../../readers/stored-text-reader";
import { isObject } from "../../util/is-object";
import { DEEPSEEK_HARNESS_FORMAT_ID, entryIdOfSeq, isPackedChunkType, KNOWN_EVENT_TYPES, num, str } from "./events";
import { keepHarnessStoredTexts } from "./storedTextPlaces";

const FORMAT_LABEL = "deepseek-harness session log";

/**
 * The header line: `type: "session"` with a numeric `createdAt` (pi's header has a `timestamp`
 * string instead), or, for a log whose header is not among the first lines, events with a
 * numeric `seq` (or a packed row's `seq0`) and a harness event type.
 */
function looksLikeHeader(value: Record<string, unknown>): boolean {
  return value.type === "session" && typeof value.createdAt === "number" && value.timestamp === undefined;
}

function looksLikeEvent(value: Record<string, unknown>): boolean {
  const type = str(value.type);
  if (type === null) return false;
  if (type.endsWith("-chunks")) return typeof value.seq0 === "number" || isObject(value.data);
  return typeof value.seq === "number" && KNOWN_EVENT_TYPES.has(type) && "data" in value;
}

function detectDeepseekHarness(firstLines: string[]): boolean {
  const objects = firstObjects(firstLines, 3);
  const first = objects[0];
  if (!first) return false;
  return looksLikeHeader(first) || (objects.length >= 2 && objects.every(looksLikeEvent));
}

/**
 * The number of member events a packed chunk row (`*-chunks`) stands for, or the reason it is not
 * one. The row stays one entry, as written: expanded, a long session's rows made hundreds of
 * thousands of `assistant/chunk` entries of a 16-character piece each, and nothing rebuilt from
 * the log reads a delta (the finished blocks are on `block-end` and `assistant/message`).
 */
function chunkRowMembers(row: Record<string, unknown>): number | string {
  const data = isObject(row.data) ? row.data : null;
  if (!data) return "packed chunk row without data";
  const toolCalls = row.type === "tool-call-chunks";
  const pieces = toolCalls ? data.args : data.texts;
  if (!Array.isArray(pieces) || pieces.some((piece) => typeof piece !== "string")) return `packed chunk row without its ${toolCalls ? "args" : "texts"} list`;
  return pieces.length;
}

/** The first millisecond of year 10000 (from there on an ISO year has six digits and a sign). */
const LAST_FOUR_DIGIT_YEAR_END = 253402300800000;

/** "000Z" … "999Z", made when first asked for: one string each, shared by every timestamp. */
const millisecondSuffixes: string[] = [];

function millisecondSuffix(ms: number): string {
  let suffix = millisecondSuffixes[ms];
  if (suffix === undefined) {
    suffix = `${String(ms).padStart(3, "0")}Z`;
    millisecondSuffixes[ms] = suffix;
  }
  return suffix;
}

class DeepseekHarnessLineReader extends StoredTextReader implements LineReader {
  private header: Record<string, unknown> | null = null;
  private readonly entries: SessionEntry[] = [];
  private readonly warnings: ReaderWarning[] = [];
  private lastLine = 0;
  private lastBadLine = 0;
  /** The seq the next event should carry (contiguous from 0). */
  private nextSeq = 0;
  private seqGapWarned = false;
  private readonly unknownTypes = new Map<string, number>();
  /** The last event time made a timestamp, and that timestamp: a run of chunks mostly shares one. */
  private lastTime: number | null = null;
  private lastTimestamp: string | null = null;
  /** The second of the last time made a timestamp, and its timestamp up to the milliseconds. */
  private lastSecond = -1;
  private secondPrefix = "";


  constructor(
    fileName: string,
    options: LineReaderOptions = {},
  ) {
    super(fileName, options);
  }

  pushLine(text: string, lineNumber: number): void {
    this.lastLine = lineNumber;
    if (text.trim() === "") return;
    this.readParsed(parseObjectLine(text), lineNumber);
  }

  /**
   * A line as bytes: its large texts are stored, and kept as bytes where an event may hold them
   * (storedTextPlaces.ts). Lines too short to hold a large text and lines that do not start an
   * object (blank ones, garbage) are read as text.
   */
  protected readLineBytes(bytes: Uint8Array, start: number, end: number, lineNumber: number, offset?: number): void {
    readStoredTextLine({ bytes, start, end, offset }, {
      store: () => {
        this.lastLine = lineNumber;
        return this.textStore();
      },
      asText: (text) => this.pushLine(text, lineNumber),
      keep: (raw, store, mark) => keepHarnessStoredTexts(raw, store, mark),
      // A line that makes no entry (a bad line, the header) keeps no bytes.
      read: (parsed) => this.readParsed(parsed, lineNumber),
    });
  }

  /** Reads a parsed line; true when it made an entry. */
  private readParsed(parsed: { value: Record<string, unknown>; note?: string } | { reason: string }, lineNumber: number): boolean {
    if ("reason" in parsed) {
      this.warnings.push({ line: lineNumber, reason: parsed.reason });
      this.lastBadLine = lineNumber;
      return false;
    }
    if (parsed.note) this.warnings.push({ line: lineNumber, reason: parsed.note });
    const value = parsed.value;
    if (this.header === null && this.entries.length === 0 && value.type === "session") {
      this.header = value;
      return false;
    }
    if (typeof value.type !== "string") {
      this.warnings.push({ line: lineNumber, reason: "an event without a type, line skipped" });
      this.lastBadLine = lineNumber;
      return false;
    }
    if (isPackedChunkType(value.type)) {
      const members = chunkRowMembers(value);
      if (typeof members === "string") {
        this.warnings.push({ line: lineNumber, reason: `${members}, line skipped` });
        this.lastBadLine = lineNumber;
        return false;
      }
      this.addEvent(value, lineNumber, num(value.seq0), num(value.time0), members);
      return true;
    }
    if (!KNOWN_EVENT_TYPES.has(value.type) && value.ignorable !== true) {
      this.unknownTypes.set(value.type, (this.unknownTypes.get(value.type) ?? 0) + 1);
      if (this.unknownTypes.get(value.type) === 1) {
        this.warnings.push({ line: lineNumber, reason: `event type "${value.type}" is not one this reader knows (a newer harness?): shown as an event, not interpreted` });
      }
    }
    this.addEvent(value, lineNumber, num(value.seq), num(value.time));
    return true;
  }

  /**
   * `seq` and `time`: the event's own (`num` of them; a packed row's `seq0` and `time0`), read once
   * by the caller; `members`: the seqs the line stands for (a packed row's members).
   */
  private addEvent(raw: Record<string, unknown>, lineNumber: number, ownSeq: number | null, time: number | null, members = 1): void {
    // The harness's own test snapshots carry no seq (DH-83): the position stands for it.
    let seq = ownSeq;
    if (seq === null) seq = this.nextSeq;
    else if (seq !== this.nextSeq && !this.seqGapWarned) {
      this.seqGapWarned = true;
      this.warnings.push({ line: lineNumber, reason: `event seq ${seq} where ${this.nextSeq} was expected: the log is not contiguous (events missing or out of order)` });
    }
    this.nextSeq = seq + members;
    const previous = this.entries[this.entries.length - 1];
    this.entries.push({
      id: entryIdOfSeq(seq),
      parentId: previous ? previous.id : null,
      type: String(raw.type),
      timestamp: this.timestampOf(time),
      line: lineNumber,
      // A packed row is kept as written: its first member's seq is its `seq0` (the entry id).
      raw: raw.seq === seq || isPackedChunkType(String(raw.type)) ? raw : { ...raw, seq },
    });
  }

  /** The ISO timestamp of an event time; one string for consecutive events of the same millisecond. */
  private timestampOf(time: number | null): string | null {
    if (time === null) return null;
    if (time !== this.lastTime) {
      this.lastTime = time;
      this.lastTimestamp = this.isoTimestamp(time);
    }
    return this.lastTimestamp;
  }

  /**
   * `new Date(time).toISOString()`. A log's events come tens to a second: the date and time of
   * day are made once per second and each event adds its milliseconds (one `Date` per second
   * instead of one per event). Times outside 1970–9999 or not whole milliseconds go through `Date`.
   */
  private isoTimestamp(time: number): string {
    if (!Number.isInteger(time) || time < 0 || time >= LAST_FOUR_DIGIT_YEAR_END) return new Date(time).toISOString();
    const second = Math.floor(time / 1000);
    if (second !== this.lastSecond) {
      this.lastSecond = second;
      this.secondPrefix = new Date(second * 1000).toISOString().slice(0, 20);
    }
    return this.secondPrefix + millisecondSuffix(time - second * 1000);
  }

  snapshot(): Session {
    return this.session([...this.warnings]);
  }

  finish(): Session {
    this.store = finishTextStore(this.store);
    const warnings = [...this.warnings];
    finishReadWarnings(warnings, this.lastLine, this.lastBadLine, null);
    if (this.header === null && this.entries.length > 0) warnings.unshift({ line: 0, reason: "no header line ({\"type\":\"session\",…}): the session id, working directory and parent are unknown" });
    return this.session(warnings);
  }

  private session(warnings: ReaderWarning[]): Session {
    const facts = { formatId: DEEPSEEK_HARNESS_FORMAT_ID, formatLabel: FORMAT_LABEL, fileName: this.fileName, formatVersion: this.header ? num(this.header.version) : null, header: this.header, lineCount: this.lastLine };
    return readerSession(facts, [...this.entries], warnings, this.store);
  }
}

export const deepseekHarnessReader: FormatReader = {
  id: DEEPSEEK_HARNESS_FORMAT_ID,
  label: FORMAT_LABEL,
  mismatchMessage:
    'not a deepseek-harness session: expected session.jsonl(.zstd) whose first line is {"type":"session","version":0,"id":…,"createdAt":…} followed by {"type":…,"seq":…} events',
  detect: (firstLines) => detectDeepseekHarness(firstLines),
  createLineReader: (fileName, options) => new DeepseekHarnessLineReader(fileName, options),
};
