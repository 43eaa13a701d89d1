// Reader for a JSON array of OpenAI chat messages (formats.md FM-RQ-5), also accepted wrapped as
// `{"messages": [...]}`: the documented hermes-agent input (FM-HA-1). The document is scanned
// element by element (src/core/readers/json-elements.ts) so that each message keeps its line number,
// a bad element becomes a warning without losing the others, and a truncated file keeps every
// complete message. Each good message becomes one entry of a linear session, `raw` being the
// message exactly as written (unknown keys included, FM-RQ-6).
import { parseJsonCapped } from "../../util/json-depth";
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { scanTopLevelElements, type ElementScan } from "../../readers/json-elements";
import type { FormatReader, LineReader } from "../../readers/types";
import { readerSession } from "../../readers/finish";
import { isObject } from "../../util/is-object";
import { capMessageDepth } from "./storage/depth";

/** The reader's id (a share link names it to reopen its session). */
const MESSAGES_FORMAT_ID = "chat-messages";
/** `Session.formatId` of the sessions this reader makes: the hermes agent. */
export const HERMES_FORMAT_ID = "hermes";
const MESSAGES_FORMAT_LABEL = "chat message list (OpenAI / hermes-agent)";

/** Roles FM-RQ-5 accepts. */
const CHAT_ROLES: ReadonlySet<string> = new Set(["system", "developer", "user", "assistant", "tool", "function"]);

const DETECT_LINES = 20;
const DETECT_CHARS = 4096;

/** A key at any depth of the head (not inside a JSON string: the quote is not escaped). */
function hasKey(head: string, key: string): boolean {
  return new RegExp(`(^|[^\\\\])"${key}"\\s*:`).test(head);
}

/**
 * An array whose first element is an object with a chat `role` (FM-GEN-1: "JSON array of objects
 * with role"). Heads with request-body keys (`model`, `input`, `contents`, a nested `messages`:
 * an array of captured bodies, FM-RQ-1) are left to the captured-request path. A `{"messages":
 * [...]}` object is a captured request by FM-GEN-1, so it is never detected; the reader still
 * accepts it when the format is chosen explicitly. The opencode export starts `{"info"`.
 */
function detectMessageList(firstLines: string[]): boolean {
  const head = firstLines
    .slice(0, DETECT_LINES)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("")
    .slice(0, DETECT_CHARS);
  if (hasKey(head, "model") || hasKey(head, "input") || hasKey(head, "contents")) return false;
  const roles = [...CHAT_ROLES].join("|");
  const roleValue = new RegExp(`(^|[^\\\\])"role"\\s*:\\s*"(${roles})"`);
  return /^\[\s*\{/.test(head) && !hasKey(head, "messages") && roleValue.test(head);
}

/** Why `value` is not a chat message, or null when it is one (FM-RQ-5). */
function messageProblem(value: unknown): string | null {
  if (!isObject(value)) return `not an object (${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value})`;
  if (typeof value.role !== "string") return "no role";
  if (!CHAT_ROLES.has(value.role)) return `unknown role "${value.role}"`;
  const content = value.content;
  if (content !== undefined && content !== null && typeof content !== "string" && !Array.isArray(content)) {
    return "content is neither a string, an array of parts nor null";
  }
  if (value.tool_calls !== undefined && value.tool_calls !== null && !Array.isArray(value.tool_calls)) return "tool_calls is not an array";
  return null;
}

/**
 * The storage header a share link writes as its first line when the session was read from
 * hermes-agent's storage (state.db, snapshots, transcripts): its sessions, segments, models and
 * tools, which the messages alone do not hold. Null when the first line is not one.
 */
export function sharedStorageHeader(text: string): { header: Record<string, unknown>; rest: string; lineOffset: number } | null {
  if (!text.startsWith('{"hermesStorage":true')) return null;
  const end = text.indexOf("\n");
  try {
    const parsed = parseJsonCapped(end < 0 ? text : text.slice(0, end)).value;
    if (!isObject(parsed) || parsed.hermesStorage !== true) return null;
    return { header: parsed, rest: end < 0 ? "" : text.slice(end + 1), lineOffset: 1 };
  } catch {
    return null;
  }
}

/** One element per non-blank line of `text` (a share link's messages, one JSON text per line). */
function lineElements(text: string): ElementScan {
  const elements = text.split("\n").flatMap((line, index) => (line.trim() === "" ? [] : [{ text: line.trim(), line: index + 1 }]));
  return { elements, wrapped: false, warnings: [] };
}

/**
 * Reads a message-list document held as one string (or, after a share link's storage header
 * line, the messages of a session read from hermes-agent's storage). Never throws.
 */
export function readMessageListText(text: string, fileName: string, lineCount = 0): Session {
  const warnings: ReaderWarning[] = [];
  const entries: SessionEntry[] = [];
  const stored = sharedStorageHeader(text);
  // After a storage header, one message per line (as the share wrote them); else the document.
  const scan: ElementScan = stored ? lineElements(stored.rest) : scanTopLevelElements(text);
  warnings.push(...scan.warnings);
  scan.elements.forEach((element, index) => {
    let value: unknown;
    try {
      const parsed = parseJsonCapped(element.text);
      value = parsed.value;
      if (parsed.note) warnings.push({ line: element.line, reason: `message [${index}]: ${parsed.note}` });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      warnings.push({ line: element.line, reason: `message [${index}]: not valid JSON (${detail})` });
      return;
    }
    const problem = messageProblem(value);
    if (problem) {
      warnings.push({ line: element.line, reason: `message [${index}]: ${problem}; skipped` });
      return;
    }
    const previous = entries[entries.length - 1];
    entries.push({
      id: `m${index}`,
      parentId: previous ? previous.id : null,
      type: "message",
      timestamp: null,
      line: element.line + (stored?.lineOffset ?? 0),
      raw: capMessageDepth(value as Record<string, unknown>, `message [${index}]`, element.line, warnings),
    });
  });
  const facts = { formatId: HERMES_FORMAT_ID, formatLabel: MESSAGES_FORMAT_LABEL, fileName, formatVersion: null, header: stored ? stored.header : { wrapped: scan.wrapped }, lineCount: lineCount || text.split("\n").length };
  return readerSession(facts, entries, warnings);
}

class MessageListLineReader implements LineReader {
  private readonly lines: string[] = [];
  private lastLine = 0;
  constructor(private readonly fileName: string) {}

  pushLine(text: string, lineNumber: number): void {
    // Keep line numbers aligned with the file even if the caller skipped lines.
    while (this.lines.length < lineNumber - 1) this.lines.push("");
    this.lines.push(text);
    this.lastLine = lineNumber;
  }

  finish(): Session {
    return readMessageListText(this.lines.join("\n"), this.fileName, this.lastLine);
  }
}

export const messageListReader: FormatReader = {
  id: MESSAGES_FORMAT_ID,
  label: MESSAGES_FORMAT_LABEL,
  mismatchMessage:
    'not a chat message list: expected a JSON array of OpenAI chat messages ([{"role":"user","content":…},…]) (a {"messages":[…]} object is read as a captured request)',
  detect: (firstLines) => detectMessageList(firstLines),
  createLineReader: (fileName) => new MessageListLineReader(fileName),
  readWhole: (text, fileName) => readMessageListText(text, fileName),
};
