// The prefix-break causes of PD-2 in words, for the UI and reports: "history rewritten
// (compaction)", "system prompt changed (date line)", …
import type { PrefixCause } from "./types";

const CAUSE_WORDS: Readonly<Record<PrefixCause, string>> = {
  "model-changed": "model changed",
  "settings-changed": "settings changed",
  "tools-changed": "tool definitions changed",
  "history-rewritten": "history rewritten",
  "failed-turn-dropped": "failed turn dropped",
  "branch-switch": "branch switch",
  "system-changed": "system prompt changed",
  insertion: "message inserted",
  "note-removed": "note removed",
  "timestamp-changed": "timestamp changed",
  truncation: "truncation",
  mutation: "earlier message edited",
};

/** A cause in words, with its detail when there is one. */
export function causeInWords(cause: string, detail: string | null = null): string {
  const words = (CAUSE_WORDS as Record<string, string>)[cause] ?? cause;
  return detail ? `${words} (${detail})` : words;
}
