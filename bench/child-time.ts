// Runs a command as a whole process under GNU time (/usr/bin/time) and returns its wall-clock
// time, its CPU time (user + system, all threads) and its peak memory (maximum resident set size).
// On a shared machine the wall time depends on the load; the CPU time much less.
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";

export interface ChildTime {
  seconds: number;
  cpuSeconds: number;
  peakBytes: number;
  stdout: string;
}

const MARK = "@@child-time@@";

export function timeChild(command: string, args: string[], env?: Record<string, string>): ChildTime {
  const start = performance.now();
  const result = spawnSync("/usr/bin/time", ["-f", `${MARK} %U %S %M`, command, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
    env: env ? { ...process.env, ...env } : process.env,
  });
  const seconds = (performance.now() - start) / 1000;
  const stderr = result.stderr ?? "";
  const at = stderr.lastIndexOf(MARK);
  if (result.status !== 0 || at === -1) throw new Error(`${command} ${args.join(" ")} exited ${result.status}: ${stderr.slice(0, 2000)}`);
  const [user, system, kilobytes] = stderr.slice(at + MARK.length).trim().split(/\s+/).map(Number) as [number, number, number];
  return { seconds, cpuSeconds: user + system, peakBytes: kilobytes * 1024, stdout: result.stdout };
}
