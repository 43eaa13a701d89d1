// In-process CLI runs for tests: captures stdout/stderr, reads files from disk.
import { readFileSync } from "node:fs";
import { runCli } from "../../src/cli/run";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON lines. */
  lines: Record<string, unknown>[];
}

export async function runCliCaptured(argv: string[]): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    readFile: (f) => new Uint8Array(readFileSync(f)),
  });
  const lines = stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { code, stdout, stderr, lines };
}
