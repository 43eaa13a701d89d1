// Following a session in the pipeline worker: a file (or a set of files) opened with its handles
// is read by this feature's opener, which keeps what is needed to read its changes; each poll
// reads only what was appended (or the file again), grows or replaces the open session, and
// tells the page the new turns that broke the cache or followed a compaction.
import type { Session } from "../../core/model";
import { analysisDelta } from "../../app/analysisDelta";
import { handlerKit, type HandlerTable } from "../../worker/handlers";
import { optionsKey, type SessionHost, type WorkerSlot } from "../../worker/sessionHost";
import { readSession, sessionSummary, type OpenedRead, type SourceOpener } from "../open/worker";
import { FollowedFile, LiveFile, type LiveSource } from "./liveFile";
import { openFileSet } from "./liveFileSet";
import type { LiveMethods, LivePollResult } from "./protocol";

export type { LiveMethods } from "./protocol";

interface Followed {
  /** The source read by the open in progress, until that open finishes. */
  reading: LiveSource | null;
  /** The open session's file, followed as it grows, and the open run it belongs to. */
  file: { runId: number; file: LiveFile } | null;
}

const FOLLOWED: WorkerSlot<Followed> = { make: () => ({ reading: null, file: null }) };

/** Reads a file opened with its handle, or files opened with theirs, so that they can be followed. */
export function followedSourceOpener(host: SessionHost): SourceOpener {
  const followed = () => host.keep(FOLLOWED);
  return {
    accepts: (source) => (source.kind === "file" && source.handle !== undefined) || (source.kind === "files" && (source.handles?.length ?? 0) > 0),
    async read(source, control): Promise<OpenedRead> {
      followed().reading = null;
      if (source.kind === "files" && source.handles?.length) {
        // Files opened with their handles (a database with its -wal, a session with its sub-agent files) are followed together.
        const set = await openFileSet(source.handles, source.sessionId ?? null, control);
        followed().reading = set.source;
        return set.read;
      }
      if (source.kind !== "file" || !source.handle) throw new Error("Only files opened with their handles are followed.");
      // The read keeps its line reader, to read the bytes appended later.
      const read = await readSession(source, { ...control, live: true });
      followed().reading = new FollowedFile(source.handle, read.follower ?? null, source.file);
      return read;
    },
    opened(runId: number, read: Session | null): void {
      const state = followed();
      state.file = read && state.reading ? { runId, file: new LiveFile(state.reading, read) } : null;
      state.reading = null;
    },
  };
}

export function liveHandlers(host: SessionHost): HandlerTable<LiveMethods> {
  const { ofSession } = handlerKit(host);
  return {
    livePoll: ofSession({ stage: "reading what was appended to the followed file", background: true }, async ({ options }): Promise<LivePollResult> => {
      const state = host.keep(FOLLOWED);
      const followed = state.file;
      if (!followed || followed.runId !== host.sessionRunId) return { status: "not-followed" };
      // The notices are about the main thread's turns.
      const outcome = await followed.file.poll({ ...options, thread: null });
      if (outcome.kind === "unchanged" || state.file !== followed || followed.runId !== host.sessionRunId) return { status: "unchanged" };
      if (outcome.kind === "appended") host.grow(outcome.session);
      else host.install(outcome.session, followed.runId);
      const result: LivePollResult = { status: outcome.kind, summary: sessionSummary(followed.runId, outcome.session, outcome.byteLength), notices: outcome.notices, readBytes: outcome.readBytes };
      if (options.thread) return result;
      // The analysis the notices were made from is the new one (main thread): the page is sent what
      // changed in the one it holds, else it asks for the whole one next.
      const key = optionsKey(options);
      const analysis = host.keepAnalysis(key, outcome.analysis);
      const before = host.sentAnalysis;
      host.sentAnalysis = null;
      if (outcome.kind !== "appended" || before?.key !== key) return result;
      host.noteSent(key, analysis);
      return { ...result, delta: analysisDelta(before.value, analysis) };
    }),
  };
}
