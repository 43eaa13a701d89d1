// senpi's reply-language note step (SP-C5; RL-14 … RL-20): one forward pass over the converted
// context. After a tool-result run that is followed by an assistant message or the end of the
// context, a note `Reply language: <Name>` is inserted once enough tool output, notices, bash
// output and branch summaries have built up since the user's last message. A note depends only
// on messages at or before its position, so earlier notes never change as the context grows (RL-28).
import type { ContextMessage, LlmMessage, ReplyLanguageNoteInfo } from "../model";
import { isText, textString, textUnits, type Text } from "../text/text";
import { createReadingCache, readUserMessage, type ReadingCache } from "./cache";
import { readCarrier, type UserProseMessage } from "./carrier";
import { createTracker, effectiveLanguage, observeCarrier, observeUserMessage, type LanguageSource } from "./effective";
import { noteOfMessage, renderNoteText } from "./note-text";
import { resolveOptions, type ReplyLanguageOptions } from "./options";

export const NOTE_RULE = "note:reply-language";

/** Provenance rules of converted messages whose text counts toward the threshold (RL-16). */
export const COUNTED_USER_RULES: readonly string[] = ["render:custom", "render:bash", "wrap:branch-summary"];
export const USER_WORDS_RULE = "user-words";
export const COMPACTION_SUMMARY_RULE = "wrap:compaction-summary";

export interface NotesContext {
  /** Reading cache shared across conversions (RL-25 … RL-27); one is created per call otherwise. */
  cache?: ReadingCache;
  /**
   * Exact RL-14 history: the user `message` entries on the path that are NOT in this context
   * (removed by compaction), in path order. When given, they seed the effective language instead
   * of the summary's carrier.
   */
  priorUserMessages?: readonly UserProseMessage[];
  /**
   * Characters a message contributes to the threshold, when the pipeline knows the source size
   * (e.g. a bash execution's output without the `Ran …` wrapper). Return undefined to count the
   * converted text blocks.
   */
  sourceChars?: (message: ContextMessage) => number | undefined;
}

type Kind = "tool" | "assistant" | "note" | "summary" | "prose" | "user-words" | "counted" | "other";

function classify(cm: ContextMessage, options: ReplyLanguageOptions): Kind {
  const m = cm.message;
  if (m.role === "toolResult") return "tool";
  if (m.role === "assistant") return "assistant";
  if (cm.provenance.rule === NOTE_RULE || noteOfMessage(m, options)) return "note";
  const rule = cm.provenance.rule;
  if (rule === COMPACTION_SUMMARY_RULE) return "summary";
  if (options.proseRules.includes(rule)) return "prose";
  if (rule === USER_WORDS_RULE) return "user-words";
  if (COUNTED_USER_RULES.includes(rule)) return "counted";
  return "other";
}

function measure(text: Text, options: ReplyLanguageOptions): number {
  if (options.charMeasure === "utf16") return textUnits(text);
  let n = 0;
  for (const _ of textString(text)) n++;
  return n;
}

/** RL-16: text-block characters of a message (images count 0). */
export function messageChars(message: LlmMessage, options: ReplyLanguageOptions): number {
  if (message.role === "assistant") return 0;
  if (isText(message.content)) return measure(message.content, options);
  let n = 0;
  for (const block of message.content) if (block.type === "text") n += measure(block.text, options);
  return n;
}

function describeSource(language: LanguageSource): string {
  if (language.requested) {
    if (language.fromEntryId) return `the user explicitly asked for ${language.name} in message ${language.fromEntryId}`;
    if (language.carriedByEntryId) return `the user explicitly asked for ${language.name} before the compaction (carried by summary ${language.carriedByEntryId})`;
    return `the user explicitly asked for ${language.name}`;
  }
  if (language.fromEntryId) return `read from user message ${language.fromEntryId}`;
  if (language.carriedByEntryId) return `read before the compaction (carried by summary ${language.carriedByEntryId})`;
  return "read from an earlier user message";
}

function buildNote(
  language: LanguageSource,
  builtUp: number,
  countStartedBy: "start" | "user" | "note" | "summary",
  timestamp: number | undefined,
  options: ReplyLanguageOptions,
): ContextMessage {
  const text = renderNoteText({ name: language.name, requested: language.requested }, options);
  const inferredRules = ["RL-14", "RL-16", "RL-19"];
  if (countStartedBy === "note" || countStartedBy === "summary") inferredRules.push("RL-17");
  if (language.requested && language.name === "English") inferredRules.push("RL-18");
  const note: ReplyLanguageNoteInfo = {
    language: language.name,
    source: language.requested ? "explicit-request" : "written",
    fromEntryId: language.fromEntryId,
    builtUpChars: builtUp,
    inferredRules,
  };
  if (language.carriedByEntryId !== undefined) note.carriedByEntryId = language.carriedByEntryId;
  const since =
    countStartedBy === "note" ? "the previous note" : countStartedBy === "summary" ? "the compaction summary" : "the user's last message";
  const explanation =
    `Reply-language note: ${language.name}, ${describeSource(language)}. ` +
    `${builtUp} characters of tool output, notices, bash output and branch summaries had built up since ${since} ` +
    `(threshold ${options.thresholdChars}).`;
  const message: LlmMessage = { role: "user", content: [{ type: "text", text }] };
  if (timestamp !== undefined) message.timestamp = timestamp;
  return {
    message,
    provenance: { rule: NOTE_RULE, entryId: null, ruleId: "RL-15", inferred: "RL-19", explanation, note },
  };
}

/**
 * SP-C5: inserts reply-language notes into a converted context. Messages pass through as the same
 * objects; only notes are new. Idempotent: notes already in the input (RL-20) are kept, never
 * duplicated and never read as the user's language.
 */
export function insertReplyLanguageNotes(
  messages: readonly ContextMessage[],
  options?: Partial<ReplyLanguageOptions>,
  context: NotesContext = {},
): ContextMessage[] {
  const opts = resolveOptions(options);
  const cache = context.cache ?? createReadingCache();
  const tracker = createTracker();
  if (context.priorUserMessages) {
    for (const { entryId, message } of context.priorUserMessages) {
      const read = readUserMessage(message, opts, cache);
      observeUserMessage(tracker, entryId, read.reading, read.request.request, opts);
    }
  }
  const kinds = messages.map((cm) => classify(cm, opts));
  const out: ContextMessage[] = [];
  let builtUp = 0;
  let countStartedBy: "start" | "user" | "note" | "summary" = "start";

  for (let i = 0; i < messages.length; i++) {
    const cm = messages[i] as ContextMessage;
    const kind = kinds[i] as Kind;
    out.push(cm);
    switch (kind) {
      case "prose": {
        if (cm.message.role === "user") {
          const read = readUserMessage(cm.message, opts, cache);
          observeUserMessage(tracker, cm.provenance.entryId, read.reading, read.request.request, opts);
        }
        builtUp = 0;
        countStartedBy = "user";
        break;
      }
      case "user-words":
        builtUp = 0;
        countStartedBy = "user";
        break;
      case "summary": {
        // RL-17: the summary resets the count; its carrier (RL-23) seeds the language unless the
        // exact history was given.
        builtUp = 0;
        countStartedBy = "summary";
        const carried = readCarrier(cm.message, opts);
        if (carried && !context.priorUserMessages) {
          observeCarrier(tracker, { name: carried.name, requested: carried.requested, fromEntryId: null, carriedByEntryId: cm.provenance.entryId });
        }
        break;
      }
      case "counted":
        builtUp += context.sourceChars?.(cm) ?? messageChars(cm.message, opts);
        break;
      case "tool": {
        builtUp += context.sourceChars?.(cm) ?? messageChars(cm.message, opts);
        // End of a run? Look past notes already in place (re-conversion, RL-20).
        let j = i + 1;
        while (j < messages.length && kinds[j] === "note") j++;
        const next = kinds[j];
        if (next === "tool") {
          // The run continues after stray notes; nothing is decided here.
          break;
        }
        if (next !== undefined && next !== "assistant") break; // RL-15: a user-role message follows
        if (builtUp < opts.thresholdChars) break; // RL-16
        const language = effectiveLanguage(tracker, opts); // RL-14
        if (!language || !opts.languageNames.includes(language.name)) break; // RL-18, RL-9
        if (language.requested && language.name === "English" && !opts.noteForRequestedEnglish) break;
        if (j === i + 1) {
          out.push(buildNote(language, builtUp, countStartedBy, cm.message.timestamp, opts));
        }
        // else: a note is already in place; keep exactly one (RL-20).
        if (opts.resetAfterNote) {
          builtUp = 0;
          countStartedBy = "note";
        }
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/**
 * The pipeline hook (`(messages) => messages`) for the senpi profile with notes on. Options are
 * resolved once and one reading cache is shared by every call, so repeated conversions of the
 * same session read each user message once (RL-26, RL-27).
 */
export function createReplyLanguageStep(
  options?: Partial<ReplyLanguageOptions>,
  context: NotesContext = {},
): (messages: ContextMessage[]) => ContextMessage[] {
  const opts = resolveOptions(options);
  const shared: NotesContext = { ...context, cache: context.cache ?? createReadingCache() };
  return (messages) => insertReplyLanguageNotes(messages, opts, shared);
}
