// A followed session grows by appended entries: each new session value the line reader hands out
// (src/core/session/follow.ts) starts with every entry of the previous one, the same objects. The
// agent's per-session caches (its entry tree, branch paths, converted messages, the analysis
// walked so far) are keyed by the session value, so without a link every new value would build
// them again from the first entry. `sessionGrew` checks that `next` only appends to `previous`
// and asks the agent to carry its caches over (`FormatPipeline.carryCaches`); an agent without
// the hook rebuilds them.
import type { Session } from "../model";
import { findAgent } from "./agents";

/** True when `next` is `previous` with entries appended: same agent, same header, the same entry objects first. */
export function appendsTo(previous: Session, next: Session): boolean {
  if (previous === next || previous.formatId !== next.formatId) return false;
  if (previous.header !== next.header) return false;
  const before = previous.entries;
  const after = next.entries;
  if (after.length < before.length) return false;
  // One comparison of references per entry: a small share of what carrying the caches saves.
  for (let index = before.length - 1; index >= 0; index--) {
    if (after[index] !== before[index]) return false;
  }
  return true;
}

/**
 * Tells the agent of `next` that it grew from `previous` (when it did: see `appendsTo`), so its
 * caches move over and extend. Returns true when the agent carried them.
 */
export function sessionGrew(previous: Session, next: Session): boolean {
  if (!appendsTo(previous, next)) return false;
  const carry = findAgent(next.formatId)?.pipeline.carryCaches;
  if (!carry) return false;
  carry(previous, next);
  return true;
}
