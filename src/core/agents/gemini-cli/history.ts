// The fold of a Gemini CLI chat file (docs/formats/gemini-cli.md), the way the CLI loads it
// (`loadConversationRecord`, packages/core/src/services/chatRecordingService.ts): records in file
// order; a message record replaces the message with its id in place or is appended; `$set.messages`
// replaces the whole list (written at start-up, on every resume, after a compression);
// `$rewindTo` drops the message with that id and everything after it (all of them when the id is
// unknown). Walking the fold also gives what the final list cannot: the history as it stood when
// each request was sent — a `gemini` message written for the first time is the answer to one
// request, whose history is the list just before it — and each chat compression, a `$set.messages`
// that brings a new `<state_snapshot>` user message. The fold is kept with the session and goes on
// with the records a followed chat appends (`carryGeminiFold`).
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { isObject } from "../../util/is-object";
import { isText, textString, textUnits, type Text } from "../../text/text";
import { joinTexts, textStart, trimmedTextStartsWith } from "../../text/textTests";

/** One message of the folded list, with the entry (file line) that last wrote it. */
export interface HistoryMessage {
  id: string;
  type: string;
  record: Record<string, unknown>;
  entryId: string;
}

/** One main request: the `gemini` message that answered it and the history it was sent with. */
export interface GeminiTurn {
  turn: number;
  /** The entry of the answer's first record. */
  answer: SessionEntry;
  /** The answer's last record (tokens, model, tool calls). */
  answerRecord: Record<string, unknown>;
  /**
   * The folded list just before the answer was first written (what the request carried) is the
   * first `historyLength` messages of `historyBase`: lists are shared between turns, copied only
   * when a message is replaced or the list cut (see `turnHistory`).
   */
  historyBase: readonly HistoryMessage[];
  historyLength: number;
  /** 1 for the process that started the session, then one more per resume (metadata line). */
  process: number;
  /** True for the first request of its process (after a resume the CLI's last prompt count is a local estimate). */
  firstOfProcess: boolean;
}

/** A chat compression recorded as the `$set.messages` that installed the compressed history. */
interface GeminiCompression {
  entry: SessionEntry;
  /** Turns answered before it. */
  turnsBefore: number;
  /** The folded list just before it: the history the compression service read. */
  before: HistoryMessage[];
  /** The compressed list it installed. */
  after: HistoryMessage[];
  /** The `<state_snapshot>` text (the verified summary): the stored text itself when the file keeps it as one. */
  summary: Text;
  /** Index in `after` of the first message kept from the old history (after the model's acknowledgement). */
  keptFrom: number;
}

export interface GeminiIndex {
  turns: GeminiTurn[];
  compressions: GeminiCompression[];
  /** The final folded list (what a resume would load). */
  final: HistoryMessage[];
  warnings: ReaderWarning[];
}

const SNAPSHOT_OPEN = "<state_snapshot>";

/** The texts of a message's content (a large one may be a stored text), in order. */
function contentTexts(content: unknown): Text[] {
  if (isText(content)) return [content];
  const parts = Array.isArray(content) ? content : isObject(content) ? [content] : [];
  return parts.map((part) => (typeof part === "string" ? part : isObject(part) && isText(part.text) ? part.text : ""));
}

/** The text parts of a message's content, joined. */
export function contentText(content: unknown): string {
  return contentTexts(content).map(textString).join("");
}

/** Whether the texts joined, leading whitespace trimmed, start with `prefix`, decoding no more stored texts than that takes. */
export function joinedTextsStartWith(texts: readonly Text[], prefix: string): boolean {
  let head = "";
  for (const text of texts) {
    if (head === "" && typeof text !== "string" && text.units >= prefix.length) {
      const settled = trimmedTextStartsWith(text, prefix);
      if (settled !== null) return settled;
    }
    // The text's first characters settle it unless blanks fill them: then it is read whole.
    const start = textStart(text);
    const joined = (head + start).trimStart();
    head = joined.length >= prefix.length || start.length === textUnits(text) ? joined : (head + textString(text)).trimStart();
    if (head.length >= prefix.length) break;
  }
  return head.startsWith(prefix);
}

function isSnapshot(message: HistoryMessage): boolean {
  return message.type === "user" && joinedTextsStartWith(contentTexts(message.record.content), SNAPSHOT_OPEN);
}

function messageOf(value: unknown, entryId: string): HistoryMessage | null {
  if (!isObject(value) || typeof value.id !== "string" || typeof value.type !== "string") return null;
  return { id: value.id, type: value.type, record: value, entryId };
}

/** The history a turn's request carried. */
export function turnHistory(turn: GeminiTurn): HistoryMessage[] {
  return turn.historyBase.slice(0, turn.historyLength);
}

/**
 * Where a turn's history list came from when the fold copied it (a message replaced in place, a
 * rewind): the list a turn held before it and how many leading messages the two share (the same
 * objects). What was worked out for the first `shared` messages of `parent` holds for the list too.
 */
export interface HistoryLineage {
  parent: readonly HistoryMessage[];
  shared: number;
}

const lineages = new WeakMap<readonly HistoryMessage[], HistoryLineage>();

/** The list `history` was copied from and how much of it it keeps, or undefined (a list of its own). */
export function historyLineage(history: readonly HistoryMessage[]): HistoryLineage | undefined {
  return lineages.get(history);
}

const indexes = new WeakMap<Session, GeminiIndex>();
/** The fold that made a session's index, kept so that the index of the session grown by appended records goes on from it. */
const folds = new WeakMap<Session, HistoryFold>();

export function getGeminiIndex(session: Session): GeminiIndex {
  let index = indexes.get(session);
  if (!index) {
    let fold = folds.get(session);
    if (!fold) {
      fold = new HistoryFold();
      for (const entry of session.entries) fold.push(entry);
      folds.set(session, fold);
    }
    index = fold.index();
    indexes.set(session, index);
  }
  return index;
}

/**
 * `next` is `previous` with records appended: the fold of `previous`'s records goes on with the
 * new ones (it moves to `next`). The fold only ever reads forward: a `$set` or `$rewindTo` record
 * changes the list from where it is written, and the histories of earlier turns are copies
 * (copy-on-write) it does not touch; a later record of an answer updates that turn, as it would
 * in a fold of the whole file.
 */
export function carryGeminiFold(previous: Session, next: Session): void {
  const fold = folds.get(previous);
  if (!fold || folds.has(next)) return;
  folds.delete(previous);
  for (let at = fold.consumed; at < next.entries.length; at++) fold.push(next.entries[at] as SessionEntry);
  folds.set(next, fold);
}

/** The one forward fold of a chat file, kept open: `push` takes the next record, `index` gives the index of the records pushed so far. */
class HistoryFold {
  consumed = 0;
  private readonly warnings: ReaderWarning[] = [];
  private readonly turns: GeminiTurn[] = [];
  private readonly compressions: GeminiCompression[] = [];
  private list: HistoryMessage[] = [];
  /**
   * Where each id first stands in `list`: a record placed (found, or appended) in one lookup, not
   * a search of the whole history for every message written.
   */
  private positions = new Map<string, number>();
  /** True while a turn holds `list`: a cut, or a replacement within what a turn reads, then copies it first. */
  private shared = false;
  /**
   * How many leading messages of `list` the turns holding it read (the last one's history length:
   * each turn takes the list longer than the one before). A message past them (the answer written
   * again with its tool calls' results) is replaced in place: no turn reads it, so copying the
   * whole history for it (once per turn) would only keep one more list per turn alive.
   */
  private heldLength = 0;
  private readonly seenSnapshots = new Set<string>();
  /** The last list a turn held that `list` was copied from, and the leading messages they share; null when `list` shares none. */
  private lineage: HistoryLineage | null = null;
  private process = 0;
  private requestsInProcess = 0;
  /** The turn each answer id belongs to, so a later record of the answer (its tool calls) updates it. */
  private readonly answers = new Map<string, GeminiTurn>();

  index(): GeminiIndex {
    return { turns: this.turns.slice(), compressions: this.compressions.slice(), final: this.list.slice(), warnings: this.warnings.slice() };
  }

  /** Makes `list` one no turn holds before its message at `at` is replaced, when a turn reads that message. */
  private ownList(at: number): void {
    if (this.shared && at < this.heldLength) {
      this.lineage = { parent: this.list, shared: this.list.length };
      this.list = this.list.slice();
      this.shared = false;
    }
  }

  /** The list is about to lose or change its messages from `at` on: it shares fewer with the list it came from. */
  private changesFrom(at: number): void {
    if (this.lineage) this.lineage.shared = Math.min(this.lineage.shared, at);
  }

  private positionOf(id: string): number {
    return this.positions.get(id) ?? -1;
  }

  /** `positions` of a list made anew (a `$set`, a rewind to an unknown id). */
  private placeAll(): void {
    this.positions = new Map();
    this.list.forEach((message, at) => {
      if (!this.positions.has(message.id)) this.positions.set(message.id, at);
    });
  }

  /** `positions` after the list was cut to `length`: the ids first placed in the part cut off go. */
  private forgetFrom(removed: readonly HistoryMessage[], length: number): void {
    for (const message of removed) {
      const at = this.positions.get(message.id);
      if (at !== undefined && at >= length) this.positions.delete(message.id);
    }
  }

  push(entry: SessionEntry): void {
    this.consumed += 1;
    const raw = entry.raw;
    switch (entry.type) {
      case "metadata":
        this.process += 1;
        this.requestsInProcess = 0;
        break;
      case "rewind": {
        const at = this.positionOf(raw.$rewindTo as string);
        const removed = at >= 0 ? this.list.slice(at) : this.list;
        if (this.shared) this.lineage = { parent: this.list, shared: this.list.length };
        this.changesFrom(Math.max(at, 0));
        this.list = at >= 0 ? this.list.slice(0, at) : [];
        this.shared = false;
        if (at >= 0) this.forgetFrom(removed, at);
        else this.placeAll();
        break;
      }
      case "set": {
        const set = raw.$set as Record<string, unknown>;
        if (!Array.isArray(set.messages)) break;
        const next: HistoryMessage[] = [];
        set.messages.forEach((value, i) => {
          const message = messageOf(value, entry.id);
          if (message) next.push(message);
          else this.warnings.push({ line: entry.line, reason: `$set.messages[${i}] is not a message record ({id, type, content}); skipped` });
        });
        const snapshotAt = next.findIndex((m) => isSnapshot(m) && !this.seenSnapshots.has(m.id));
        for (const m of next) if (isSnapshot(m)) this.seenSnapshots.add(m.id);
        if (snapshotAt >= 0) {
          const acknowledgement = next[snapshotAt + 1];
          const keptFrom = acknowledgement && acknowledgement.type === "gemini" ? snapshotAt + 2 : snapshotAt + 1;
          this.compressions.push({ entry, turnsBefore: this.turns.length, before: this.list.slice(), after: next, summary: joinTexts(contentTexts(next[snapshotAt]!.record.content), ""), keptFrom });
        }
        this.list = next.slice();
        this.shared = false;
        this.lineage = null;
        this.placeAll();
        break;
      }
      case "message": {
        const message = messageOf(raw, entry.id);
        if (!message) break;
        const at = this.positionOf(message.id);
        if (at >= 0) {
          this.ownList(at);
          this.changesFrom(at);
          this.list[at] = message;
          const answered = this.answers.get(message.id);
          if (answered) answered.answerRecord = raw;
          break;
        }
        if (message.type === "gemini") {
          if (this.process === 0) this.process = 1;
          const turn: GeminiTurn = {
            turn: this.turns.length + 1,
            answer: entry,
            answerRecord: raw,
            historyBase: this.list,
            historyLength: this.list.length,
            process: this.process,
            firstOfProcess: this.requestsInProcess === 0,
          };
          this.turns.push(turn);
          if (!this.shared && this.lineage) {
            lineages.set(this.list, this.lineage);
            this.lineage = null;
          }
          this.answers.set(message.id, turn);
          this.requestsInProcess += 1;
          this.shared = true;
          this.heldLength = this.list.length;
        }
        this.positions.set(message.id, this.list.length);
        this.list.push(message);
        break;
      }
    }
  }
}
