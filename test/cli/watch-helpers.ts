// `watch` as a real process for the tests: started on a file or folder with a short interval,
// its standard output and error gathered, a wait for what it prints, and its exit. Every wait has
// its own bound, and all of one watch's waits together stay inside the tests' 120 s timeout, so a
// wait that does not end fails with what watch printed so far rather than as a bare test timeout.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fixtureCase, REPO_ROOT } from "../support/fixtures";

const running: ChildProcess[] = [];

/** The longest one wait may take (starting under tsx on a loaded machine takes tens of seconds). */
const WAIT_MS = 45_000;
/** All of one watch's waits, within the tests' 120 s timeout (what is left of it is for the test's own work). */
const BUDGET_MS = 105_000;

/** Ends every watch a test started (call from afterEach). */
export function killWatches(): void {
  for (const child of running.splice(0)) child.kill("SIGKILL");
}

export interface Watch {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  waitFor: (what: () => boolean, label: string) => Promise<void>;
  /** The exit status, and the signal that ended it (null when it exited by itself); fails when it has not ended within the bound. */
  exit: () => Promise<number | null>;
  ended: () => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startWatch(args: string[]): Watch {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "watch", ...args, "--interval", "100", "--tokenizer", "estimate"], { cwd: REPO_ROOT });
  running.push(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (data: Buffer) => (out += data.toString()));
  child.stderr!.on("data", (data: Buffer) => (err += data.toString()));
  let status: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  child.on("exit", (code, signal) => (status = { code, signal }));
  const budgetEnd = Date.now() + BUDGET_MS;
  const waitFor = async (what: () => boolean, label: string) => {
    const start = Date.now();
    const until = Math.min(start + WAIT_MS, budgetEnd);
    while (!what()) {
      if (Date.now() > until) throw new Error(`timed out after ${((Date.now() - start) / 1000).toFixed(1)} s waiting for ${label}; stderr so far: ${JSON.stringify(err)}; stdout so far: ${JSON.stringify(out)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const ended = async () => {
    await waitFor(() => status !== null, "watch to exit");
    return status!;
  };
  return { child, stdout: () => out, stderr: () => err, waitFor, exit: async () => (await ended()).code, ended };
}

/** The JSON lines printed. */
export function lines(text: string): Record<string, unknown>[] {
  return text.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A committed fixture's session file as lines, each with its newline. */
export function sessionLines(caseName: string): string[] {
  return readFileSync(fixtureCase(caseName).sessionPath, "utf8").split("\n").filter((line) => line !== "").map((line) => `${line}\n`);
}
