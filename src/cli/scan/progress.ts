// scan's progress bar: one line on standard error, redrawn as sessions finish, only when standard
// error is a terminal (a redirected or piped stderr gets nothing), cleared at the end.
import type { CliIo } from "../io";

export interface Progress {
  tick(done: number): void;
  end(): void;
}

const WIDTH = 30;

export function progressBar(total: number, io: CliIo): Progress {
  if (!io.stderrIsTerminal || total === 0) return { tick: () => undefined, end: () => undefined };
  const started = Date.now();
  const draw = (done: number) => {
    const filled = Math.round((done / total) * WIDTH);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    io.stderr(`\r[${"#".repeat(filled)}${".".repeat(WIDTH - filled)}] ${done}/${total} sessions, ${seconds} s`);
  };
  draw(0);
  return {
    tick: draw,
    end: () => io.stderr(`\r${" ".repeat(WIDTH + 40)}\r`),
  };
}
