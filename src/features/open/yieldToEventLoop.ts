// Cooperative scheduling inside the worker: long loops call `yieldIfDue()` so that queued
// messages (a cancel, a new open) get handled. A MessageChannel round-trip is used instead of
// setTimeout(0), which browsers clamp to 4 ms after a few nested calls.

const channel = new MessageChannel();
const waiting: (() => void)[] = [];
channel.port1.onmessage = () => waiting.shift()?.();

function yieldNow(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
}

/** Time slice between yields, in milliseconds. */
const SLICE_MS = 12;
let lastYield = 0;

/** Yields when the current slice has been used up; cheap to call often. */
export async function yieldIfDue(): Promise<void> {
  const now = performance.now();
  if (now - lastYield < SLICE_MS) return;
  await yieldNow();
  lastYield = performance.now();
}
