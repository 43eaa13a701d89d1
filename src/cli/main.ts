// Command-line entry (`npm run cli -- <command> …`): wires runCli to the real process.
import { readFileSync } from "node:fs";
import { runCli } from "./run";

// A reader that stops early (`… | head`) closes the pipe: that is a normal end, not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

const io = {
  stdout: (text: string) => void process.stdout.write(text),
  stderr: (text: string) => void process.stderr.write(text),
  readFile: (file: string) => new Uint8Array(readFileSync(file)),
};

runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${(error as Error).message ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
