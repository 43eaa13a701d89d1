// Approximate rebuild of a Claude Code request for transcripts without `api-request` records
// (FM-CC-24 [INF]): the chain from the last compaction boundary (or the root) to the entry before
// the answer; assistant entries merged per API message (with the tool results of every block);
// consecutive user content merged into one user message; attachments rendered by `renderedRole`
// (FM-CC-9); after a compaction summary, the preserved messages (FM-CC-14). The result is labelled
// approximate: Claude Code reorders injected context in ways the transcript does not record.
import type { SessionEntry } from "../../model";
import {
  assistantMessageId,
  contentBlocks,
  entryMessage,
  isCompactBoundary,
  mergedAssistantMessage,
  stringField,
} from "./records";
import { isObject } from "../../util/is-object";
import { indexGeneration, type ClaudeSessionIndex } from "./session-index";
import type { WireList } from "./wire-carry";

export interface ApproximateMessage {
  message: Record<string, unknown>;
  source: "approximate";
  entryIds: string[];
}

const REMINDER_OPEN = "<system-reminder>\n";
const REMINDER_CLOSE = "\n</system-reminder>";

/** System-role renders are sent without their `<system-reminder>` wrapper (observed in blobs). */
function unwrapReminder(text: string): string {
  if (text.startsWith(REMINDER_OPEN) && text.endsWith(REMINDER_CLOSE)) {
    return text.slice(REMINDER_OPEN.length, text.length - REMINDER_CLOSE.length);
  }
  return text;
}

function renderedTexts(entry: SessionEntry): string[] {
  const rendered = entry.raw.rendered;
  if (!Array.isArray(rendered)) return [];
  return rendered.flatMap((item) => (isObject(item) && typeof item.content === "string" ? [item.content] : []));
}

/**
 * The messages made so far and the user and system content waiting to be flushed. The messages
 * the pending content would make are made once (`pendingMessages`) and are the ones a later flush
 * pushes, so a turn's request and the next turn's share every message object: per-message work
 * downstream (views, sizes, segments, hashes) is cached by object and done once.
 */
class MessageBuilder {
  readonly out: ApproximateMessage[] = [];
  private userBlocks: unknown[] = [];
  private userIds: string[] = [];
  private systemBlocks: unknown[] = [];
  private systemIds: string[] = [];
  private pending: ApproximateMessage[] | null = null;

  addUser(blocks: unknown[], entryId: string): void {
    for (const block of blocks) this.userBlocks.push(block);
    this.userIds.push(entryId);
    this.pending = null;
  }

  addSystem(texts: string[], entryId: string): void {
    for (const text of texts) this.systemBlocks.push({ type: "text", text: unwrapReminder(text) });
    this.systemIds.push(entryId);
    this.pending = null;
  }

  /** The messages a flush would push now (copies of the pending lists: they go on growing). */
  pendingMessages(): ApproximateMessage[] {
    if (this.pending) return this.pending;
    const pending: ApproximateMessage[] = [];
    if (this.userBlocks.length > 0) {
      pending.push({ message: { role: "user", content: this.userBlocks.slice() }, source: "approximate", entryIds: this.userIds.slice() });
    }
    if (this.systemBlocks.length > 0) {
      pending.push({ message: { role: "system", content: this.systemBlocks.slice() }, source: "approximate", entryIds: this.systemIds.slice() });
    }
    this.pending = pending;
    return pending;
  }

  flush(): void {
    for (const message of this.pendingMessages()) this.out.push(message);
    this.userBlocks = [];
    this.userIds = [];
    this.systemBlocks = [];
    this.systemIds = [];
    this.pending = null;
  }

  addAssistant(message: Record<string, unknown>, entryIds: string[]): void {
    this.flush();
    this.out.push({ message, source: "approximate", entryIds });
  }

  /** `out` then the pending messages, as of the last `messages()`; its first `synced` items are `out`'s (which only grows). */
  private view: ApproximateMessage[] = [];
  private synced = 0;

  /**
   * The messages of a request that ends here: those made, then the pending ones. One list kept
   * by the builder and brought up to date (valid until the next call), not a copy of every
   * message per request.
   */
  messages(): readonly ApproximateMessage[] {
    const view = this.view;
    view.length = this.synced;
    for (let i = this.synced; i < this.out.length; i++) view.push(this.out[i]!);
    this.synced = this.out.length;
    for (const message of this.pendingMessages()) view.push(message);
    return view;
  }
}

/**
 * One walk of a branch path from a compaction boundary (or the root): the entries before `next`
 * have been added. The request of an answer further on is this walk taken further, so asking
 * for every turn in order costs one walk of the path, not one per turn.
 */
interface ApproximateWalk {
  index: ClaudeSessionIndex;
  /** The index's growth the walk was made at: a grown index may give old entries new children. */
  generation: number;
  start: number;
  next: number;
  builder: MessageBuilder;
  consumed: Set<string>;
  doneGroups: Set<string>;
  anchorId: string | null;
  preservedIds: string[];
}

/** The walk of each path (paths are never changed: a grown branch is a new array). */
const walks = new WeakMap<readonly SessionEntry[], ApproximateWalk>();

function newWalk(index: ClaudeSessionIndex, path: readonly SessionEntry[], answerIndex: number): ApproximateWalk {
  let start = 0;
  let boundary: SessionEntry | null = null;
  for (let i = answerIndex - 1; i >= 0; i--) {
    if (isCompactBoundary(path[i] as SessionEntry)) {
      start = i + 1;
      boundary = path[i] as SessionEntry;
      break;
    }
  }
  const metadata = boundary && isObject(boundary.raw.compactMetadata) ? boundary.raw.compactMetadata : null;
  const preserved = metadata && isObject(metadata.preservedMessages) ? metadata.preservedMessages : null;
  return {
    index,
    generation: indexGeneration(index),
    start,
    next: start,
    builder: new MessageBuilder(),
    consumed: new Set(),
    doneGroups: new Set(),
    anchorId: preserved ? stringField(preserved, "anchorUuid") : null,
    preservedIds: preserved && Array.isArray(preserved.uuids) ? preserved.uuids.filter((id): id is string => typeof id === "string") : [],
  };
}

/** Whether `walk` can be taken on to `answerIndex`: same index, no growth since, no compaction boundary in between. */
function walkReaches(walk: ApproximateWalk, index: ClaudeSessionIndex, path: readonly SessionEntry[], answerIndex: number): boolean {
  if (walk.index !== index || walk.generation !== indexGeneration(index) || answerIndex < walk.next) return false;
  for (let i = walk.next; i < answerIndex; i++) if (isCompactBoundary(path[i] as SessionEntry)) return false;
  return true;
}

/** Tool results of every block of the message, in file order (they may hang off other blocks). */
function groupResults(index: ClaudeSessionIndex, group: readonly SessionEntry[]): SessionEntry[] {
  const results: SessionEntry[] = [];
  for (const member of group) {
    for (const child of index.children.get(member.id) ?? []) {
      if (child.type === "user" && child.line > 0) results.push(child);
    }
  }
  results.sort((a, b) => a.line - b.line);
  return results;
}

function addAssistantGroup(walk: ApproximateWalk, entry: SessionEntry): void {
  const messageId = assistantMessageId(entry) ?? entry.id;
  if (walk.doneGroups.has(messageId)) return;
  walk.doneGroups.add(messageId);
  const group = walk.index.messageGroups.get(messageId) ?? [entry];
  // Made by the walk, once (doneGroups), and kept by nothing else: the message and what later
  // stages keep by it go with the walk once no request reaches it (a compaction starts another).
  walk.builder.addAssistant(mergedAssistantMessage(group), group.map((member) => member.id));
  for (const result of groupResults(walk.index, group)) {
    const blocks = contentBlocks(entryMessage(result)?.content);
    if (!blocks.every((block) => isObject(block) && block.type === "tool_result")) continue;
    walk.consumed.add(result.id);
    walk.builder.addUser(blocks, result.id);
  }
}

function addEntry(walk: ApproximateWalk, entry: SessionEntry): void {
  if (walk.consumed.has(entry.id)) return;
  if (entry.type === "assistant") addAssistantGroup(walk, entry);
  else if (entry.type === "user") {
    const message = entryMessage(entry);
    if (message) walk.builder.addUser(contentBlocks(message.content), entry.id);
  } else if (entry.type === "attachment") {
    const texts = renderedTexts(entry);
    if (texts.length === 0) return;
    if (entry.raw.renderedRole === "system") walk.builder.addSystem(texts, entry.id);
    else walk.builder.addUser(texts.map((text) => ({ type: "text", text })), entry.id);
  }
  // Other system entries (boundaries, notices) are not sent.
}

/**
 * Messages of the request answered by `path[answerIndex]`. The walk made for an earlier answer
 * of the same path is taken on from where it stopped, so the turns of a branch asked in order
 * cost one walk between them, and each turn's messages are the previous turn's objects followed
 * by new ones. The list is the walk's own, valid until the next call for the same path: read it,
 * or copy it.
 */
export function approximateMessages(index: ClaudeSessionIndex, path: readonly SessionEntry[], answerIndex: number): readonly ApproximateMessage[] {
  return walkTo(index, path, answerIndex).builder.messages();
}

/**
 * The same messages as the walk's two parts: the messages made (a list the walk only appends to)
 * and the pending ones after them, so that a caller carrying lists from turn to turn keeps the
 * made ones it has and takes on the rest.
 */
export function approximateParts(index: ClaudeSessionIndex, path: readonly SessionEntry[], answerIndex: number): WireList<ApproximateMessage> {
  const kept = partsByPath.get(path);
  const given = kept !== undefined && kept.walk.index === index && kept.walk.generation === indexGeneration(index) ? kept.parts.get(answerIndex) : undefined;
  if (given !== undefined) return given;
  const walk = walkTo(index, path, answerIndex);
  let parts = kept?.walk === walk ? kept.parts : undefined;
  if (parts === undefined) {
    // Another walk (a compaction, or a pass starting over): the parts of the last one go with it.
    parts = new Map();
    partsByPath.set(path, { walk, parts });
  }
  const builder = walk.builder;
  const made = { base: builder.out, baseLength: builder.out.length, extra: builder.pendingMessages() };
  parts.set(answerIndex, made);
  return made;
}

/**
 * The parts given for each answer of the path's current walk: a walk's list only grows and its
 * pending lists are never changed, so they stay true. A second pass over the turns (the analysis,
 * then the requests) takes them instead of walking the path again, and both passes see the same
 * message objects, as long as no compaction started another walk in between. Only the current
 * walk's are kept: the messages before a compaction are in no later request, and neither they nor
 * what later stages keep by them (views, sizes, segments, all kept by object) stay for the
 * rest of the session.
 */
const partsByPath = new WeakMap<readonly SessionEntry[], { walk: ApproximateWalk; parts: Map<number, WireList<ApproximateMessage>> }>();

function walkTo(index: ClaudeSessionIndex, path: readonly SessionEntry[], answerIndex: number): ApproximateWalk {
  let walk = walks.get(path);
  if (!walk || !walkReaches(walk, index, path, answerIndex)) {
    walk = newWalk(index, path, answerIndex);
    walks.set(path, walk);
  }
  for (; walk.next < answerIndex; walk.next++) {
    const entry = path[walk.next] as SessionEntry;
    addEntry(walk, entry);
    if (walk.anchorId !== null && entry.id === walk.anchorId) {
      for (const id of walk.preservedIds) {
        const kept = index.byId.get(id);
        if (kept) addEntry(walk, kept);
      }
    }
  }
  return walk;
}
