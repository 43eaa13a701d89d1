// Note texts (RL-19) and recognising existing notes (RL-20): a note is a user message whose only
// text block is exactly the template with a listed name. A lookalike with an unlisted name is
// ordinary user prose, so user text can never inject a name.
import type { LlmMessage } from "../model";
import type { ReplyLanguageOptions } from "./options";
import { isText, textString, textUnits, type Text } from "../text/text";

export interface NoteLanguage {
  name: string;
  /** The language comes from an explicit request (RL-10). */
  requested: boolean;
}

/** RL-19: the text of a note. */
export function renderNoteText(language: NoteLanguage, options: ReplyLanguageOptions): string {
  const template = language.requested ? options.noteTemplate.requested : options.noteTemplate.written;
  return template.split("{name}").join(language.name);
}

interface NotePatterns {
  written: RegExp;
  requested: RegExp;
  maxLength: number;
}
const patternCache = new WeakMap<ReplyLanguageOptions, NotePatterns>();

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function patternsFor(options: ReplyLanguageOptions): NotePatterns {
  const cached = patternCache.get(options);
  if (cached) return cached;
  const names = options.languageNames.map(escapeRe).join("|");
  const build = (template: string): RegExp =>
    new RegExp(`^${template.split("{name}").map(escapeRe).join(`(${names})`)}$`);
  const longestName = Math.max(0, ...options.languageNames.map((n) => n.length));
  const patterns = {
    written: build(options.noteTemplate.written),
    requested: build(options.noteTemplate.requested),
    maxLength: Math.max(options.noteTemplate.written.length, options.noteTemplate.requested.length) + longestName,
  };
  patternCache.set(options, patterns);
  return patterns;
}

/** RL-20: the language a note text names, or null when the text is not a note. */
export function parseNoteText(stored: Text, options: ReplyLanguageOptions): NoteLanguage | null {
  const patterns = patternsFor(options);
  // Too long to be a note: said from the length alone, so a stored text is not decoded.
  if (textUnits(stored) > patterns.maxLength) return null;
  const text = textString(stored);
  const requested = patterns.requested.exec(text);
  if (requested && requested[1] !== undefined) return { name: requested[1], requested: true };
  const written = patterns.written.exec(text);
  if (written && written[1] !== undefined) return { name: written[1], requested: false };
  return null;
}

/** RL-20: a user message whose only block is a note text. */
export function noteOfMessage(message: LlmMessage, options: ReplyLanguageOptions): NoteLanguage | null {
  if (message.role !== "user") return null;
  const content = message.content;
  if (isText(content)) return parseNoteText(content, options);
  if (content.length !== 1) return null;
  const block = content[0];
  if (!block || block.type !== "text") return null;
  return parseNoteText(block.text, options);
}
