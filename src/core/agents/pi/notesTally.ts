// Incremental follower of the SP-C5 reply-language note step (src/core/notes/insert.ts), for the
// session analysis: fed the message stream the step sees (SenpiTally's listener), it knows at any
// point how many notes the step would insert into the context ending there, so the timeline gets
// per-turn note counts in one pass instead of re-running the step on every turn's whole context.
// It follows the step's rules exactly (RL-14 … RL-20); the analysis test checks it against the
// step turn by turn. A note at the very end of a context (a run followed by the end, RL-15) is
// counted only while it stays the end: if a user-role message follows later, later contexts do
// not have it, as in the step.
import type { ContextMessage, UserMessage } from "../../model";
import {
  COMPACTION_SUMMARY_RULE,
  COUNTED_USER_RULES,
  messageChars,
  NOTE_RULE,
  noteOfMessage,
  readCarrier,
  readUserMessage,
  renderNoteText,
  USER_WORDS_RULE,
  type LanguageSource,
  type UserProseMessage,
} from "../../notes";
import { createTracker, effectiveLanguage, observeCarrier, observeUserMessage, type LanguageTracker } from "../../notes/effective";
import { estimateMessageTokens } from "./estimate";
import type { SenpiStreamListener } from "./senpi";
import type { NotesSetup } from "./notesSetup";

/** Notes the step would insert into the context fed so far. */
export interface NotesCount {
  count: number;
  /** Characters of the inserted notes' text. */
  chars: number;
  /** pi's chars/4 estimate of the inserted notes, each a user message (PI-K2). */
  tokens: number;
}

export class NotesTally implements SenpiStreamListener {
  private readonly setup: NotesSetup;
  private readonly tracker: LanguageTracker = createTracker();
  /** The step reads the summary's carrier only when it is not given the exact history. */
  private readonly seedFromCarrier: boolean;
  private builtUp = 0;
  /** The last message that was not a note is a tool result: its run may end here. */
  private inRun = false;
  /** Notes already in the input right after the run's last tool result (RL-20). */
  private notesAfterRun = 0;
  private readonly inserted: NotesCount = { count: 0, chars: 0, tokens: 0 };

  constructor(setup: NotesSetup, priorUserMessages: readonly UserProseMessage[] | undefined) {
    this.setup = setup;
    this.seedFromCarrier = priorUserMessages === undefined;
    for (const { entryId, message } of priorUserMessages ?? []) this.observeUser(entryId, message);
  }

  message(item: ContextMessage): void {
    const kind = this.kind(item);
    if (kind === "note") {
      if (this.inRun) this.notesAfterRun += 1;
      return;
    }
    if (this.inRun) {
      this.inRun = false;
      // RL-15: a run followed by an assistant message is a candidate; by a user-role message, not.
      if (kind === "assistant") this.decideRunEnd();
    }
    const opts = this.setup.options;
    switch (kind) {
      case "prose":
        if (item.message.role === "user") this.observeUser(item.provenance.entryId, item.message);
        this.builtUp = 0;
        break;
      case "summary": {
        this.builtUp = 0; // RL-17
        const carried = this.seedFromCarrier ? readCarrier(item.message, opts) : null;
        if (carried) {
          observeCarrier(this.tracker, { name: carried.name, requested: carried.requested, fromEntryId: null, carriedByEntryId: item.provenance.entryId });
        }
        break;
      }
      case "user-words":
        this.builtUp = 0;
        break;
      case "counted":
        this.builtUp += messageChars(item.message, opts);
        break;
      case "tool":
        this.builtUp += messageChars(item.message, opts);
        this.inRun = true;
        this.notesAfterRun = 0;
        break;
      default:
        break;
    }
  }

  userWords(): void {
    if (this.inRun) this.inRun = false; // a user-role message follows the run: no note
    this.builtUp = 0;
  }

  /**
   * Notes in the context that ends here. `pendingUserWords`: SP-C4 will append a user-words
   * message after a final run, so that run is followed by a user-role message, not the end.
   */
  count(pendingUserWords: boolean): NotesCount {
    if (!this.inRun || pendingUserWords || this.notesAfterRun > 0) return { ...this.inserted };
    const language = this.noteLanguage();
    if (!language) return { ...this.inserted };
    const chars = this.noteText(language).length;
    return {
      count: this.inserted.count + 1,
      chars: this.inserted.chars + chars,
      tokens: this.inserted.tokens + this.noteTokens(language),
    };
  }

  private decideRunEnd(): void {
    const language = this.noteLanguage();
    if (!language) return;
    if (this.notesAfterRun === 0) {
      this.inserted.count += 1;
      this.inserted.chars += this.noteText(language).length;
      this.inserted.tokens += this.noteTokens(language);
    }
    if (this.setup.options.resetAfterNote) this.builtUp = 0; // RL-17
  }

  /** RL-16, RL-14, RL-9, RL-18: the language a note at a candidate position names, or null. */
  private noteLanguage(): LanguageSource | null {
    const opts = this.setup.options;
    if (this.builtUp < opts.thresholdChars) return null;
    const language = effectiveLanguage(this.tracker, opts);
    if (!language || !opts.languageNames.includes(language.name)) return null;
    if (language.requested && language.name === "English" && !opts.noteForRequestedEnglish) return null;
    return language;
  }

  private noteText(language: LanguageSource): string {
    return renderNoteText({ name: language.name, requested: language.requested }, this.setup.options);
  }

  private noteTokens(language: LanguageSource): number {
    return estimateMessageTokens({ role: "user", content: [{ type: "text", text: this.noteText(language) }] }, { profile: "senpi" });
  }

  private observeUser(entryId: string | null, message: UserMessage): void {
    const read = readUserMessage(message, this.setup.options, this.setup.cache);
    observeUserMessage(this.tracker, entryId, read.reading, read.request.request, this.setup.options);
  }

  /** The step's classification of a message (insert.ts `classify`). */
  private kind(item: ContextMessage): "tool" | "assistant" | "note" | "summary" | "prose" | "user-words" | "counted" | "other" {
    const message = item.message;
    const opts = this.setup.options;
    if (message.role === "toolResult") return "tool";
    if (message.role === "assistant") return "assistant";
    const rule = item.provenance.rule;
    if (rule === NOTE_RULE || noteOfMessage(message, opts)) return "note";
    if (rule === COMPACTION_SUMMARY_RULE) return "summary";
    if (opts.proseRules.includes(rule)) return "prose";
    if (rule === USER_WORDS_RULE) return "user-words";
    if (COUNTED_USER_RULES.includes(rule)) return "counted";
    return "other";
  }
}
