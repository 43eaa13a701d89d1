// Reader for Codex CLI rollout files (JSONL, formats.md §2): one `{timestamp, type, payload}`
// object per line, `session_meta` first (FM-CX-2), and the older line shapes of lines.ts (tagged
// `record_type` lines; the pre-envelope rollout of bare items after an untagged meta line).
// Entries are kept in file order as a linear chain with synthetic ids from their line numbers
// (the rollout has no entry ids), typed by the envelope type their line maps to. Lenient: bad
// lines become warnings with their line number (FM-GEN-2).
import type { Session, SessionEntry } from "../../model";
import { firstObjects } from "../../readers/jsonl-object";
import { readerSession } from "../../readers/finish";
import { LineTally } from "../../readers/line-tally";
import { isObject } from "../../util/is-object";
import type { FormatReader, LineReader, LineReaderOptions } from "../../readers/types";
import { finishTextStore } from "../../readers/finish";
import { StoredTextReader } from "../../readers/stored-text-reader";
import { readStoredTextLine } from "../../readers/stored-text-line";
import { isLegacyMeta, linePayload, rolloutLineType } from "./lines";
import { keepCodexStoredTexts, mayKeepStoredTexts } from "./storedTextPlaces";
import { utf8Decode } from "../../util/utf8";

export const CODEX_FORMAT_ID = "codex";

const EXPECTATION =
  'a Codex CLI rollout (~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl): JSONL objects {"timestamp","type","payload"} whose first line has "type":"session_meta"';

/** Bare response item types a pre-envelope rollout starts with. */
const LEGACY_ITEM_TYPES = new Set(["message", "reasoning", "function_call", "function_call_output", "local_shell_call", "custom_tool_call", "custom_tool_call_output", "web_search_call"]);

/** Envelope types of the lines after session_meta (FM-CX-2). */
const ENVELOPE_TYPES = new Set(["session_meta", "response_item", "event_msg", "turn_context", "compacted"]);

function isEnvelopeLine(value: Record<string, unknown>): boolean {
  return typeof value.timestamp === "string" && typeof value.type === "string" && ENVELOPE_TYPES.has(value.type) && isObject(value.payload);
}

/**
 * A rollout whose session_meta line is missing or damaged (cut, edited, a bit flipped): the lines
 * after it are still Codex's own envelope, which no other agent writes. At least two of them, and
 * nearly every object seen one, so a file of some other kind with one such line is not taken.
 */
function envelopeLinesWithoutMeta(objects: readonly Record<string, unknown>[]): boolean {
  const envelopes = objects.filter(isEnvelopeLine).length;
  return envelopes >= 2 && envelopes >= (objects.length - 1) * 0.8;
}

export function detectCodex(firstLines: string[]): boolean {
  const objects = firstObjects(firstLines, firstLines.length);
  const first = objects[0];
  if (first === undefined) return false;
  if (first.type === "session_meta" && isObject(first.payload)) return true;
  if (first.record_type === "session_meta" && typeof first.id === "string") return true;
  if (envelopeLinesWithoutMeta(objects)) return true;
  if (!isLegacyMeta(first)) return false;
  // The untagged meta line names only an id and a time: ask for a Codex key, or Codex lines after it.
  if ("instructions" in first || "git" in first) return true;
  return objects.slice(1).some((o) => o.record_type === "state" || (typeof o.type === "string" && !("payload" in o) && LEGACY_ITEM_TYPES.has(o.type)));
}

/** Stable synthetic id of the entry on `line`. */
function codexEntryId(line: number): string {
  return `L${line}`;
}

class CodexLineReader extends StoredTextReader implements LineReader {
  private readonly entries: SessionEntry[] = [];
  private header: Record<string, unknown> | null = null;
  private previousId: string | null = null;
  private readonly lines = new LineTally();
  /** The first line was the untagged meta line of a pre-envelope rollout (lines.ts). */
  private preEnvelope = false;


  constructor(fileName: string, options: LineReaderOptions = {}) {
    super(fileName, options);
  }

  pushLine(text: string, lineNumber: number): void {
    this.readObject(this.lines.object(text, lineNumber), lineNumber);
  }

  /**
   * A line as bytes: its large texts are stored, and kept as bytes where a line may hold them
   * (storedTextPlaces.ts). Lines too short to hold a large text, lines without such places and
   * lines that do not start an object (blank ones, garbage) are read as text.
   */
  protected readLineBytes(bytes: Uint8Array, start: number, end: number, lineNumber: number, offset?: number): void {
    // A line that has no place to keep a text (an event, a compaction) is read as text.
    if (!mayKeepStoredTexts(bytes, start, end)) {
      this.pushLine(utf8Decode(bytes.subarray(start, end)), lineNumber);
      return;
    }
    readStoredTextLine({ bytes, start, end, offset }, {
      store: () => this.textStore(),
      asText: (text) => this.pushLine(text, lineNumber),
      keep: (raw, store, mark) => keepCodexStoredTexts(raw, store, mark),
      // A line that makes no entry (not a rollout line) keeps no bytes.
      read: (parsed) => this.readObject(this.lines.parsed(parsed, lineNumber), lineNumber),
    });
  }

  /** Reads a parsed line (null: blank or skipped); true when it made an entry. */
  private readObject(raw: Record<string, unknown> | null, lineNumber: number): boolean {
    if (raw === null) return false;
    const first = this.entries.length === 0;
    const type = rolloutLineType(raw, first, this.preEnvelope);
    if (first && type === "session_meta" && isLegacyMeta(raw)) this.preEnvelope = true;
    if (type === null) {
      this.lines.skip(lineNumber, "not a rollout line ({timestamp, type, payload}), line skipped");
      return false;
    }
    const entry: SessionEntry = {
      id: codexEntryId(lineNumber),
      parentId: this.previousId,
      type,
      timestamp: typeof raw.timestamp === "string" ? raw.timestamp : null,
      line: lineNumber,
      raw,
    };
    if (type === "session_meta") {
      // A later session_meta is normal: a forked thread's rollout copies its source thread's
      // lines, that thread's meta included. The first one describes this file's thread.
      if (this.header === null) {
        if (this.entries.length > 0) {
          this.lines.warn(lineNumber, "session_meta is not the first line");
        }
        this.header = { agent: "codex", ...linePayload(entry) };
      }
    } else if (this.header === null && this.entries.length === 0) {
      this.lines.warn(lineNumber, "rollout does not start with session_meta (its first line is missing or damaged): every later line is read; the session facts it holds (id, cwd, instructions) are unknown");
    }
    const id = entry.id;
    this.entries.push(entry);
    this.previousId = id;
    return true;
  }

  finish(): Session {
    this.store = finishTextStore(this.store);
    this.lines.finish(this.entries.length === 0 ? `no rollout lines found: expected ${EXPECTATION}` : null);
    return this.sessionOf(this.entries, this.lines.warnings);
  }

  snapshot(): Session {
    // Copies of the lists: the reader keeps appending to its own.
    return this.sessionOf(this.entries.slice(), this.lines.warnings.slice());
  }

  private sessionOf(entries: Session["entries"], warnings: Session["warnings"]): Session {
    return readerSession({ formatId: CODEX_FORMAT_ID, formatLabel: "Codex CLI rollout", fileName: this.fileName, formatVersion: null, header: this.header, headerIsLine: false, lineCount: this.lines.lineCount }, entries, warnings, this.store);
  }
}

export const codexReader: FormatReader = {
  id: CODEX_FORMAT_ID,
  label: "Codex CLI rollout (JSONL)",
  mismatchMessage: `not a Codex session: expected ${EXPECTATION}`,
  detect: (firstLines) => detectCodex(firstLines),
  createLineReader: (fileName, options) => new CodexLineReader(fileName, options),
};
