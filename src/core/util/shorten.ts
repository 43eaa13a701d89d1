// Cutting an array back to a shorter length. The per-turn structures of a session walk (the
// segmenter's run, the cache simulation's prefix points) lose a few items from their end each
// turn: popping them stays in compiled code, where assigning `length` calls into the engine's
// runtime, a cost paid by every array every turn.

/** Removes the items of `list` from index `length` on (nothing when it is not longer). */
export function shortenTo(list: unknown[], length: number): void {
  while (list.length > length) list.pop();
}
