// The search index of one branch of a session: every distinct context message once, in the order
// the turns first send it, with that first turn, its index in that turn's context, its kind and a
// trigram sketch of its text. It is built by one walk of the turns' messages (no request is
// serialized) in steps, so a caller can build it in slices or in the background, and a search can
// start before it is complete: it reads the entries built so far and advances the build as needed.
import type { ContextMessage, LlmMessage, PipelineOptions, Session } from "../model";
import { iterateTurnMessages } from "../session/turnMessages";
import { compositionKind, type CompositionKind } from "../prefix/composition";
import type { Text } from "../text/text";
import { visitMessageTexts } from "./messageText";
import { buildSketch, type TrigramSketch } from "./trigramSketch";

export interface IndexEntry {
  message: LlmMessage;
  /** First turn whose context holds the message, and its index there. */
  turn: number;
  index: number;
  kind: CompositionKind;
  sketch: TrigramSketch;
}

export class SearchIndex {
  readonly entries: IndexEntry[] = [];
  /** Turns walked so far; the session's turn count once `complete`. */
  turns = 0;
  complete = false;
  /** Time spent building so far (ms), kept by callers that time their slices. */
  buildMs = 0;
  private readonly seen = new WeakSet<object>();
  private readonly walk: Iterator<{ turn: number; messages: readonly ContextMessage[] }>;

  constructor(session: Session, options: PipelineOptions) {
    this.walk = iterateTurnMessages(session, options)[Symbol.iterator]();
  }

  /** Indexes the next turn; false once every turn is indexed. */
  step(): boolean {
    if (this.complete) return false;
    const next = this.walk.next();
    if (next.done) {
      this.complete = true;
      return false;
    }
    const { turn, messages } = next.value;
    for (let index = 0; index < messages.length; index++) {
      const item = messages[index]!;
      const message = item.message;
      if (this.seen.has(message)) continue;
      this.seen.add(message);
      const texts: Text[] = [];
      visitMessageTexts(message, (text) => texts.push(text) > 0);
      this.entries.push({ message, turn, index, kind: compositionKind(item), sketch: buildSketch(texts) });
    }
    this.turns = turn;
    return true;
  }

  /** Builds the whole index at once (tests, the CLI). */
  buildAll(): this {
    while (this.step());
    return this;
  }
}
