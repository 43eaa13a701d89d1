// Reader of GitHub Copilot CLI event logs (docs/formats/copilot-cli.md):
// ~/.copilot/session-state/<session id>/events.jsonl, one event per line
// `{type, data, id, timestamp, parentId}` (sub-agents' events also carry `agentId`). Every line
// becomes one entry in file order, named by its event type; turns.ts folds them into the
// conversation of every call. Lenient: a bad line is a warning with its line number, never an
// exception; an event type the catalog does not know is named in a warning and kept.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { firstObjects } from "../../readers/jsonl-object";
import { readerSession } from "../../readers/finish";
import { LineTally } from "../../readers/line-tally";
import type { FormatReader, LineReader } from "../../readers/types";
import { isObject } from "../../util/is-object";
import { COPILOT_RECORD_CATALOG } from "./recordTypes";

export const COPILOT_CLI_FORMAT_ID = "copilot-cli";
const FORMAT_LABEL = "GitHub Copilot CLI event log";

const EXPECTATION =
  'a GitHub Copilot CLI event log (~/.copilot/session-state/<session id>/events.jsonl): JSONL events {"type":"session.start", "data":{…}, "id", "timestamp", "parentId"}';

const KNOWN_TYPES = new Set([...COPILOT_RECORD_CATALOG.read, ...Object.keys(COPILOT_RECORD_CATALOG.skipped)]);

/** The event types that, in the event envelope, say the file is Copilot CLI's. */
const SIGNATURE_TYPES = new Set(["session.start", "session.resume", "user.message", "assistant.message", "assistant.turn_start", "tool.execution_start", "tool.execution_complete", "session.shutdown"]);

/** A Copilot CLI event: a dotted type, a `data` object, an id and a `parentId` (null for the first). */
function isCopilotEvent(value: Record<string, unknown>): boolean {
  if (typeof value.type !== "string" || !isObject(value.data) || typeof value.id !== "string" || !("parentId" in value)) return false;
  if (value.type === "session.start" && value.data.producer === "copilot-agent") return true;
  return SIGNATURE_TYPES.has(value.type) && typeof value.timestamp === "string";
}

function detectCopilotCli(firstLines: string[]): boolean {
  return firstObjects(firstLines, 20).some(isCopilotEvent);
}

class CopilotLineReader implements LineReader {
  private readonly entries: SessionEntry[] = [];
  private readonly seenIds = new Set<string>();
  private readonly unknownTypes = new Set<string>();
  private header: Record<string, unknown> | null = null;
  private readonly lines = new LineTally();

  constructor(private readonly fileName: string) {}

  pushLine(text: string, lineNumber: number): void {
    const raw = this.lines.record(text, lineNumber, "not a Copilot CLI event (no type), line skipped");
    if (raw === null) return;
    if (!isObject(raw.data)) this.lines.warn(lineNumber, `${raw.type} event without a data object: read as empty`);
    if (!KNOWN_TYPES.has(raw.type) && !this.unknownTypes.has(raw.type)) {
      // Named once per type: a newer CLI's event is kept in the entries, never sent.
      this.unknownTypes.add(raw.type);
      this.lines.warn(lineNumber, `event type "${raw.type}" is not one Contextscope knows of Copilot CLI 1.0.102; it is kept but never sent`);
    }
    if (this.header === null && (raw.type === "session.start" || raw.type === "session.resume") && isObject(raw.data)) {
      const data = raw.data;
      const context = isObject(data.context) ? data.context : {};
      this.header = { agent: COPILOT_CLI_FORMAT_ID, sessionId: data.sessionId ?? null, cwd: context.cwd ?? null, version: data.copilotVersion ?? null, selectedModel: data.selectedModel ?? null };
    }
    const id = typeof raw.id === "string" && !this.seenIds.has(raw.id) ? raw.id : `L${lineNumber}`;
    if (typeof raw.id === "string" && id !== raw.id) this.lines.warn(lineNumber, `event id ${raw.id} was used by an earlier line; this event is read as its own entry`);
    this.seenIds.add(id);
    const previous = this.entries[this.entries.length - 1]?.id ?? null;
    const timestamp = typeof raw.timestamp === "string" ? raw.timestamp : null;
    this.entries.push({ id, parentId: previous, type: raw.type, timestamp, line: lineNumber, raw });
  }

  private session(entries: SessionEntry[], warnings: ReaderWarning[]): Session {
    return readerSession({ formatId: COPILOT_CLI_FORMAT_ID, formatLabel: FORMAT_LABEL, fileName: this.fileName, formatVersion: null, header: this.header, headerIsLine: false, lineCount: this.lines.lineCount }, entries, warnings);
  }

  finish(): Session {
    this.lines.finish(this.entries.length === 0 ? `no events found: expected ${EXPECTATION}` : null);
    return this.session(this.entries, this.lines.warnings);
  }

  snapshot(): Session {
    return this.session(this.entries.slice(), this.lines.warnings.slice());
  }
}

export const copilotCliReader: FormatReader = {
  id: COPILOT_CLI_FORMAT_ID,
  label: FORMAT_LABEL,
  mismatchMessage: `not a GitHub Copilot CLI event log: expected ${EXPECTATION}`,
  detect: (firstLines) => detectCopilotCli(firstLines),
  createLineReader: (fileName) => new CopilotLineReader(fileName),
};
