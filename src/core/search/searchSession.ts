// Search over every turn's context messages. A message object shared by many turns is searched
// once, at the first turn whose context holds it; a hit names that turn and the message's index in
// its context. A generator that also yields after each turn, so a caller can run it in slices of a
// few milliseconds (the worker does) and hand hits out as they are found.
import type { PipelineOptions, Session } from "../model";
import { iterateTurnRequests } from "../pipeline/turnRequests";
import { compositionKind, type CompositionKind } from "../prefix/composition";
import { matchMessage, messageToolName, queryMatcher } from "./messageText";

export interface SearchHit {
  turn: number;
  /** Index of the message in the turn's context. */
  index: number;
  role: string;
  kind: CompositionKind;
  toolName: string | null;
  /** The match with some text around it, on one line. */
  snippet: string;
  /** Where the match starts in the snippet. */
  snippetOffset: number;
  /** The matched text in its original case. */
  match: string;
  /** Matches of the query in the message. */
  count: number;
}

export type SearchStep = { kind: "hit"; hit: SearchHit } | { kind: "turn"; turn: number };

const AROUND = 48;

function snippetOf(text: string, at: number, length: number): { snippet: string; offset: number } {
  const start = Math.max(0, at - AROUND);
  const end = Math.min(text.length, at + length + AROUND);
  const before = (start > 0 ? "…" : "") + text.slice(start, at).replace(/\s+/g, " ");
  const after = text.slice(at, end).replace(/\s+/g, " ") + (end < text.length ? "…" : "");
  return { snippet: before + after, offset: before.length };
}

/** Every message matching `query` (case-insensitive), turn by turn. */
export function* searchSession(session: Session, options: PipelineOptions, query: string): Generator<SearchStep> {
  if (query.length === 0) return;
  const matcher = queryMatcher(query);
  const seen = new WeakSet<object>();
  for (const { turn, request } of iterateTurnRequests(session, options)) {
    const messages = request.messages;
    for (let index = 0; index < messages.length; index++) {
      const item = messages[index]!;
      const message = item.message;
      if (seen.has(message)) continue;
      seen.add(message);
      const found = matchMessage(message, matcher);
      if (!found) continue;
      const { snippet, offset } = snippetOf(found.text, found.at, found.length);
      yield {
        kind: "hit",
        hit: {
          turn,
          index,
          role: message.role,
          kind: compositionKind(item),
          toolName: messageToolName(message),
          snippet,
          snippetOffset: offset,
          match: found.text.slice(found.at, found.at + found.length),
          count: found.count,
        },
      };
    }
    yield { kind: "turn", turn };
  }
}
