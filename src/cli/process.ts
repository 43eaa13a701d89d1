// Wires runCli to the real process: standard streams, the file system, the exit status. Shared by
// the development entry (main.ts, under tsx) and the compiled bin (bin.ts), which differ only in
// how the usage texts name the program.
import { readFileSync } from "node:fs";
import { bufferedOutput } from "./bufferedOutput";
import { fileChunks } from "./fileChunks";
import { fileTextSource } from "./fileTextSource";
import { runCli } from "./run";
import { safeErrorText } from "./terminalText";
import { stdoutSink } from "./stdoutSink";

/** Commands that run until interrupted (following a session, recording requests). */
const UNTIL_INTERRUPTED = new Set(["watch", "capture"]);

export function runProcess(program: string): void {
  // A reader that stops early (`… | head`) closes the pipe: that is a normal end, not an error.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });

  // Written through the descriptor, not the stream: a slow reader of a pipe made the stream's
  // queue of writes fail (stdoutSink.ts). The commands that go on until interrupted keep the
  // stream: a write waiting on a full pipe would hold off their interrupt handling, and they print
  // at the pace of a session, not gigabytes at once.
  const untilInterrupted = UNTIL_INTERRUPTED.has(process.argv[2] ?? "");
  const sink = untilInterrupted ? (text: string) => void process.stdout.write(text) : stdoutSink(() => process.exit(0));
  const output = bufferedOutput(sink, setImmediate);
  // Whatever ends the process (an exit in a command, an uncaught error) writes what is waiting.
  process.on("exit", () => {
    if (!process.stdout.destroyed) output.flush();
  });
  const io = {
    stdout: output.write,
    stderr: (text: string) => void process.stderr.write(text),
    readFile: (file: string) => {
      // A view of the Buffer, not a copy of it: session files can be a gigabyte.
      const buffer = readFileSync(file);
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    },
    readFileChunks: (file: string) => fileChunks(file),
    openTextSource: (file: string) => fileTextSource(file),
    stderrIsTerminal: process.stderr.isTTY === true,
  };

  runCli(process.argv.slice(2), io, program).then(
    (code) => {
      output.flush();
      process.exitCode = code;
    },
    (error: unknown) => {
      output.flush();
      process.stderr.write(safeErrorText(`error: ${(error as Error).message ?? String(error)}\n`));
      process.exitCode = 1;
    },
  );
}
