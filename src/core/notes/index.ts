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
} from "./insert";
export {
  compactionCarrier,
  applyCompactionCarrier,
  readCarrier,
  type ReplyLanguageCarrier,
  type UserProseMessage,
} from "./carrier";
export { createReadingCache, readUserMessage, hashTextParts, type ReadingCache } from "./cache";
export { readLanguage } from "./reading";
export { checkRequest } from "./request";
export { stripForReading, stripTaggedBlocks, isLogLine } from "./strip";
export { renderNoteText, noteOfMessage } from "./note-text";
export { fnv1a32, fnv1a32Utf8 } from "../util/fnv1a";
export { DEFAULT_OPTIONS, INFERRED_RULES, resolveOptions, type ReplyLanguageOptions } from "./options";
export type { LanguageSource } from "./effective";
