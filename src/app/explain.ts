// Plain-text explanations the UI shows for what the pipeline synthesised: reply-language notes
// (reply-language.md RL-15 … RL-23, from `provenance.note` and `provenance.explanation`) and the
// "inferred" labels that spec/README.md requires for every span produced by an [INF] rule (the
// rule id and the alternative we did not choose). Everything returned is text, never markup.
import type { ApiId, ContextMessage, Provenance, ReplyLanguageNoteInfo } from "../core/model";
import { INFERRED_RULES } from "../core/notes/options";
import { SERIALIZER_INFERENCES } from "../core/providers/inferences";

export const NOTE_RULE = "note:reply-language";

/** One [INF] rule as the UI labels it. */
export interface InferredLabel {
  ruleId: string;
  /** What the rule decides and the value we chose. */
  what: string;
  /** The alternative reading of the sources (empty when the spec names none). */
  alternative: string;
}

/** The [INF] label of a rule id: the reply-language table first, then the serializer list. */
export function inferredLabel(ruleId: string): InferredLabel {
  const notes = INFERRED_RULES.filter((rule) => rule.ruleId === ruleId);
  if (notes.length > 0) {
    return {
      ruleId,
      what: notes.map((rule) => `${rule.what} (ours: ${rule.ourDefault})`).join("; "),
      alternative: notes.map((rule) => rule.alternative).join("; "),
    };
  }
  const serializer = SERIALIZER_INFERENCES.find((rule) => rule.ruleId === ruleId);
  if (serializer) {
    return {
      ruleId,
      what: serializer.description,
      alternative: serializer.option ? `change option ${serializer.option}` : "the unpinned alternative of pi-ai's behaviour",
    };
  }
  return { ruleId, what: "inferred behaviour (see the spec)", alternative: "" };
}

/** "inferred (RL-19): …; alternative: …" — the text of an "inferred" badge's tooltip. */
export function inferredText(ruleId: string): string {
  const label = inferredLabel(ruleId);
  return `inferred (${ruleId}): ${label.what}${label.alternative ? `; alternative: ${label.alternative}` : ""}`;
}

/** The serializer inferences that apply to a wire shape, as badge labels. */
export function serializerInferences(api: ApiId): InferredLabel[] {
  return SERIALIZER_INFERENCES.filter((rule) => rule.apis.includes(api)).map((rule) => inferredLabel(rule.ruleId));
}

function sourceSentence(note: ReplyLanguageNoteInfo): string {
  const from = note.fromEntryId ? `user message ${note.fromEntryId}` : null;
  const carried = note.carriedByEntryId ? `the compaction summary ${note.carriedByEntryId}` : null;
  if (note.source === "explicit-request") {
    return `The user explicitly asked for ${note.language}${from ? ` (${from})` : carried ? ` before the compaction (carried by ${carried})` : ""}.`;
  }
  if (from) return `Read from what the user wrote in ${from}.`;
  if (carried) return `Read before the compaction (carried by ${carried}).`;
  return "Read from an earlier user message.";
}

/** The [INF] rules behind a note or carrier, RL-19 first for an inserted note (its text is ours). */
export function noteRuleIds(provenance: Provenance): string[] {
  const note = provenance.note;
  if (!note) return [];
  const rules = [...new Set([provenance.inferred, ...(note.inferredRules ?? [])].filter((id): id is string => Boolean(id)))];
  if (provenance.rule === NOTE_RULE && !rules.includes("RL-19")) rules.unshift("RL-19");
  return rules;
}

/**
 * The hover / details text of a note or a carrying compaction summary: language, where it was read
 * from, characters built up, the core's own sentence, then every [INF] rule that shaped it with
 * its alternative (RL-19 first: the note text itself is our inference).
 */
export function noteExplanation(provenance: Provenance): string | null {
  const note = provenance.note;
  if (!note) return null;
  const carrier = provenance.rule !== NOTE_RULE;
  const lines = [
    carrier
      ? `Reply-language note carried by this compaction summary (after </summary>): ${note.language}.`
      : `Reply-language note: ${note.language}.`,
    sourceSentence(note),
    carrier
      ? "Carried at the compaction: no characters counted (RL-22, RL-23)."
      : `${note.builtUpChars} characters of tool output, notices, bash output and branch summaries had built up (RL-16).`,
  ];
  if (provenance.explanation) lines.push(provenance.explanation);
  for (const ruleId of noteRuleIds(provenance)) lines.push(inferredText(ruleId));
  return lines.join("\n");
}

/** Hover text of a synthesised (non-note) message. */
export function synthesizedExplanation(context: ContextMessage): string {
  const { provenance } = context;
  const parts = [`Inserted by the pipeline: ${provenance.rule}`];
  if (provenance.ruleId) parts.push(`(${provenance.ruleId})`);
  if (provenance.entryId) parts.push(`from entry ${provenance.entryId}`);
  let text = parts.join(" ");
  if (provenance.explanation) text += `. ${provenance.explanation}`;
  if (provenance.inferred) text += `.\n${inferredText(provenance.inferred)}`;
  return text;
}
