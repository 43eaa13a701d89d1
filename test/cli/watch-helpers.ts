// `watch` as a real process for the tests: started on a file or folder with a short interval,
// its standard output and error gathered, a wait for what it prints, and its exit.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fixtureCase, REPO_ROOT } from "../support/fixtures";

const running: ChildProcess[] = [];

/** Ends every watch a test started (call from afterEach). */
export function killWatches(): void {
  for (const child of running.splice(0)) child.kill("SIGKILL");
}

export interface Watch {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  waitFor: (what: () => boolean, label: string) => Promise<void>;
  /** The exit status, and the signal that ended it (null when it exited by itself). */
  exit: Promise<number | null>;
  signal: Promise<NodeJS.Signals | null>;
}

export function startWatch(args: string[]): Watch {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "watch", ...args, "--interval", "100", "--tokenizer", "estimate"], { cwd: REPO_ROOT });
  running.push(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (data: Buffer) => (out += data.toString()));
  child.stderr!.on("data", (data: Buffer) => (err += data.toString()));
  const ended = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on("exit", (code, signal) => resolve([code, signal])));
  const waitFor = async (what: () => boolean, label: string) => {
    const until = Date.now() + 60_000;
    while (!what()) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${label}; stderr: ${err}; stdout: ${out}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { child, stdout: () => out, stderr: () => err, waitFor, exit: ended.then(([code]) => code), signal: ended.then(([, signal]) => signal) };
}

/** The JSON lines printed. */
export function lines(text: string): Record<string, unknown>[] {
  return text.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A committed fixture's session file as lines, each with its newline. */
export function sessionLines(caseName: string): string[] {
  return readFileSync(fixtureCase(caseName).sessionPath, "utf8").split("\n").filter((line) => line !== "").map((line) => `${line}\n`);
}
