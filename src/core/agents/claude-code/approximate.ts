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
import type { ClaudeSessionIndex } from "./session-index";

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

/** Re-exported: the merge lives with the other entry helpers in records.ts. */

class MessageBuilder {
  readonly out: ApproximateMessage[] = [];
  private userBlocks: unknown[] = [];
  private userIds: string[] = [];
  private systemBlocks: unknown[] = [];
  private systemIds: string[] = [];

  addUser(blocks: unknown[], entryId: string): void {
    this.userBlocks.push(...blocks);
    this.userIds.push(entryId);
  }

  addSystem(texts: string[], entryId: string): void {
    for (const text of texts) this.systemBlocks.push({ type: "text", text: unwrapReminder(text) });
    this.systemIds.push(entryId);
  }

  flush(): void {
    if (this.userBlocks.length > 0) {
      this.out.push({ message: { role: "user", content: this.userBlocks }, source: "approximate", entryIds: this.userIds });
    }
    if (this.systemBlocks.length > 0) {
      this.out.push({ message: { role: "system", content: this.systemBlocks }, source: "approximate", entryIds: this.systemIds });
    }
    this.userBlocks = [];
    this.userIds = [];
    this.systemBlocks = [];
    this.systemIds = [];
  }

  addAssistant(message: Record<string, unknown>, entryIds: string[]): void {
    this.flush();
    this.out.push({ message, source: "approximate", entryIds });
  }
}

/**
 * Messages of the request answered by `path[answerIndex]`. Linear in the path length between
 * the last compaction and the answer.
 */
export function approximateMessages(index: ClaudeSessionIndex, path: SessionEntry[], answerIndex: number): ApproximateMessage[] {
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
  const anchorId = preserved ? stringField(preserved, "anchorUuid") : null;
  const preservedIds = preserved && Array.isArray(preserved.uuids) ? preserved.uuids.filter((id): id is string => typeof id === "string") : [];

  const builder = new MessageBuilder();
  const consumed = new Set<string>();
  const doneGroups = new Set<string>();

  const addAssistantGroup = (entry: SessionEntry) => {
    const messageId = assistantMessageId(entry) ?? entry.id;
    if (doneGroups.has(messageId)) return;
    doneGroups.add(messageId);
    const group = index.messageGroups.get(messageId) ?? [entry];
    builder.addAssistant(
      mergedAssistantMessage(group),
      group.map((member) => member.id),
    );
    // Tool results of every block of the message, in file order (they may hang off other blocks).
    const results: SessionEntry[] = [];
    for (const member of group) {
      for (const child of index.children.get(member.id) ?? []) {
        if (child.type === "user" && child.line > 0) results.push(child);
      }
    }
    results.sort((a, b) => a.line - b.line);
    for (const result of results) {
      const content = entryMessage(result)?.content;
      const blocks = contentBlocks(content);
      if (!blocks.every((block) => isObject(block) && block.type === "tool_result")) continue;
      consumed.add(result.id);
      builder.addUser(blocks, result.id);
    }
  };

  const addEntry = (entry: SessionEntry) => {
    if (consumed.has(entry.id)) return;
    if (entry.type === "assistant") addAssistantGroup(entry);
    else if (entry.type === "user") {
      const message = entryMessage(entry);
      if (message) builder.addUser(contentBlocks(message.content), entry.id);
    } else if (entry.type === "attachment") {
      const texts = renderedTexts(entry);
      if (texts.length === 0) return;
      if (entry.raw.renderedRole === "system") builder.addSystem(texts, entry.id);
      else builder.addUser(texts.map((text) => ({ type: "text", text })), entry.id);
    }
    // Other system entries (boundaries, notices) are not sent.
  };

  for (let i = start; i < answerIndex; i++) {
    const entry = path[i] as SessionEntry;
    addEntry(entry);
    if (anchorId !== null && entry.id === anchorId) {
      for (const id of preservedIds) {
        const kept = index.byId.get(id);
        if (kept) addEntry(kept);
      }
    }
  }
  builder.flush();
  return builder.out;
}
