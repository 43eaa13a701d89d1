// Reader for Claude Code session transcripts (JSONL, formats.md §1): one object per line.
// Conversation entries (`user`, `assistant`, `attachment`, `system`) carry `uuid`/`parentUuid`
// and become tree entries; bookkeeping records without a uuid (`api-request`, `api-request-shape`,
// `api-request-blob`, `last-prompt`, `queue-operation`, `cost-state`, …) are kept as parentless
// entries with a synthetic id so the pipeline can read them (FM-CC-2, FM-CC-18). Lenient: bad
// lines become warnings with their line number (FM-GEN-2). Lines handed as bytes (`pushLineBytes`,
// when readers keep stored texts) keep their large texts as bytes at the places
// ./storedTextPlaces.ts names; the session then carries the store they are in.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { firstObjects, parseObjectLine } from "../../readers/jsonl-object";
import { finishTextStore, finishReadWarnings, readerSession } from "../../readers/finish";
import type { FormatReader, LineReader, LineReaderOptions } from "../../readers/types";
import { isObject } from "../../util/is-object";
import { sameJsonValue } from "../../text/sameJsonValue";
import { StoredTextReader } from "../../readers/stored-text-reader";
import { readStoredTextLine, type StoredTextLineSteps } from "../../readers/stored-text-line";
import { keepClaudeStoredTexts } from "./storedTextPlaces";
import { inFileThreads } from "./threads";
import { LineStrings } from "./sharedStrings";

export const CLAUDE_FORMAT_ID = "claude-code";

/** Types of the entries that form the conversation tree (FM-CC-2). */
const CLAUDE_CONVERSATION_TYPES: readonly string[] = ["user", "assistant", "attachment", "system"];

/**
 * Record types Claude Code writes with a `sessionId` but without a place in the uuid tree; with a
 * session id they identify a Claude Code line in detection (FM-GEN-1).
 */
const SIGNATURE_TYPES = new Set([
  "user",
  "assistant",
  "system",
  "progress",
  "attachment",
  "summary",
  "queue-operation",
  "pr-link",
  "last-prompt",
  "custom-title",
  "tag",
  "agent-name",
]);

/** Objects looked at for a Claude Code line: every line `detect` is handed (the registry's first lines). */
const DETECTION_OBJECTS = 50;

const EXPECTATION =
  'a Claude Code transcript (~/.claude/projects/<project>/<session id>.jsonl): JSONL objects with "sessionId" and "parentUuid" or a "type" such as "user", "assistant" or "queue-operation"';

/**
 * True for a line only Claude Code writes: a conversation or progress line (session id plus the
 * uuid chain), a typed record with a session id, an old `summary` line naming its leaf, or a
 * `file-history-snapshot` (which carries no session id).
 */
function isClaudeObject(value: Record<string, unknown>): boolean {
  if (typeof value.type !== "string") return false;
  // Another agent's record with the same uuid chain: Claude Code writes no `provenance` and no
  // message of Gemini-style `parts` (Qwen Code, a Gemini CLI fork, writes both).
  if (typeof value.provenance === "string" || (isObject(value.message) && Array.isArray(value.message.parts))) return false;
  if (value.type === "summary" && typeof value.leafUuid === "string") return true;
  if (value.type === "file-history-snapshot" && typeof value.messageId === "string" && isObject(value.snapshot)) return true;
  if (typeof value.sessionId !== "string") return false;
  return "parentUuid" in value || typeof value.uuid === "string" || SIGNATURE_TYPES.has(value.type);
}

/**
 * A file is a Claude Code transcript when any of its first objects is a Claude Code line: files
 * often open with lines that name no session (`file-history-snapshot`, `summary`), and a few bad
 * lines at the top must not hide the rest.
 */
export function detectClaude(firstLines: string[]): boolean {
  return firstObjects(firstLines, DETECTION_OBJECTS).some(isClaudeObject);
}

class ClaudeLineReader extends StoredTextReader implements LineReader {
  private readonly entries: SessionEntry[] = [];
  private readonly warnings: ReaderWarning[] = [];
  /**
   * The entry read for each uuid, to tell a re-written copy of it from another entry under the
   * same uuid; with `syntheticIds`, every id given so far (one table per line, not two).
   */
  private readonly entryByUuid = new Map<string, SessionEntry>();
  /** The ids made for bookkeeping records (`type@line`), which a later uuid must not take either. */
  private readonly syntheticIds = new Set<string>();
  /** Later copies of entries read already, with the same content (a resumed session writes its chain again). */
  private rewrittenCopies = 0;
  /** The strings every line repeats, held once (sharedStrings.ts). */
  private readonly strings = new LineStrings();
  private readonly heldUuid = (uuid: string): string | undefined => this.entryByUuid.get(uuid)?.id;
  private header: Record<string, unknown> | null = null;
  private lastLine = 0;
  private lastBadLine = -1;
  private conversationCount = 0;

  constructor(fileName: string, options: LineReaderOptions = {}) {
    super(fileName, options);
  }

  pushLine(text: string, lineNumber: number): void {
    this.lastLine = lineNumber;
    if (text.trim() === "") return;
    this.readParsed(parseObjectLine(text), lineNumber);
  }

  /**
   * A line as bytes: its large texts are stored, and kept as bytes where a line may hold them
   * (storedTextPlaces.ts). Lines too short to hold a large text and lines that do not start an
   * object (blank ones, garbage) are read as text.
   */
  protected readLineBytes(bytes: Uint8Array, start: number, end: number, lineNumber: number, offset?: number): void {
    this.lastLine = lineNumber;
    readStoredTextLine({ bytes, start, end, offset }, this.lineSteps);
  }

  /** The steps of a line read as bytes, made once for the reader (the line is `lastLine`), not per line. */
  private readonly lineSteps: StoredTextLineSteps = {
    store: () => this.textStore(),
    asText: (text) => this.pushLine(text, this.lastLine),
    keep: keepClaudeStoredTexts,
    // A line that makes no entry (a duplicate uuid, an object without a type) keeps no bytes.
    read: (parsed) => {
      const before = this.entries.length;
      this.readParsed(parsed, this.lastLine);
      return this.entries.length > before;
    },
  };

  private readParsed(parsed: ReturnType<typeof parseObjectLine>, lineNumber: number): void {
    if ("reason" in parsed) {
      this.lastBadLine = lineNumber;
      this.warnings.push({ line: lineNumber, reason: parsed.reason });
      return;
    }
    if (parsed.note) this.warnings.push({ line: lineNumber, reason: parsed.note });
    const raw = parsed.value;
    if (typeof raw.type !== "string") {
      this.lastBadLine = lineNumber;
      this.warnings.push({ line: lineNumber, reason: "object without a string `type`, line skipped" });
      return;
    }
    const type = raw.type;
    let id: string;
    let parentId: string | null = null;
    if (typeof raw.uuid === "string" && raw.uuid !== "") {
      id = raw.uuid;
      const first = this.entryByUuid.get(id);
      if (first !== undefined || this.syntheticIds.has(id)) {
        if (first && isRewrittenCopy(first.raw, raw)) this.rewrittenCopies += 1;
        else this.warnings.push({ line: lineNumber, reason: `duplicate uuid ${id} with other content: later copy skipped` });
        return;
      }
      this.strings.share(raw, this.heldUuid);
      if (typeof raw.parentUuid === "string") parentId = raw.parentUuid;
      else if (raw.parentUuid !== null && raw.parentUuid !== undefined) {
        this.warnings.push({ line: lineNumber, reason: "`parentUuid` is not a string; treated as a root entry" });
      }
    } else {
      if (CLAUDE_CONVERSATION_TYPES.includes(type)) {
        this.warnings.push({ line: lineNumber, reason: `${type} entry without a uuid: kept outside the tree` });
      }
      // Bookkeeping record: never sent, no place in the tree (FM-CC-2).
      this.strings.share(raw, this.heldUuid);
      id = `${type}@${lineNumber}`;
      this.syntheticIds.add(id);
    }
    if (CLAUDE_CONVERSATION_TYPES.includes(type) && typeof raw.uuid === "string") {
      this.conversationCount += 1;
      if (this.header === null) this.header = headerOf(raw);
    }
    const entry: SessionEntry = { id, parentId, type, timestamp: typeof raw.timestamp === "string" ? raw.timestamp : null, line: lineNumber, raw };
    if (typeof raw.uuid === "string") this.entryByUuid.set(id, entry);
    this.entries.push(entry);
  }

  finish(): Session {
    this.store = finishTextStore(this.store);
    finishReadWarnings(this.warnings, this.lastLine, this.lastBadLine, this.conversationCount === 0 ? `no conversation entries found: expected ${EXPECTATION}` : null);
    return this.sessionOf(this.entries, this.warnings);
  }

  snapshot(): Session {
    // Copies of the lists: the reader keeps appending to its own.
    return this.sessionOf(this.entries.slice(), this.warnings.slice());
  }

  private sessionOf(entries: Session["entries"], warnings: Session["warnings"]): Session {
    const facts = { formatId: CLAUDE_FORMAT_ID, formatLabel: "Claude Code transcript", fileName: this.fileName, formatVersion: null, header: this.header, headerIsLine: false as const, lineCount: this.lastLine };
    const session = readerSession(facts, entries, warnings, this.store);
    if (this.rewrittenCopies > 0) session.skippedLines = [{ what: "re-written copy", count: this.rewrittenCopies, why: REWRITTEN_COPY }];
    const threads = inFileThreads(session);
    if (threads.length > 0) session.threads = threads;
    return session;
  }
}



/** Why the reader skips re-written copies, for the report of what a file holds. */
const REWRITTEN_COPY = "a line Claude Code wrote again when the session was resumed: the first copy is read";

/**
 * True when a later line under an entry's uuid is that entry written again: same type, parent and
 * message. Claude Code writes a session's chain again when it is resumed, adding bookkeeping fields
 * (`slug`, `promptId`) and leaving out the file contents of `toolUseResult`; the first copy is kept.
 */
function isRewrittenCopy(first: Record<string, unknown>, later: Record<string, unknown>): boolean {
  return first.type === later.type && first.parentUuid === later.parentUuid && sameJsonValue(first.message, later.message);
}

/** Session facts repeated on every conversation entry (FM-CC-3), taken from the first one. */
function headerOf(raw: Record<string, unknown>): Record<string, unknown> {
  const header: Record<string, unknown> = { agent: "claude-code" };
  for (const key of ["sessionId", "version", "cwd", "gitBranch", "entrypoint", "userType"]) {
    if (typeof raw[key] === "string") header[key] = raw[key];
  }
  return header;
}

export const claudeReader: FormatReader = {
  id: CLAUDE_FORMAT_ID,
  label: "Claude Code transcript (JSONL)",
  mismatchMessage: `not a Claude Code session: expected ${EXPECTATION}`,
  detect: (firstLines) => detectClaude(firstLines),
  createLineReader: (fileName, options) => new ClaudeLineReader(fileName, options),
};
