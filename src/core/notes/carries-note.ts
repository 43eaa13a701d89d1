// Which context messages the UI and the analyses mark as carrying a reply-language note: the note
// itself, or a message the note was folded into (a compaction summary, RL-23).
import type { ContextMessage } from "../model";
import { NOTE_RULE } from "./insert";

/** A context message that is a reply-language note or carries one (a compaction summary, RL-23). */
export function carriesNote(item: ContextMessage): boolean {
  return item.provenance.rule === NOTE_RULE || item.provenance.note !== undefined;
}
