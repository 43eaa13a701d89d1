// One scan job: read the session (any format the CLI reads), join its sub-agent files with the
// agent's linkFiles (linkSessions), analyse the default branch of its main thread with the prefix
// analysis, and make its line. Never throws: a session that cannot be read gets a line with `error`.
import path from "node:path";
import type { PipelineOptions, Session } from "../../core/model";
import { releaseSessionTexts } from "../../core/session/textStores";
import { analyzeSession } from "../../core/session/pipeline";
import { iterateSessionPrefixes } from "../../core/session/sessionPrefixes";
import { linkSessions } from "../../core/session/threads";
import { attachSideFiles, summarizeSession, wholeSessionTotals, type OwnedSideFile, type SummaryFile } from "../../core/session/index";
import { noteFilesAmong } from "../../core/intake/index";
import { projectOf } from "../../app/libraryRow";
import type { TokenizerChoice } from "../../core/tokens/counters";
import { loadTokenizerTables } from "../../core/tokens/tables";
import { sessionTables } from "../../core/tokens/sessionTables";
import { loadAnySession, loadSession } from "../inputs";
import type { CliIo } from "../io";
import { byteLines } from "./byteLines";
import type { ScanJob } from "./discover";
import type { JobFilesReader } from "./readPool";
import { summaryJobLine } from "./summaryJob";
import { failedLine, ScanLineBuilder, summaryLine, type ScanLine } from "./line";
import { sessionCostInputs } from "../../app/sessionPrices";
import { wholeSessionCost } from "../../core/pricing/index";
import { datasetPriceTable } from "../../core/pricing/dataset";

export interface ScanOptions {
  tokenizer: TokenizerChoice;
  /** The full rebuild for every session; otherwise the summary pass where the agent has one. */
  full: boolean;
}

/**
 * The job's line: from the summary pass when asked for and the agent has one, else the full
 * rebuild. `readJobFiles` reads the summary pass's files (a thread's reused buffer, readPool.ts);
 * by default each is read with `readFile`.
 */
export async function analyseJob(job: ScanJob, options: ScanOptions, readFile: CliIo["readFile"], readJobFiles?: JobFilesReader): Promise<ScanLine> {
  // Side files are read into a session only by the full pipeline.
  if (!options.full && job.sideFiles.length === 0) {
    const readPaths: JobFilesReader = readJobFiles ?? ((paths) => paths.map((file) => readFile(file)));
    // Files whose agents discovery found and whose summarisers load without the core.
    const known = summaryJobLine(job, readPaths);
    if (known) return known;
    try {
      const paths = [job.file, ...job.with];
      const bytes = readPaths(paths);
      const files = paths.map((file, index) => bytesFile(file, bytes[index]!, job.agentIds[index] ?? null));
      const summary = summarizeSession(files);
      if (summary) return summaryLine(job.file, job.with, summary);
    } catch (error) {
      return failedLine(job.file, job.with, (error as Error).message ?? String(error), job.sideFiles, "summary");
    }
  }
  return fullLine(job, options, readFile);
}

function bytesFile(file: string, bytes: Uint8Array, agentId: string | null): SummaryFile {
  return { name: path.basename(file), lines: (wanted) => byteLines(bytes, wanted), agentId };
}

async function fullLine(job: ScanJob, options: ScanOptions, readFile: CliIo["readFile"]): Promise<ScanLine> {
  let warnings = 0;
  const io: CliIo = {
    stdout: () => undefined,
    stderr: (text) => {
      if (text.startsWith("warning:")) warnings++;
    },
    readFile,
  };
  const read: Session[] = [];
  try {
    const main = await loadAnySession(io, job.file);
    read.push(main);
    const others = job.with.map((file) => loadSession(io, file));
    read.push(...others);
    const linked = others.length > 0 ? linkSessions([main, ...others]) : { session: main, unlinked: [] };
    const unlinked = linked.unlinked;
    // Only the session's own agent's side files are read into it (another agent's are not its).
    const sideFiles = ownSideFiles(job.sideFiles, linked.session.formatId, readFile);
    const session = attachSideFiles(linked.session, sideFiles);
    warnings += unlinked.length;
    // No profile named: each session is rebuilt with its agent's first.
    const pipeline: PipelineOptions = { leafId: null, api: null, header: null, notes: false };
    const analysis = analyzeSession(session, pipeline);
    warnings += analysis.warnings.length;
    await loadTokenizerTables(sessionTables(options.tokenizer, analysis, pipeline));
    const builder = new ScanLineBuilder();
    const byTurn = new Map(analysis.turns.map((turn) => [turn.turn, turn]));
    for (const report of iterateSessionPrefixes(session, pipeline, { analysis, prefix: { tokenizer: options.tokenizer } })) {
      const turn = byTurn.get(report.turn);
      builder.add(report, turn?.model ?? null, turn?.timestamp);
    }
    const costInputs = sessionCostInputs(session, pipeline, analysis);
    return builder.line({
      file: job.file,
      agent: session.formatId,
      project: projectOf(session),
      compactions: analysis.timeline.filter((item) => item.kind === "compaction").length,
      threads: session.threads?.length ?? 0,
      warnings,
      with: job.with,
      sideFiles: sideFiles.map((file) => file.path),
      wholeSession: wholeSessionTotals(costInputs, wholeSessionCost(costInputs, datasetPriceTable())),
    });
  } catch (error) {
    return failedLine(job.file, job.with, (error as Error).message ?? String(error), job.sideFiles);
  } finally {
    // A scan reads many files in one thread: each one's stored texts go once its line is made.
    for (const session of read) releaseSessionTexts(session);
  }
}

/** The side files that belong to the session's agent, read, with their paths. */
function ownSideFiles(files: readonly string[], agentId: string, readFile: CliIo["readFile"]): (OwnedSideFile & { path: string })[] {
  const own: (OwnedSideFile & { path: string })[] = [];
  for (const file of files) {
    const bytes = readFile(file);
    const [owned] = noteFilesAmong([{ name: path.basename(file), size: bytes.length, head: bytes }]);
    if (owned && owned.agentId === agentId) own.push({ ...owned, path: file });
  }
  return own;
}
