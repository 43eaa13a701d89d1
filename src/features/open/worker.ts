// Opening a session in the pipeline worker: a source is read (streamed, cancellable, with the
// entries read so far shown meanwhile), installed as the session the calls are about, and
// summarised for the page. Sources another feature reads (share links, followed files) are read
// by the openers the worker's composition hands in; everything else by readSession.
import type { Session } from "../../core/model";
import { allAgents } from "../../core/session/agents";
import { newerVersionSentence, recordReport, unknownRecordsSentence, versionsSentence } from "../../core/session/recordReport";
import { ruleDocs } from "../../core/session/ruleDocs";
import { threadInfos } from "../../app/threads";
import { errorText, handlerKit, type HandlerTable } from "../../worker/handlers";
import type { SessionHost } from "../../worker/sessionHost";
import { agentInfo } from "./agentInfo";
import type { LoadProgress, OpenMethods, OpenSource, RecordsSummary, SessionSummary, SharedOpenInfo } from "./protocol";
import { databaseSummary } from "./readDatabase";
import { ReadCancelledError, readSession, type ReadControl } from "./readSession";
import { sniffSessions } from "./sniffSessions";
import { TEXTS_IN_FILE_FROM_BYTES } from "./fileTextSource";

export type { OpenMethods } from "./protocol";
export { ReadCancelledError, readSession, type ReadControl, type ReadResult } from "./readSession";
export { intakeSources } from "../../worker/intakeFiles";

/** A session read from a source, with what its summary says of where it came from. */
export interface OpenedRead {
  session: Session;
  byteLength: number;
  /** Names of the files read, when several were. */
  fileNames?: string[] | undefined;
  /** The view a share link or bundle restores. */
  shared?: SharedOpenInfo | undefined;
}

/** Reads the sources of one kind for another feature (share links, files followed as they grow). */
export interface SourceOpener {
  accepts(source: OpenSource): boolean;
  read(source: OpenSource, control: ReadControl): Promise<OpenedRead>;
  /** Told of every open that finished, with the session if this opener read it (null otherwise). */
  opened?(runId: number, read: Session | null): void;
}

/** What an open reports to the page while it reads, and when it is done. */
export type OpenReport =
  | { type: "progress"; runId: number; progress: LoadProgress }
  | { type: "provisional"; runId: number; summary: SessionSummary }
  | { type: "opened"; runId: number; summary: SessionSummary }
  | { type: "open-failed"; runId: number; message: string; cancelled: boolean };

/** The summary of a session the page shows (provisional while the file is still being read). */
export function sessionSummary(runId: number, read: Session, byteLength: number, fileNames?: string[]): SessionSummary {
  const summary: SessionSummary = {
    runId,
    fileName: read.fileName,
    formatId: read.formatId,
    agent: agentInfo(read),
    formatLabel: read.formatLabel,
    formatVersion: read.formatVersion,
    entryCount: read.entries.length,
    lineCount: read.lineCount,
    byteLength,
    warnings: read.warnings,
  };
  if (read.threads?.length) summary.threads = threadInfos(read, {});
  if (read.companionNotes?.length) summary.companionNotes = read.companionNotes;
  const records = recordsSummary(read);
  if (records) summary.records = records;
  if (fileNames && fileNames.length > 1 && !databaseSummary(read, fileNames)) summary.fileNames = fileNames;
  const database = databaseSummary(read, fileNames ?? [read.fileName]);
  if (database) summary.database = database;
  return summary;
}

/** The report of what the file holds, in words; undefined for an agent without a catalogue of record types. */
function recordsSummary(read: Session): RecordsSummary | undefined {
  const report = recordReport(read);
  if (!report) return undefined;
  return {
    unknown: unknownRecordsSentence(report),
    versions: versionsSentence(report),
    newer: newerVersionSentence(report),
    details: [
      ...report.read.map((item) => `${item.type}: ${item.count} read`),
      ...report.skipped.map((item) => `${item.type}: ${item.count} skipped on purpose (${item.why})`),
      ...report.unknown.map((item) => `${item.type}: ${item.count} not read (first on line ${item.firstLine})`),
    ],
  };
}

/**
 * A read that kept nothing and said why (every line bad, a file its reader could not take) is a
 * failed open with those reasons, never a session "ready" with 0 turns. A file with no entries and
 * no warning (a session an agent started and left) still opens.
 */
function refuseFailedRead(read: Session): void {
  if (read.entries.length > 0 || (read.threads?.length ?? 0) > 0 || read.warnings.length === 0) return;
  const reasons = read.warnings.slice(0, 3).map((warning) => (warning.line > 0 ? `line ${warning.line}: ${warning.reason}` : warning.reason));
  const more = read.warnings.length > 3 ? ` (and ${read.warnings.length - 3} more)` : "";
  throw new Error(`Could not read "${read.fileName}", nothing in it could be read: ${reasons.join("; ")}${more}`);
}

/** Reads a source with the first opener that accepts it, else as a session file. */
async function readSource(source: OpenSource, control: ReadControl, openers: readonly SourceOpener[]): Promise<{ read: OpenedRead; by: SourceOpener | null }> {
  const opener = openers.find((candidate) => candidate.accepts(source)) ?? null;
  if (opener) return { read: await opener.read(source, control), by: opener };
  if (source.kind === "share-link" || source.kind === "share-bundle") throw new Error("Share links cannot be opened here.");
  return { read: await readSession(source, control), by: null };
}

/** Opens `source` as run `runId`: the session the calls are about from then on. */
export async function openSource(host: SessionHost, runId: number, source: OpenSource, openers: readonly SourceOpener[], report: (message: OpenReport) => void): Promise<void> {
  host.activeRunId = runId;
  try {
    const control: ReadControl = {
      isCancelled: () => host.activeRunId !== runId,
      onProgress: (progress) => report({ type: "progress", runId, progress }),
      // The session shown keeps a large file's long texts in the file, not a copy in the worker.
      textsInFileFrom: TEXTS_IN_FILE_FROM_BYTES,
      // The entries read so far replace the session shown, so the page can show (and step through)
      // the first turns while the rest is read; the previous session is gone from then on.
      onSnapshot: (snapshot, progress) => {
        if (host.activeRunId !== runId) return;
        host.install(snapshot, runId);
        report({ type: "provisional", runId, summary: { ...sessionSummary(runId, snapshot, progress.bytesRead), provisional: { bytesRead: progress.bytesRead, totalBytes: progress.totalBytes } } });
      },
    };
    const { read, by } = await readSource(source, control, openers);
    if (host.activeRunId !== runId) throw new ReadCancelledError();
    refuseFailedRead(read.session);
    host.install(read.session, runId);
    for (const opener of openers) opener.opened?.(runId, opener === by ? read.session : null);
    host.activeRunId = 0;
    const summary = sessionSummary(runId, read.session, read.byteLength, read.fileNames);
    if (read.shared) summary.shared = read.shared;
    report({ type: "opened", runId, summary });
  } catch (error) {
    const cancelled = error instanceof ReadCancelledError || host.activeRunId !== runId;
    if (host.activeRunId === runId) host.activeRunId = 0;
    // A provisional session of a read that did not finish is not kept (the page closes it).
    host.forget(runId);
    report({ type: "open-failed", runId, message: errorText(error), cancelled });
  }
}

export function openHandlers(host: SessionHost): HandlerTable<OpenMethods> {
  const { sessionless } = handlerKit(host);
  return {
    sniffSessions: sessionless({ stage: "checking whether the dropped .json files are sessions" }, ({ files }) => sniffSessions(files)),
    readableFiles: sessionless({ stage: "listing the files it reads" }, () => allAgents().flatMap((agent) => agent.readableFiles.map((row) => ({ ...row })))),
    ruleDocs: sessionless({ stage: "listing the documentation pages of the rules" }, () => ruleDocs()),
  };
}
