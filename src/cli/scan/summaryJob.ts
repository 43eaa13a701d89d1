// A scan job's line by the summary pass alone, for a job whose files' agents discovery found and
// whose summarisers are listed apart from the registry (src/core/agents/summary-registry.ts): no
// detection, no reader, no full pipeline. `scan`'s worker threads load this and the full analysis (analyse.ts, the whole core) only when a job needs it,
// so a thread of a Claude Code folder starts without compiling the core (0.3 s of CPU each).
// A job this cannot take (another agent, an agent not found, side files) is left to analyseJob,
// which makes the same line.
import path from "node:path";
import { summarizeSessionWith } from "../../core/session/summary-pass";
import { summaryOnlyAgent } from "../../core/session/summary-agents";
import { byteLines } from "./byteLines";
import type { ScanJob } from "./discover";
import { failedLine, summaryLine, type ScanLine } from "./line";
import type { JobFilesReader } from "./readPool";

/** The job's summary line, or undefined when analyseJob must make it. */
export function summaryJobLine(job: ScanJob, readJobFiles: JobFilesReader): ScanLine | undefined {
  const paths = [job.file, ...job.with];
  // Side files are read into a session only by the full pipeline.
  if (job.sideFiles.length > 0 || paths.some((_, index) => summaryOnlyAgent(job.agentIds[index]) === null)) return undefined;
  let line: ScanLine | undefined;
  try {
    const bytes = readJobFiles(paths);
    const files = paths.map((file, index) => ({ name: path.basename(file), lines: byteLinesOf(bytes[index]!), agentId: job.agentIds[index] ?? null }));
    const summary = summarizeSessionWith(files, (file) => summaryOnlyAgent(file.agentId));
    if (summary) line = summaryLine(job.file, job.with, summary);
  } catch (error) {
    line = failedLine(job.file, job.with, (error as Error).message ?? String(error), job.sideFiles, "summary");
  }
  return line;
}

const byteLinesOf = (bytes: Uint8Array) => (wanted?: Parameters<typeof byteLines>[1]) => byteLines(bytes, wanted);
