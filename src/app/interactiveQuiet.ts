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

/** Resolves once no interactive call has come for QUIET_AFTER_INTERACTIVE_MS. */
export async function waitWhileInteractive(): Promise<void> {
  for (let hold = interactiveHoldMs(); hold > 0; hold = interactiveHoldMs()) {
    await new Promise((resolve) => setTimeout(resolve, hold));
  }
}
