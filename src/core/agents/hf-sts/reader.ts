// Reader of Hugging Face's Session Trace Simple Format (STS, docs/formats/sts.md): a JSONL file whose
// first line is the session header `{"type":"session","harness","id",…}` and whose every other line
// is one message envelope `{"type":"message","message":{role, content, toolCalls?, toolCallId?, …}}`.
// Every envelope becomes one entry in file order; conversation.ts folds them into the calls.
// Lenient: a bad line is a warning with its line number, never an exception.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { firstObjects } from "../../readers/jsonl-object";
import { readerSession } from "../../readers/finish";
import { LineTally } from "../../readers/line-tally";
import type { FormatReader, LineReader } from "../../readers/types";
import { isObject } from "../../util/is-object";

export const STS_FORMAT_ID = "hf-sts";
const FORMAT_LABEL = "Hugging Face session trace (STS)";

const EXPECTATION = 'a session trace (STS): a JSONL file whose first line is {"type":"session","harness":…,"id":…} and whose other lines are {"type":"message","message":{"role":…,"content":…}}';

const ROLES = new Set(["user", "assistant", "system", "tool"]);

/**
 * The header: `type: "session"` naming its harness. pi's header (which the Hub also takes, with a
 * `harness` added) always names its `cwd`; deepseek-harness's has a numeric `createdAt`.
 */
function looksLikeHeader(value: Record<string, unknown>): boolean {
  return value.type === "session" && typeof value.harness === "string" && !("cwd" in value) && typeof value.createdAt !== "number";
}

/** A message envelope: no entry id chain beside it (pi's entries carry `id` and `parentId`). */
function looksLikeEnvelope(value: Record<string, unknown>): boolean {
  return value.type === "message" && isObject(value.message) && typeof value.message.role === "string" && ROLES.has(value.message.role) && !("parentId" in value);
}

/**
 * The header first; among the few lines after it, message envelopes (when there are lines) and no
 * entry of pi's tree.
 */
function detectSts(firstLines: string[]): boolean {
  const [header, ...rest] = firstObjects(firstLines, 6);
  if (!header || !looksLikeHeader(header)) return false;
  return rest.every((value) => !("parentId" in value)) && (rest.length === 0 || rest.some(looksLikeEnvelope));
}

function isoTime(value: unknown): string | null {
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

class StsLineReader implements LineReader {
  private readonly entries: SessionEntry[] = [];
  private readonly tally = new LineTally();
  private readonly seenIds = new Set<string>();
  private header: Record<string, unknown> | null = null;

  constructor(private readonly fileName: string) {}

  pushLine(text: string, lineNumber: number): void {
    const raw = this.tally.object(text, lineNumber);
    if (raw === null) return;
    if (raw.type === "session") {
      if (this.header === null) this.header = raw;
      else this.tally.warn(lineNumber, "a second session header: its messages are read as more of the first session");
      return;
    }
    if (raw.type !== "message" || !isObject(raw.message)) {
      this.tally.skip(lineNumber, `not a session-trace message envelope (type ${JSON.stringify(raw.type ?? null)}), line skipped`);
      return;
    }
    const role = raw.message.role;
    if (typeof role !== "string" || !ROLES.has(role)) {
      this.tally.warn(lineNumber, `message with role ${JSON.stringify(role ?? null)}: not user, assistant, system or tool, line skipped`);
      return;
    }
    if (this.header === null && this.entries.length === 0) this.tally.warn(lineNumber, "no session header before the first message");
    const ownId = typeof raw.message.id === "string" && raw.message.id !== "" ? raw.message.id : null;
    const id = ownId !== null && !this.seenIds.has(ownId) ? ownId : `L${lineNumber}`;
    this.seenIds.add(id);
    const previous = this.entries[this.entries.length - 1]?.id ?? null;
    this.entries.push({ id, parentId: previous, type: "message", timestamp: isoTime(raw.message.timestamp), line: lineNumber, raw });
  }

  private session(entries: SessionEntry[], warnings: ReaderWarning[]): Session {
    return readerSession({ formatId: STS_FORMAT_ID, formatLabel: FORMAT_LABEL, fileName: this.fileName, formatVersion: null, header: this.header, lineCount: this.tally.lineCount }, entries, warnings);
  }

  finish(): Session {
    this.tally.finish(this.entries.length === 0 && this.header === null ? `no session header or message found: expected ${EXPECTATION}` : null);
    return this.session(this.entries, this.tally.warnings);
  }

  snapshot(): Session {
    return this.session(this.entries.slice(), this.tally.warnings.slice());
  }
}

export const stsReader: FormatReader = {
  id: STS_FORMAT_ID,
  label: FORMAT_LABEL,
  mismatchMessage: `not a session trace: expected ${EXPECTATION}`,
  detect: (firstLines) => detectSts(firstLines),
  createLineReader: (fileName) => new StsLineReader(fileName),
};
