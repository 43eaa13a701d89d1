// Standard output gathered into large writes. `prefix` prints one short JSON line per turn (38,504
// at 1 GB), and every `process.stdout.write` to a file or a pipe is one system call on Linux, so
// the lines are joined and written when BUFFER_LIMIT characters are waiting, when the event loop
// next turns (so `scan`'s lines still appear as each session finishes), and before the process
// ends. What is written, and in what order, is unchanged.

/** Characters gathered before they are written at once. */
const BUFFER_LIMIT = 64 * 1024;

export interface BufferedOutput {
  write(text: string): void;
  /** Writes whatever is waiting, now. */
  flush(): void;
}

/**
 * Gathers text for `sink`. `schedule` runs a callback once the current task is over (the process
 * passes setImmediate); tests pass their own.
 */
export function bufferedOutput(sink: (text: string) => void, schedule: (callback: () => void) => void, limit = BUFFER_LIMIT): BufferedOutput {
  let waiting: string[] = [];
  let waitingChars = 0;
  let scheduled = false;
  const flush = () => {
    if (waiting.length === 0) return;
    const text = waiting.length === 1 ? waiting[0]! : waiting.join("");
    waiting = [];
    waitingChars = 0;
    sink(text);
  };
  const flushLater = () => {
    scheduled = false;
    flush();
  };
  return {
    write(text) {
      if (text.length === 0) return;
      waiting.push(text);
      waitingChars += text.length;
      if (waitingChars >= limit) flush();
      else if (!scheduled) {
        scheduled = true;
        schedule(flushLater);
      }
    },
    flush,
  };
}
