// Public surface of senpi's reply-language notes (reply-language.md). The pipeline plugs in
// createReplyLanguageStep (SP-C5); the projection and conversion use compactionCarrier and
// applyCompactionCarrier for the summary carrier (RL-21 … RL-24).
export {
  insertReplyLanguageNotes,
  createReplyLanguageStep,
  messageChars,
  NOTE_RULE,
  COUNTED_USER_RULES,
  USER_WORDS_RULE,
  COMPACTION_SUMMARY_RULE,
  type NotesContext,
} from "./insert";
export {
  compactionCarrier,
  applyCompactionCarrier,
  readCarrier,
  type ReplyLanguageCarrier,
  type UserProseMessage,
} from "./carrier";
export {
  createReadingCache,
  readUserMessage,
  textParts,
  hashTextParts,
  type ReadingCache,
  type ReadingCacheStats,
  type MessageReading,
} from "./cache";
export { readLanguage, readLanguageDetail, type Reading, type ReadingDetail } from "./reading";
export { checkRequest, matchDirective, type RequestCheck, type RequestMatch, type RequestRejection } from "./request";
export { stripForReading, stripTaggedBlocks, isLogLine, type TagStripResult, type StripResult } from "./strip";
export { countWords, letterScript, type WordCounts } from "./words";
export { renderNoteText, parseNoteText, noteOfMessage, type NoteLanguage } from "./note-text";
export { fnv1a32, fnv1a32Utf8 } from "../util/fnv1a";
export { carriesNote } from "./carries-note";
export {
  DEFAULT_OPTIONS,
  DEFAULT_LANGUAGE_NAMES,
  DEFAULT_LOG_LINE_PATTERNS,
  INFERRED_RULES,
  resolveOptions,
  type ReplyLanguageOptions,
  type NoteTemplate,
  type InferredRule,
  type ScriptName,
} from "./options";
export type { LanguageSource } from "./effective";
