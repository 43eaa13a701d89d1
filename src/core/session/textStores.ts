// The text stores a session holds (its own and its sub-agent threads', src/core/text/storedText.ts),
// and their release when the session is closed or replaced: a store is registered in the realm
// that read it until released, so a host that drops a session without releasing its stores keeps
// their bytes. A store the next session still holds (a provisional value replaced by the final
// one, a followed file's grown value) is kept.
import type { Session } from "../model";
import { releaseTextStore, type TextStore } from "../text/storedText";

/** Every store `session` and its threads hold. */
function sessionTextStores(session: Session): Set<TextStore> {
  const stores = new Set<TextStore>();
  const visit = (current: Session) => {
    if (current.textStore) stores.add(current.textStore);
    for (const thread of current.threads ?? []) visit(thread.session);
  };
  visit(session);
  return stores;
}

/** Releases the stores of `closed` that none of `kept` holds. */
export function releaseSessionTexts(closed: Session | null, ...kept: (Session | null)[]): void {
  if (!closed) return;
  const still = new Set<TextStore>();
  for (const session of kept) if (session) for (const store of sessionTextStores(session)) still.add(store);
  for (const store of sessionTextStores(closed)) if (!still.has(store)) releaseTextStore(store);
}
