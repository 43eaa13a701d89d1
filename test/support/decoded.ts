// Tests compare what two reads or two builds made; a stored text names its store, so the same
// text read twice is two different references. These copies put every stored text's characters in
// its place and leave the store out, so that comparisons are about the texts, not where they live.
import type { Session } from "../../src/core/model";
import { withTextsDecoded } from "../../src/core/text/text";

/** The value with every stored text decoded (a request body, a list of messages, an analysis). */
export function decoded<T>(value: T): T {
  return withTextsDecoded(value);
}

/** The session with its texts decoded and without its text store (so two reads compare equal). */
export function decodedSession(session: Session): Session {
  const { textStore: _store, threads, ...rest } = session;
  const copy = withTextsDecoded(rest) as Session;
  return threads ? { ...copy, threads: threads.map((thread) => ({ ...withTextsDecoded(thread), session: decodedSession(thread.session) })) } : copy;
}
