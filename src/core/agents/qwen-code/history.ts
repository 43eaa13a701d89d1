// The fold of a Qwen Code chat file into the history of every request (docs/formats/qwen-code.md),
// the way Qwen Code 0.24.4 rebuilds it on `--continue` (SessionApiHistoryAccumulator): `user`,
// `assistant` and `tool_result` records append their Gemini-style message; a `system` record of
// subtype `chat_compression` replaces the whole history with its `compressedHistory`. One call per
// `assistant` record that carries `usageMetadata`: its request held the history just before it.
// A prompt written just before an automatic compression is not in the compressed history, yet the
// process that compressed still sends it (merged into the last history message) until the next
// prompt; processes after that rebuild from the file and have lost it.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { isObject } from "../../util/is-object";

/** One Gemini-style content of the history, with the entries it comes from. */
export interface QwenContent {
  role: "user" | "model";
  parts: readonly Record<string, unknown>[];
  entryIds: readonly string[];
  /** True for a prompt the user typed (a `user` record), which the date reminder goes in front of. */
  prompt: boolean;
  /** True for a content of a compression's compressedHistory. */
  compressed: boolean;
  /**
   * The wire messages it is sent as, once made (request.ts): its assistant message, or the tool
   * messages of its function responses in part order. Every call that sends it sends these objects.
   */
  wires: Record<string, unknown>[] | null;
  /**
   * A model content's function calls' arguments as their views show them, in call order, once its
   * assistant message is made (request.ts): null for one the view parses from the message.
   */
  callArguments?: (Record<string, unknown> | null)[];
}

/** The token counts a Qwen Code process holds between calls; they set the max_tokens clamp (outputClamp.ts). */
export interface QwenTokenCounts {
  prompt: number;
  output: number;
  /** True after a compression, whose new size is Qwen Code's own estimate. */
  estimated: boolean;
}

/** One call: the `assistant` record that answered it and the history it was sent with. */
export interface QwenTurn {
  turn: number;
  answer: SessionEntry;
  /** The history sent is the first `historyLength` contents of `historyBase` (shared between turns), then `pending` if any. */
  historyBase: readonly QwenContent[];
  historyLength: number;
  /** The prompt the process still holds after an automatic compression dropped it from the history. */
  pending: QwenContent | null;
  /** The compression in force, if any. */
  compression: QwenCompression | null;
  /** True for the first call after an automatic compression, sent without the startup reminders. */
  firstAfterAutoCompression: boolean;
  /**
   * Files the session wrote (write_file, edit) before the process of this call started: its
   * startup reminder lists the working directory as it was then (folderTree.ts).
   */
  writtenBefore: readonly string[];
  /** The working directory the records name. */
  cwd: string | null;
  /** The counts held when the call was sent: the last answer's usage or a compression's estimate; null before any. */
  countsBefore: QwenTokenCounts | null;
  /** What this call added to the history since the last answer (a prompt, tool results). */
  added: readonly QwenContent[];
}

export interface QwenCompression {
  entry: SessionEntry;
  /** Calls answered before it. */
  turnsBefore: number;
  info: Record<string, unknown>;
  /** The `<state_snapshot>` text the compressed history opens with. */
  summary: string;
  /** Contents of the compressed history. */
  contents: number;
  /** The history the compression request summarised: everything before it but the prompt it was waiting to send. */
  before: readonly QwenContent[];
  /** Files written before the compressing process started, and its working directory (its startup reminder lists them). */
  writtenBefore: readonly string[];
  cwd: string | null;
}

export interface QwenIndex {
  turns: QwenTurn[];
  compressions: QwenCompression[];
  warnings: ReaderWarning[];
}

/**
 * The record's parts that are objects: its own array when all are (a record's parts are never
 * changed), so a chat's contents do not hold a second copy of every part list.
 */
function partsOf(raw: Record<string, unknown>): Record<string, unknown>[] | null {
  const message = raw.message;
  if (!isObject(message) || !Array.isArray(message.parts)) return null;
  const parts = message.parts as unknown[];
  return parts.every(isObject) ? (parts as Record<string, unknown>[]) : parts.filter(isObject);
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** The history contents a compression record installs. */
function compressedContents(entry: SessionEntry, payload: Record<string, unknown>): QwenContent[] {
  const history = Array.isArray(payload.compressedHistory) ? payload.compressedHistory : [];
  const contents: QwenContent[] = [];
  for (const content of history) {
    if (!isObject(content) || !Array.isArray(content.parts)) continue;
    const role = content.role === "model" ? "model" : "user";
    contents.push({ role, parts: content.parts.filter(isObject), entryIds: [entry.id], prompt: false, compressed: true, wires: null, callArguments: undefined });
  }
  return contents;
}

function snapshotText(contents: readonly QwenContent[]): string {
  const first = contents[0]?.parts[0];
  return first && typeof first.text === "string" ? first.text : "";
}

/** The walk of the records: history, turns and compressions in file order. */
class Fold {
  readonly turns: QwenTurn[] = [];
  readonly compressions: QwenCompression[] = [];
  readonly warnings: ReaderWarning[] = [];
  private history: QwenContent[] = [];
  private pending: QwenContent | null = null;
  private compression: QwenCompression | null = null;
  private afterAutoCompression = false;
  /** The dropped prompt the compressing process sent on, which a later process no longer has. */
  private carried: QwenContent | null = null;
  /** Files written so far, and those written before the current process started (one process per prompt). */
  private written: string[] = [];
  private writtenBeforeProcess: readonly string[] = [];
  private cwd: string | null = null;
  /** The last conversation record was a prompt not yet answered. */
  private unansweredPrompt: QwenContent | null = null;
  private counts: QwenTokenCounts | null = null;
  private added: QwenContent[] = [];

  push(entry: SessionEntry): void {
    const raw = entry.raw;
    if (raw.type === "system") {
      if (raw.subtype === "chat_compression") this.compress(entry);
      return;
    }
    if (entry.type !== "user" && entry.type !== "assistant" && entry.type !== "tool_result") return;
    const parts = partsOf(raw);
    if (parts === null) {
      this.warnings.push({ line: entry.line, reason: `${entry.type} record without message.parts; it is not part of any request` });
      return;
    }
    if (typeof raw.cwd === "string") this.cwd = raw.cwd;
    if (entry.type === "assistant") this.answer(entry);
    if (entry.type === "tool_result") this.noteWrittenFile(raw);
    const content: QwenContent = { role: entry.type === "assistant" ? "model" : "user", parts, entryIds: [entry.id], prompt: entry.type === "user", compressed: false, wires: null, callArguments: undefined };
    if (entry.type === "user") {
      // A new prompt: the process that compressed is gone (headless, one process per prompt), and
      // the next rebuilds the history from the file, without the prompt it had carried.
      this.pending = null;
      this.writtenBeforeProcess = this.written.slice();
      if (this.carried) this.history = this.history.filter((content) => content !== this.carried);
      this.carried = null;
      this.unansweredPrompt = content;
    } else this.unansweredPrompt = null;
    if (entry.type !== "assistant") this.added.push(content);
    this.history.push(content);
  }

  private answer(entry: SessionEntry): void {
    const usage = entry.raw.usageMetadata;
    if (!isObject(usage)) return;
    this.turns.push({
      turn: this.turns.length + 1,
      answer: entry,
      historyBase: this.history,
      historyLength: this.history.length,
      pending: this.pending,
      compression: this.compression,
      firstAfterAutoCompression: this.afterAutoCompression,
      writtenBefore: this.writtenBeforeProcess,
      cwd: this.cwd,
      countsBefore: this.counts,
      // An exact copy: the list grew by pushes, with room to spare, and every call keeps its own.
      added: this.added.slice(),
    });
    this.afterAutoCompression = false;
    this.added = [];
    this.counts = answerCounts(usage) ?? this.counts;
    // The process answered: from here on the pending prompt is part of what it sends.
    if (this.pending) {
      this.history = [...this.history, this.pending];
      this.carried = this.pending;
      this.pending = null;
    }
  }

  /** A tool that wrote a file says so in its display data (`resultDisplay.filePath`). */
  private noteWrittenFile(raw: Record<string, unknown>): void {
    const result = raw.toolCallResult;
    if (!isObject(result) || result.status !== "success" || !isObject(result.resultDisplay)) return;
    const file = result.resultDisplay.filePath;
    if (typeof file === "string" && !this.written.includes(file)) this.written.push(file);
  }

  private compress(entry: SessionEntry): void {
    const payload = entry.raw.systemPayload;
    if (!isObject(payload) || !Array.isArray(payload.compressedHistory)) {
      this.warnings.push({ line: entry.line, reason: "chat_compression record without systemPayload.compressedHistory; the history is kept as it was" });
      return;
    }
    const info = isObject(payload.info) ? payload.info : {};
    const contents = compressedContents(entry, payload);
    const prompt = this.unansweredPrompt;
    this.compression = {
      entry,
      turnsBefore: this.turns.length,
      info,
      summary: snapshotText(contents),
      contents: contents.length,
      before: this.history.filter((content) => content !== prompt),
      writtenBefore: this.writtenBeforeProcess,
      cwd: this.cwd,
    };
    this.compressions.push(this.compression);
    this.history = contents;
    // Where the compressed history already ends with the prompt (Qwen Code's fallback when the
    // summary lacks a <state_snapshot>: the recorded history keeps the prompt as it was sent, date
    // reminder included), the file carries it; otherwise only the compressing process holds it.
    this.pending = prompt && !endsWithPrompt(contents, prompt) ? prompt : null;
    this.unansweredPrompt = null;
    this.afterAutoCompression = info.triggerReason !== "manual";
    const size = num(info.newTokenCount);
    if (size !== null) this.counts = { prompt: size, output: 0, estimated: info.newTokenCountIsEstimated !== false };
  }
}

/** True when the last content is a user content holding every text part of `prompt`. */
function endsWithPrompt(contents: readonly QwenContent[], prompt: QwenContent): boolean {
  const last = contents[contents.length - 1];
  if (!last || last.role !== "user") return false;
  const texts = new Set(last.parts.map((part) => part.text).filter((text) => typeof text === "string"));
  const wanted = prompt.parts.map((part) => part.text).filter((text) => typeof text === "string");
  return wanted.length > 0 && wanted.every((text) => texts.has(text));
}

/** The counts an answer leaves: its prompt tokens (else its total) and, with a prompt count, its output as Qwen Code derives it. */
function answerCounts(usage: Record<string, unknown>): QwenTokenCounts | null {
  const prompt = num(usage.promptTokenCount);
  const total = num(usage.totalTokenCount);
  if (prompt === null || prompt <= 0) return total !== null && total > 0 ? { prompt: total, output: 0, estimated: false } : null;
  if (total !== null) return { prompt, output: Math.max(0, total - prompt), estimated: false };
  const candidates = Math.max(0, num(usage.candidatesTokenCount) ?? 0);
  const thoughts = Math.max(0, num(usage.thoughtsTokenCount) ?? 0);
  return { prompt, output: candidates > thoughts ? candidates : candidates + thoughts, estimated: false };
}

const indexes = new WeakMap<Session, { count: number; index: QwenIndex }>();

export function getQwenIndex(session: Session): QwenIndex {
  const kept = indexes.get(session);
  if (kept && kept.count === session.entries.length) return kept.index;
  const fold = new Fold();
  for (const entry of session.entries) fold.push(entry);
  const index = { turns: fold.turns, compressions: fold.compressions, warnings: fold.warnings };
  indexes.set(session, { count: session.entries.length, index });
  return index;
}

/**
 * A call's contents without a copy of them: the first `length` of `base` (a history array shared
 * between calls, only ever appended to), then `pending` if any.
 */
export interface CallContents {
  base: readonly QwenContent[];
  length: number;
  pending: QwenContent | null;
}

/** A turn's contents as `CallContents`. */
export function callContents(turn: QwenTurn): CallContents {
  return { base: turn.historyBase, length: turn.historyLength, pending: turn.pending };
}

/** All of `contents` as `CallContents`. */
export function allContents(contents: readonly QwenContent[]): CallContents {
  return { base: contents, length: contents.length, pending: null };
}

export function contentCount(contents: CallContents): number {
  return contents.pending ? contents.length + 1 : contents.length;
}

/** Content `i` of `contents` (below `contentCount`). */
export function contentAt(contents: CallContents, i: number): QwenContent {
  return i < contents.length ? contents.base[i]! : contents.pending!;
}

/** The contents a turn's request carried, in order (the pending prompt last). */
export function turnContents(turn: QwenTurn): QwenContent[] {
  const contents = turn.historyBase.slice(0, turn.historyLength);
  if (turn.pending) contents.push(turn.pending);
  return contents;
}

/** The prompt tokens the provider reported for a call. */
export function promptTokens(turn: QwenTurn): number | null {
  const usage = turn.answer.raw.usageMetadata;
  return isObject(usage) ? num(usage.promptTokenCount) : null;
}
