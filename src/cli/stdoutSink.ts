// Writing to standard output synchronously, whatever it is: a terminal, a file or a pipe. Node
// writes to a pipe asynchronously and queues what the reader has not taken yet; a command that
// prints faster than the reader reads (`requests big.jsonl | jq`) queued so many writes that Node
// failed them together with ENOBUFS and the output stopped. Writing through the descriptor, and
// waiting a moment when the pipe is full, keeps memory flat and loses nothing.
import fs from "node:fs";

/** One millisecond's sleep between tries on a full pipe, without a busy loop. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));
const STDOUT = 1;

/**
 * A sink for standard output. A reader that stops early (`… | head`) closes the pipe: `onClosed`
 * runs once (the process ends normally) and later text is dropped.
 */
export function stdoutSink(onClosed: () => void): (text: string) => void {
  let closed = false;
  return (text) => {
    if (closed) return;
    const bytes = Buffer.from(text, "utf8");
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += fs.writeSync(STDOUT, bytes, offset, bytes.length - offset);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "EAGAIN") {
          Atomics.wait(PAUSE, 0, 0, 1);
          continue;
        }
        if (code === "EPIPE") {
          closed = true;
          onClosed();
          return;
        }
        throw error;
      }
    }
  };
}
