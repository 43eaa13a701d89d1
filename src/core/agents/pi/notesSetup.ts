// Wiring of senpi's reply-language notes (reply-language.md, SP-C5, SP-P5) into the pi/senpi
// pipeline: whether notes apply, the per-session state they share across turns (resolved options,
// one reading cache, the carrier of each compaction entry), and the default SP-C5 step.
// Notes apply only with the senpi profile and `options.notes === true`; the default is off (see
// NOTES_DEFAULT). The pi profile never inserts notes.
import type { CompactionSummaryMessage, ContextMessage, PipelineOptions } from "../../model";
import {
  compactionCarrier,
  createReadingCache,
  insertReplyLanguageNotes,
  resolveOptions,
  type ReadingCache,
  type ReplyLanguageCarrier,
  type ReplyLanguageOptions,
  type UserProseMessage,
} from "../../notes";

/**
 * Default of `PipelineOptions.notes` in the senpi profile: off. The spec's switch
 * `replyLanguageNotes` is "on for senpi ≥ PR #4540, off otherwise" (reply-language.md §9), but a
 * session file does not say which senpi wrote it (RL-21: the format is unchanged), and the one
 * recorded senpi session (fixture senpi/print-openai-autocompact, senpi 2026.8.22-2) carries no
 * notes. So rebuilt requests match the recorded senpi by default, and the UI/CLI switch
 * (`notes: true`, `--notes on`) shows the same session as senpi with the PR would send it.
 */
export const NOTES_DEFAULT = false;

/** Notes are inserted: senpi profile and notes switched on. */
function notesEnabled(options: PipelineOptions): boolean {
  return options.profile === "senpi" && (options.notes ?? NOTES_DEFAULT) === true;
}

/** What every turn of one session shares for one set of note options. */
export interface NotesSetup {
  /** Identifies the option set (part of cache keys of carrier-bearing summary messages). */
  key: string;
  options: ReplyLanguageOptions;
  /** RL-25 … RL-27: one reading per user message across all turns and the carrier. */
  cache: ReadingCache;
  /** RL-22: the carrier of each compaction entry (null: nothing to carry). */
  carriers: Map<string, ReplyLanguageCarrier | null>;
}

/** Per-session store of setups, keyed by `notesOptionsKey` (lives in PiSessionCache). */
export type NotesSetups = Map<string, NotesSetup>;

/** A stable key for a partial option set (regular expressions by their source). */
function notesOptionsKey(partial: Partial<ReplyLanguageOptions> | undefined): string {
  if (!partial) return "default";
  return JSON.stringify(partial, (_key, value: unknown) => (value instanceof RegExp ? value.toString() : value));
}

/** The session's setup for these options, or null when notes do not apply. */
export function notesSetupFor(setups: NotesSetups, options: PipelineOptions): NotesSetup | null {
  if (!notesEnabled(options)) return null;
  const key = notesOptionsKey(options.notesOptions);
  let setup = setups.get(key);
  if (!setup) {
    setup = { key, options: resolveOptions(options.notesOptions), cache: createReadingCache(), carriers: new Map() };
    setups.set(key, setup);
  }
  return setup;
}

/** What conversion needs to render a carrier (RL-23) with its explanation. */
export interface CarrierSource {
  options: ReplyLanguageOptions;
  /** The user message the carried language was read from (or that held the request). */
  fromEntryId: string | null;
}

/** Registered by the projection on each carrier-bearing summary object it creates. */
export const carrierSources = new WeakMap<CompactionSummaryMessage, CarrierSource>();

/**
 * RL-22: the carrier of a compaction entry, from the user messages on the path before it (path
 * order). The path before an entry is the same on every branch, so it is computed once per entry.
 */
export function carrierOf(
  setup: NotesSetup,
  compactionId: string,
  usersBefore: () => readonly UserProseMessage[],
): ReplyLanguageCarrier | null {
  let carrier = setup.carriers.get(compactionId);
  if (carrier === undefined) {
    carrier = compactionCarrier(usersBefore(), setup.options, setup.cache);
    setup.carriers.set(compactionId, carrier);
  }
  return carrier;
}

/**
 * The default SP-C5 step for one turn: the note pass with the session's reading cache and, when
 * a compaction is in force, the exact RL-14 history (the user messages the compaction removed).
 */
export function defaultNotesStep(
  setup: NotesSetup,
  priorUserMessages: readonly UserProseMessage[] | undefined,
): (messages: ContextMessage[]) => ContextMessage[] {
  return (messages) =>
    insertReplyLanguageNotes(messages, setup.options, {
      cache: setup.cache,
      ...(priorUserMessages ? { priorUserMessages } : {}),
    });
}
