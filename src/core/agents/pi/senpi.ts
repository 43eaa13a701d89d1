// senpi's post-processing of converted messages (spec §3.3, SP-C2…SP-C6), applied in order after
// pi's per-message rules: image replacement, dropping failed assistant turns, tool-result user
// words, reply-language notes (a hook filled in by the notes module), environment fold.
// `SenpiTally` follows the same rules incrementally, so the timeline can show per-turn counts
// and badges without re-running the steps on every turn's whole context.
import type { ContextMessage, DroppedMessage, LlmMessage, TextBlock, ToolResultMessage, UserMessage } from "../../model";
import { ENVIRONMENT_CUSTOM_TYPE } from "./convert";
import { isText, type Text } from "../../text/text";
import { sameText } from "../../text/textTests";

/** Reply-language notes step (SP-C5, reply-language.md); provided by src/core/notes. */
export type { NotesStep } from "../../pipeline/types";
import type { NotesStep } from "../../pipeline/types";

export interface SenpiStepOptions {
  /** Run the reply-language notes step (SP-C5). */
  notes?: boolean;
  notesStep?: NotesStep | null;
  /** SP-C2 [INF]: text that replaces an image the provider rejected (exact text not specified). */
  imagePlaceholder?: string;
  /** SP-C2 [INF]: an error message matching this marks a failed turn as an image rejection. */
  imageRejectionPattern?: RegExp;
}

const DEFAULT_IMAGE_PLACEHOLDER = "[image omitted: the provider rejected it]";
const DEFAULT_IMAGE_REJECTION_PATTERN = /image/i;

export interface SenpiStepsResult {
  messages: ContextMessage[];
  dropped: DroppedMessage[];
}

const FAILED_STOP_REASONS = new Set(["error", "aborted"]);

function isFailedAssistant(message: LlmMessage): boolean {
  return message.role === "assistant" && FAILED_STOP_REASONS.has(message.stopReason ?? "");
}

function toolCallIds(message: LlmMessage): string[] {
  if (message.role !== "assistant" || !Array.isArray(message.content)) return [];
  const ids: string[] = [];
  for (const block of message.content) if (block.type === "toolCall") ids.push(block.id);
  return ids;
}

function hasImage(message: LlmMessage): boolean {
  if (message.role === "assistant" || !Array.isArray(message.content)) return false;
  return (message.content as { type: string }[]).some((block) => block.type === "image");
}

function isImageRejection(message: LlmMessage, pattern: RegExp): boolean {
  return message.role === "assistant" && message.stopReason === "error" && pattern.test(message.errorMessage ?? "");
}

/** SP-C2: replace images that a later failed turn shows the provider rejected. */
function replaceRejectedImages(messages: ContextMessage[], options: SenpiStepOptions = {}): SenpiStepsResult {
  const pattern = options.imageRejectionPattern ?? DEFAULT_IMAGE_REJECTION_PATTERN;
  const placeholder = options.imagePlaceholder ?? DEFAULT_IMAGE_PLACEHOLDER;
  let lastRejection = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (isImageRejection((messages[i] as ContextMessage).message, pattern)) {
      lastRejection = i;
      break;
    }
  }
  if (lastRejection < 0) return { messages, dropped: [] };
  const dropped: DroppedMessage[] = [];
  const out = messages.map((item, index) => {
    if (index >= lastRejection || !hasImage(item.message)) return item;
    const message = item.message as UserMessage | ToolResultMessage;
    const content = (message.content as { type: string }[]).map((block) =>
      block.type === "image" ? { type: "text" as const, text: placeholder } : block,
    );
    dropped.push({ message, entryId: item.provenance.entryId, reason: "image-replaced", ruleId: "SP-C2" });
    return {
      message: { ...message, content } as LlmMessage,
      provenance: { ...item.provenance, ruleId: "SP-C2", inferred: "SP-C2", explanation: "image replaced by a placeholder" },
    };
  });
  return { messages: out, dropped };
}

/** SP-C3: drop failed assistant turns and the tool results only they declared. */
export function dropFailedTurns(messages: ContextMessage[]): SenpiStepsResult {
  const removedIds = new Set<string>();
  const keptIds = new Set<string>();
  let anyFailed = false;
  for (const item of messages) {
    const failed = isFailedAssistant(item.message);
    anyFailed ||= failed;
    for (const id of toolCallIds(item.message)) (failed ? removedIds : keptIds).add(id);
  }
  if (!anyFailed) return { messages, dropped: [] };
  const out: ContextMessage[] = [];
  const dropped: DroppedMessage[] = [];
  for (const item of messages) {
    const message = item.message;
    const orphan =
      message.role === "toolResult" && removedIds.has(message.toolCallId) && !keptIds.has(message.toolCallId);
    if (isFailedAssistant(message) || orphan) {
      dropped.push({ message, entryId: item.provenance.entryId, reason: "failed-turn", ruleId: "SP-C3" });
    } else out.push(item);
  }
  return { messages: out, dropped };
}

interface UserWord {
  label: string;
  text: string;
}

function userWordsOf(message: LlmMessage): UserWord[] {
  if (message.role !== "toolResult") return [];
  const details = message.details as { userWords?: unknown } | undefined;
  const words = details && typeof details === "object" ? details.userWords : undefined;
  if (!Array.isArray(words)) return [];
  return words.filter(
    (word): word is UserWord =>
      typeof word === "object" && word !== null && typeof word.label === "string" && typeof word.text === "string",
  );
}

function wordBlocks(words: UserWord[]): TextBlock[] {
  const blocks: TextBlock[] = [];
  for (const word of words) {
    blocks.push({ type: "text", text: `[${word.label}]` });
    blocks.push({ type: "text", text: word.text });
  }
  return blocks;
}

/** SP-C4 idempotence: the next message already starts with exactly these text blocks. */
function startsWithBlocks(message: LlmMessage | undefined, blocks: TextBlock[]): boolean {
  if (!message || message.role !== "user") return false;
  const content = isText(message.content) ? [{ type: "text", text: message.content }] : message.content;
  if (content.length < blocks.length) return false;
  return blocks.every((block, i) => {
    const other = content[i] as { type: string; text?: Text };
    return other.type === "text" && other.text !== undefined && sameText(other.text, block.text);
  });
}

/** SP-C4: after each run of tool results carrying user words, insert one user message. */
export function insertToolResultUserWords(messages: ContextMessage[]): ContextMessage[] {
  let out: ContextMessage[] | null = null;
  let runWords: UserWord[] = [];
  let lastCarrier: ContextMessage | null = null;
  for (let i = 0; i < messages.length; i++) {
    const item = messages[i] as ContextMessage;
    if (out) out.push(item);
    if (item.message.role !== "toolResult") continue;
    const words = userWordsOf(item.message);
    if (words.length > 0) {
      runWords = runWords.concat(words);
      lastCarrier = item;
    }
    const next = messages[i + 1];
    if (next && next.message.role === "toolResult") continue;
    // End of a maximal run of tool results.
    if (runWords.length > 0 && lastCarrier) {
      const blocks = wordBlocks(runWords);
      if (!startsWithBlocks(next?.message, blocks)) {
        out ??= messages.slice(0, i + 1);
        out.push({
          message: { role: "user", content: blocks, timestamp: lastCarrier.message.timestamp },
          provenance: {
            rule: "user-words",
            entryId: lastCarrier.provenance.entryId,
            ruleId: "SP-C4",
            explanation: "words the user typed into a tool's answer",
          },
        });
      }
    }
    runWords = [];
    lastCarrier = null;
  }
  return out ?? messages;
}

function isEnvironment(item: ContextMessage | undefined): boolean {
  return item !== undefined && item.provenance.customType === ENVIRONMENT_CUSTOM_TYPE;
}

/** SP-C6: merge an environment message into the immediately following user message. */
export function foldEnvironment(messages: ContextMessage[]): ContextMessage[] {
  if (!messages.some((item) => isEnvironment(item))) return messages;
  const out: ContextMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const item = messages[i] as ContextMessage;
    const next = messages[i + 1];
    if (isEnvironment(item) && next && next.message.role === "user" && !isEnvironment(next)) {
      const env = item.message as UserMessage;
      const target = next.message as UserMessage;
      const envBlocks = isText(env.content) ? [{ type: "text" as const, text: env.content }] : env.content;
      const targetBlocks = isText(target.content) ? [{ type: "text" as const, text: target.content }] : target.content;
      out.push({
        message: { ...target, content: [...envBlocks, ...targetBlocks] },
        provenance: {
          ...next.provenance,
          rule: "fold:environment",
          ruleId: "SP-C6",
          explanation: `environment context from entry ${item.provenance.entryId ?? "?"} folded in as leading block(s)`,
        },
      });
      i += 1;
      continue;
    }
    out.push(item);
  }
  return out;
}

/** SP-C2…SP-C6 in order. */
export function applySenpiSteps(messages: ContextMessage[], options: SenpiStepOptions = {}): SenpiStepsResult {
  const images = replaceRejectedImages(messages, options);
  const failed = dropFailedTurns(images.messages);
  let current = insertToolResultUserWords(failed.messages);
  if (options.notes && options.notesStep) current = options.notesStep(current);
  current = foldEnvironment(current);
  return { messages: current, dropped: [...images.dropped, ...failed.dropped] };
}

/**
 * Follows the message stream the SP-C5 notes step sees (after SP-C2…SP-C4, before the fold):
 * each surviving message in order, and each inserted user-words message.
 */
export interface SenpiStreamListener {
  message(item: ContextMessage): void;
  userWords(): void;
}

/**
 * Incremental count of what `applySenpiSteps` (without notes) yields for every prefix of a
 * converted message stream: `feed` each message in order, read `messageCount` / `droppedCount`
 * at any point. Each message is looked at once. A listener receives the stream the notes step
 * sees, so notes can be followed incrementally too.
 */
export class SenpiTally {
  /** Messages sent so far, not counting a user-words message still pending at the end. */
  private count = 0;
  droppedCount = 0;
  private readonly removedToolIds = new Set<string>();
  private readonly keptToolIds = new Set<string>();
  private messagesWithImages = 0;
  private runWords: TextBlock[] | null = null; // non-null while inside a run of tool results
  private pendingEnvironment = false;
  private readonly pattern: RegExp;
  private readonly listener: SenpiStreamListener | null;
  /**
   * Set once SP-C2 replaced images in messages already fed: the listener saw them unreplaced, so
   * what it derived from them may differ from the steps' output from here on.
   */
  retroactive = false;

  constructor(options: SenpiStepOptions = {}, listener: SenpiStreamListener | null = null) {
    this.pattern = options.imageRejectionPattern ?? DEFAULT_IMAGE_REJECTION_PATTERN;
    this.listener = listener;
  }

  get messageCount(): number {
    return this.count + (this.pendingUserWords ? 1 : 0);
  }

  /** The stream ends inside a run of tool results carrying user words (SP-C4 adds one message). */
  get pendingUserWords(): boolean {
    return this.runWords !== null && this.runWords.length > 0;
  }

  feed(item: ContextMessage): void {
    const message = item.message;
    // SP-C2
    if (isImageRejection(message, this.pattern)) {
      if (this.messagesWithImages > 0) this.retroactive = true;
      this.droppedCount += this.messagesWithImages;
      this.messagesWithImages = 0;
    } else if (hasImage(message)) this.messagesWithImages += 1;
    // SP-C3 (a later redeclaration of a removed tool-call id is not looked ahead for)
    if (isFailedAssistant(message)) {
      for (const id of toolCallIds(message)) this.removedToolIds.add(id);
      this.droppedCount += 1;
      return;
    }
    for (const id of toolCallIds(message)) this.keptToolIds.add(id);
    if (message.role === "toolResult" && this.removedToolIds.has(message.toolCallId) && !this.keptToolIds.has(message.toolCallId)) {
      this.droppedCount += 1;
      return;
    }
    // SP-C4
    if (message.role === "toolResult") {
      this.runWords ??= [];
      this.runWords.push(...wordBlocks(userWordsOf(message)));
      this.count += 1;
      this.pendingEnvironment = false;
      this.listener?.message(item);
      return;
    }
    if (this.runWords) {
      if (this.runWords.length > 0 && !startsWithBlocks(message, this.runWords)) {
        this.count += 1; // inserted user-words message (a user message, not an environment one)
        this.pendingEnvironment = false;
        this.listener?.userWords();
      }
      this.runWords = null;
    }
    this.listener?.message(item);
    // SP-C6
    const environment = isEnvironment(item);
    this.count += 1;
    if (this.pendingEnvironment && message.role === "user" && !environment) this.count -= 1;
    this.pendingEnvironment = environment;
  }
}
