// A worker of the sessions library: given a session file (a handle, or a database with its -wal),
// it answers with the row's facts (src/app/libraryRow.ts), or says the file is an agent's
// companion file (not a session). As `scan` makes its line: by the summary pass over the files'
// bytes when the agent has one and no side file is read with it, else read with the pipeline
// worker's reader and rebuilt in full (that reader loaded only when a file needs it). The page
// starts as many as the machine has cores (src/features/library/libraryState.ts) and hands each
// the next file as soon as it answers. Nothing leaves the page.
/// <reference lib="webworker" />
import { agentHasSummaryPass, hasSummaryPass, libraryRowFacts, libraryRowFromBytes } from "../../app/libraryRow";
import { isDatabaseFileName } from "../../core/intake/folder";
import type { LibraryJob, LibraryReply } from "./libraryProtocol";
import { intakeSources } from "../../worker/intakeFiles";
import { planOpen } from "../../core/intake/index";

declare const self: DedicatedWorkerGlobalScope;

/** Bytes of a session file's start its agent is told from (its first lines). */
const HEAD_BYTES = 256 * 1024;
/** Files the summary pass reads whole in memory; a larger one is read by the full pipeline, which streams it. */
const SUMMARY_MAX_BYTES = 1024 * 1024 * 1024;

/**
 * The session's files can go through the summary pass: its agent has one, no side file is read
 * with it, none is a database or too large to hold. `agentId`: the agent the first file's head was
 * detected as when it was planned (as `scan`'s discovery does), else its head is looked at here.
 */
async function summarisable(job: LibraryJob, files: readonly File[], agentId: string | null): Promise<boolean> {
  const first = files[0]!;
  if (job.sessionFiles !== files.length || isDatabaseFileName(first.name) || files.some((file) => file.size > SUMMARY_MAX_BYTES)) return false;
  if (agentId !== null) return agentHasSummaryPass(agentId);
  return hasSummaryPass(new Uint8Array(await first.slice(0, HEAD_BYTES).arrayBuffer()), first.name, first.size <= HEAD_BYTES);
}

async function facts(job: LibraryJob): Promise<LibraryReply> {
  try {
    const files = await Promise.all(job.handles.map((handle) => handle.getFile()));
    // An agent's file beside its sessions (Gemini CLI's projects.json) is no row: the page reads it with the sessions near it.
    // (The first file is the row's own; companion files near it may have been given with it before it was known to be one.)
    const own = planOpen(await intakeSources(files.slice(0, 1), { together: false }), { together: false });
    if (own.kind === "refused" && own.because === "side file alone") return { id: job.id, ok: false, error: own.message, companion: true };
    // Side files are read into a session by the full pipeline only; a database is no lines.
    // The first file's agent, detected once here (a plain file whose head holds its first lines).
    const agentId = own.kind === "sessions" && own.sessions[0]?.container === null ? own.sessions[0].agentId : null;
    if (await summarisable(job, files, agentId)) {
      const summary = libraryRowFromBytes(await Promise.all(files.map(async (file, index) => ({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()), agentId: index === 0 ? agentId : null }))));
      if (summary) return { id: job.id, ok: true, facts: summary };
    }
    const source = files.length === 1 ? { kind: "file" as const, file: files[0]! } : { kind: "files" as const, files };
    const [{ readSession }, { releaseSessionTexts }] = await Promise.all([import("../open/worker"), import("../../core/session/textStores")]);
    const read = await readSession(source, { isCancelled: () => false, onProgress: () => undefined });
    try {
      return { id: job.id, ok: true, facts: libraryRowFacts(read.session) };
    } finally {
      // The row keeps facts only: the session's stored texts are not needed again.
      releaseSessionTexts(read.session);
    }
  } catch (error) {
    return { id: job.id, ok: false, error: error instanceof Error ? error.message.split("\n")[0]! : String(error) };
  }
}

self.onmessage = (event: MessageEvent<LibraryJob>) => {
  void facts(event.data).then((reply) => self.postMessage(reply));
};
