// Background passes in the worker (prefix reports, compositions, exact counts) give way while the
// user is stepping: the worker answers one call at a time, and on a machine with few cores the
// counting workers share the cores with the page. Each interactive call (a request to show, a
// diff, a token view) is noted; a background pass that reaches a yield point waits until none has
// come for QUIET_AFTER_INTERACTIVE_MS.

const QUIET_AFTER_INTERACTIVE_MS = 300;
let lastInteractiveAt = -Infinity;

export function noteInteractiveCall(): void {
  lastInteractiveAt = performance.now();
}

/** Milliseconds a background pass should still wait (0: go on). */
export function interactiveHoldMs(): number {
  return Math.max(0, lastInteractiveAt + QUIET_AFTER_INTERACTIVE_MS - performance.now());
}

/** Resolves once `holdMs()` (milliseconds still to wait) is 0, sleeping as long as it says. */
export async function waitWhileHeld(holdMs: () => number): Promise<void> {
  for (let hold = holdMs(); hold > 0; hold = holdMs()) {
    await new Promise((resolve) => setTimeout(resolve, hold));
  }
}

/** Resolves once no interactive call has come for QUIET_AFTER_INTERACTIVE_MS. */
export function waitWhileInteractive(): Promise<void> {
  return waitWhileHeld(interactiveHoldMs);
}
