// The compaction-summary carrier (RL-21 … RL-24): the newest compaction summary names the reply
// language in effect where the compaction happened, so the language survives compaction. The
// projection computes it (compactionCarrier), conversion renders it after `</summary>`
// (applyCompactionCarrier), and the note step reads it back (readCarrier) as its starting point.
import type { ContextMessage, LlmMessage, UserMessage } from "../model";
import { isText, textString, type Text } from "../text/text";
import { createReadingCache, readUserMessage, type ReadingCache } from "./cache";
import { createTracker, effectiveLanguage, observeUserMessage } from "./effective";
import { noteOfMessage, parseNoteText, renderNoteText, type NoteLanguage } from "./note-text";
import { resolveOptions, type ReplyLanguageOptions } from "./options";

/** A user `message` entry of the session path, in path order. */
export interface UserProseMessage {
  entryId: string | null;
  message: UserMessage;
}

/** RL-21: the fields a compaction summary gains. */
export interface ReplyLanguageCarrier {
  userLanguage: string;
  userLanguageRequested: boolean;
  /** The user message the language was read from (or that held the request). */
  fromEntryId: string | null;
}

const SUMMARY_END = "</summary>";

/**
 * RL-22: the carrier for a compaction entry, from the user messages on the path before it (all
 * of them, in path order, including those an earlier compaction removed). Null when there is no
 * language to carry (English-writing user, no prose).
 */
export function compactionCarrier(
  userMessagesBeforeCompaction: readonly UserProseMessage[],
  options?: Partial<ReplyLanguageOptions>,
  cache: ReadingCache = createReadingCache(),
): ReplyLanguageCarrier | null {
  const opts = resolveOptions(options);
  const tracker = createTracker();
  const messages =
    opts.carrierScope === "latestMessage" ? userMessagesBeforeCompaction.slice(-1) : userMessagesBeforeCompaction;
  for (const { entryId, message } of messages) {
    const read = readUserMessage(message, opts, cache);
    observeUserMessage(tracker, entryId, read.reading, read.request.request, opts);
  }
  const language = effectiveLanguage(tracker, opts);
  if (!language || !opts.languageNames.includes(language.name)) return null;
  return { userLanguage: language.name, userLanguageRequested: language.requested, fromEntryId: language.fromEntryId };
}

/** RL-23: the note a converted compaction summary carries (either form), or null. */
export function readCarrier(message: LlmMessage, options?: Partial<ReplyLanguageOptions>): NoteLanguage | null {
  const opts = resolveOptions(options);
  if (message.role !== "user") return null;
  if (isText(message.content)) return carrierInText(message.content, opts);
  const blocks = message.content;
  const last = blocks[blocks.length - 1];
  if (blocks.length >= 2 && last && last.type === "text") {
    const note = parseNoteText(last.text, opts);
    if (note) return note;
  }
  for (const block of blocks) {
    if (block.type !== "text") continue;
    const note = carrierInText(block.text, opts);
    if (note) return note;
  }
  return null;
}

function carrierInText(stored: Text, options: ReplyLanguageOptions): NoteLanguage | null {
  // Finding the summary's end needs the characters (a summary is read once per compaction).
  const text = textString(stored);
  const end = text.lastIndexOf(SUMMARY_END);
  if (end === -1) return null;
  const after = text.slice(end + SUMMARY_END.length);
  // Accept the configured separator and, for reading, any run of blank space.
  const noteText = after.startsWith(options.carrierSeparator)
    ? after.slice(options.carrierSeparator.length)
    : after.replace(/^\s+/, "");
  if (noteText === after) return null;
  return parseNoteText(noteText, options);
}

/**
 * RL-23: renders the carrier into a converted compaction summary (the ContextMessage built by
 * PI-C5). Same-block form appends separator + note text to the summary's text block; second-block
 * form adds the note as a second text block. Idempotent: a summary that already carries a note is
 * returned unchanged. Returns the input unchanged when the name is not listed, or when it is a
 * requested English and `noteForRequestedEnglish` is off (RL-18).
 */
export function applyCompactionCarrier(
  summary: ContextMessage,
  carrier: Pick<ReplyLanguageCarrier, "userLanguage" | "userLanguageRequested"> & { fromEntryId?: string | null },
  options?: Partial<ReplyLanguageOptions>,
): ContextMessage {
  const opts = resolveOptions(options);
  const message = summary.message;
  if (message.role !== "user") return summary;
  if (!opts.languageNames.includes(carrier.userLanguage)) return summary;
  if (carrier.userLanguage === "English" && carrier.userLanguageRequested && !opts.noteForRequestedEnglish) return summary;
  if (readCarrier(message, opts) || noteOfMessage(message, opts)) return summary;
  const language: NoteLanguage = { name: carrier.userLanguage, requested: carrier.userLanguageRequested };
  const noteText = renderNoteText(language, opts);
  const blocks = isText(message.content) ? [{ type: "text" as const, text: message.content }] : message.content;
  let content: UserMessage["content"];
  if (opts.carrierForm === "second-block") {
    content = [...blocks, { type: "text", text: noteText }];
  } else {
    // Same block: the summary's (last) text block gets `\n\n` + note.
    let lastText = -1;
    for (let i = blocks.length - 1; i >= 0; i--) if (blocks[i]?.type === "text") { lastText = i; break; }
    if (lastText === -1) content = [...blocks, { type: "text", text: noteText }];
    else
      content = blocks.map((block, i) =>
        i === lastText && block.type === "text" ? { ...block, text: textString(block.text) + opts.carrierSeparator + noteText } : block,
      );
  }
  const fromEntryId = carrier.fromEntryId ?? null;
  const how = language.requested
    ? `the user explicitly asked for ${language.name}${fromEntryId ? ` in message ${fromEntryId}` : ""}`
    : `read from user message ${fromEntryId ?? "(unknown)"}, the latest with prose before the compaction`;
  const explanation = `Reply-language carrier after </summary>: ${language.name}, ${how} (RL-22, RL-23).`;
  return {
    message: { ...message, content },
    provenance: {
      ...summary.provenance,
      explanation: summary.provenance.explanation ? `${summary.provenance.explanation} ${explanation}` : explanation,
      note: {
        language: language.name,
        source: language.requested ? "explicit-request" : "written",
        fromEntryId,
        builtUpChars: 0,
        inferredRules: ["RL-22", "RL-23", "RL-19"],
      },
    },
  };
}
