// What a CLI command may touch in the outside world, injected so tests run commands in-process.
import type { TextSource } from "../core/text/storedText";

export interface CliIo {
  /** Writes to standard output (the caller adds line ends). */
  stdout(text: string): void;
  /** Writes to standard error. */
  stderr(text: string): void;
  /** Reads a whole file as bytes; throws (Node's error) when it cannot. */
  readFile(path: string): Uint8Array;
  /**
   * Reads a file as consecutive chunks, each valid until the next is taken (one buffer, reused),
   * so a session is parsed without the whole file in memory. Throws (Node's error) at the call
   * when the file cannot be opened. Optional: without it, `readFile` is used.
   */
  readFileChunks?(path: string): Iterable<Uint8Array>;
  /**
   * The file readable again at any offset, for a session's large texts to stay in it (null: not
   * a regular file, or not wanted). Optional: without it, texts are copied into memory.
   */
  openTextSource?(path: string): TextSource | null;
  /** Standard error is a terminal (progress bars are drawn only then). Default false. */
  stderrIsTerminal?: boolean;
}

/** A problem the user can fix (bad arguments, unreadable input): exit status 1, one line. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}

/** What `make` returns; an error it throws becomes a CliError that names `command` (exit status 1). */
export function orCliError<T>(command: string, make: () => T): T {
  try {
    return make();
  } catch (error) {
    throw new CliError(`${command}: ${(error as Error).message}`);
  }
}
