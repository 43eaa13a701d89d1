// Reader of a deepseek-harness session log (docs/formats/deepseek-harness.md): `session.jsonl`, or
// `session.jsonl.zstd` once its Zstandard frames are decoded (src/core/intake/containers/zstd.ts; the bytes,
// not the name, say it is compressed). Line 1 is the header `{"type":"session","version":0,"id",
// "createdAt",…}`; every other line is one event `{type, seq, time, data, …}` or a packed chunk
// row (`text-chunks`, `reasoning-chunks`, `tool-call-chunks`) that stands for a run of
// `assistant/chunk` events and is expanded back into them here. `version` has been 0 through many
// shape changes, so shapes are recognised, not numbers. A bad line is a warning with its line
// number; the entries around it are kept.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { firstObjects, parseObjectLine } from "../../readers/jsonl-object";
import { finishReadWarnings, readerSession } from "../../readers/finish";
import type { FormatReader, LineReader } from "../../readers/types";
import { isObject } from "../../util/is-object";
import { DEEPSEEK_HARNESS_FORMAT_ID, entryIdOfSeq, KNOWN_EVENT_TYPES, num, str } from "./events";

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

/** The member events of a packed chunk row (`*-chunks`), or the reason it cannot be expanded. */
function expandChunkRow(row: Record<string, unknown>): Record<string, unknown>[] | string {
  const data = isObject(row.data) ? row.data : null;
  if (!data) return "packed chunk row without data";
  const pieces = row.type === "tool-call-chunks" ? data.args : data.texts;
  if (!Array.isArray(pieces) || pieces.some((piece) => typeof piece !== "string")) return `packed chunk row without its ${row.type === "tool-call-chunks" ? "args" : "texts"} list`;
  const dt = Array.isArray(data.dt) ? data.dt : [];
  const seq0 = num(row.seq0);
  const time0 = num(row.time0);
  const members: Record<string, unknown>[] = [];
  let time = time0;
  (pieces as string[]).forEach((piece, k) => {
    if (k > 0 && time !== null) time += num(dt[k - 1]) ?? 0;
    let chunk: Record<string, unknown>;
    if (row.type === "tool-call-chunks") {
      chunk = { type: "tool-call-delta", index: data.index, id: data.id, ...("name" in data ? { name: data.name } : {}), argumentsDelta: piece };
    } else {
      chunk = { type: row.type === "reasoning-chunks" ? "reasoning-delta" : "text-delta", index: data.index, text: piece };
    }
    members.push({
      type: "assistant/chunk",
      ...(seq0 !== null ? { seq: seq0 + k } : {}),
      ...(time !== null ? { time } : {}),
      data: { turn: data.turn, step: data.step, chunk },
    });
  });
  return members;
}

class DeepseekHarnessLineReader implements LineReader {
  private header: Record<string, unknown> | null = null;
  private readonly entries: SessionEntry[] = [];
  private readonly warnings: ReaderWarning[] = [];
  private lastLine = 0;
  private lastBadLine = 0;
  /** The seq the next event should carry (contiguous from 0). */
  private nextSeq = 0;
  private seqGapWarned = false;
  private readonly unknownTypes = new Map<string, number>();

  constructor(private readonly fileName: string) {}

  pushLine(text: string, lineNumber: number): void {
    this.lastLine = lineNumber;
    if (text.trim() === "") return;
    const parsed = parseObjectLine(text);
    if ("reason" in parsed) {
      this.warnings.push({ line: lineNumber, reason: parsed.reason });
      this.lastBadLine = lineNumber;
      return;
    }
    if (parsed.note) this.warnings.push({ line: lineNumber, reason: parsed.note });
    const value = parsed.value;
    if (this.header === null && this.entries.length === 0 && value.type === "session") {
      this.header = value;
      return;
    }
    if (typeof value.type !== "string") {
      this.warnings.push({ line: lineNumber, reason: "an event without a type, line skipped" });
      this.lastBadLine = lineNumber;
      return;
    }
    if (value.type.endsWith("-chunks")) {
      const members = expandChunkRow(value);
      if (typeof members === "string") {
        this.warnings.push({ line: lineNumber, reason: `${members}, line skipped` });
        this.lastBadLine = lineNumber;
        return;
      }
      for (const member of members) this.addEvent(member, lineNumber);
      return;
    }
    if (!KNOWN_EVENT_TYPES.has(value.type) && value.ignorable !== true) {
      this.unknownTypes.set(value.type, (this.unknownTypes.get(value.type) ?? 0) + 1);
      if (this.unknownTypes.get(value.type) === 1) {
        this.warnings.push({ line: lineNumber, reason: `event type "${value.type}" is not one this reader knows (a newer harness?): shown as an event, not interpreted` });
      }
    }
    this.addEvent(value, lineNumber);
  }

  private addEvent(raw: Record<string, unknown>, lineNumber: number): void {
    // The harness's own test snapshots carry no seq (DH-83): the position stands for it.
    let seq = num(raw.seq);
    if (seq === null) seq = this.nextSeq;
    else if (seq !== this.nextSeq && !this.seqGapWarned) {
      this.seqGapWarned = true;
      this.warnings.push({ line: lineNumber, reason: `event seq ${seq} where ${this.nextSeq} was expected: the log is not contiguous (events missing or out of order)` });
    }
    this.nextSeq = seq + 1;
    const previous = this.entries[this.entries.length - 1];
    const time = num(raw.time);
    this.entries.push({
      id: entryIdOfSeq(seq),
      parentId: previous ? previous.id : null,
      type: String(raw.type),
      timestamp: time === null ? null : new Date(time).toISOString(),
      line: lineNumber,
      raw: raw.seq === seq ? raw : { ...raw, seq },
    });
  }

  snapshot(): Session {
    return this.session([...this.warnings]);
  }

  finish(): Session {
    const warnings = [...this.warnings];
    finishReadWarnings(warnings, this.lastLine, this.lastBadLine, null);
    if (this.header === null && this.entries.length > 0) warnings.unshift({ line: 0, reason: "no header line ({\"type\":\"session\",…}): the session id, working directory and parent are unknown" });
    return this.session(warnings);
  }

  private session(warnings: ReaderWarning[]): Session {
    const facts = { formatId: DEEPSEEK_HARNESS_FORMAT_ID, formatLabel: FORMAT_LABEL, fileName: this.fileName, formatVersion: this.header ? num(this.header.version) : null, header: this.header, lineCount: this.lastLine };
    return readerSession(facts, [...this.entries], warnings);
  }
}

export const deepseekHarnessReader: FormatReader = {
  id: DEEPSEEK_HARNESS_FORMAT_ID,
  label: FORMAT_LABEL,
  mismatchMessage:
    'not a deepseek-harness session: expected session.jsonl(.zstd) whose first line is {"type":"session","version":0,"id":…,"createdAt":…} followed by {"type":…,"seq":…} events',
  detect: (firstLines) => detectDeepseekHarness(firstLines),
  createLineReader: (fileName) => new DeepseekHarnessLineReader(fileName),
};
