// The pipeline worker: reads sessions (streamed, cancellable), holds the parsed Session and
// answers the UI's calls (analyse, build the request of a turn, parse a captured request header).
// All parsing and pipeline work happens here; the UI thread only renders results.
/// <reference lib="webworker" />
import { agentInfo } from "../features/open/agentInfo";
import type { PipelineOptions, Session } from "../core/model";
import { analyzeSession, buildTurnRequest, messageCharsEstimator, type SessionAnalysis } from "../core/session/pipeline";
import { learnCapture } from "../core/session/captures";
import { requestDumpLines } from "../core/session/storage";
import { allAgents } from "../core/session/agents";
import { captureDiffForTurn, type CaptureInput } from "../app/captureCheck";
import { timelineWithAuxiliary } from "../core/session/timeline";
import { auxiliaryRequest } from "../features/auxiliary/auxiliaryRequest";
import { compactionRequests } from "../features/compaction/compactionRequests";
import { compactionOutcome } from "../features/compaction/compactionOutcomeModel";
import { PrefixPassAbandoned, PrefixService } from "../features/prefix/prefixService";
import { SearchService } from "../features/search/searchService";
import { analysisDelta } from "../app/analysisDelta";
import { databaseSummary } from "../features/open/readDatabase";
import { isSharedSource, readShared } from "../features/share/openShared";
import { buildShare, exportRequest, shareBundle } from "../app/shareExport";
import { parseCapture } from "../features/captures/parseCapture";
import { sniffSessions } from "../features/open/sniffSessions";
import { ALIVE_EVERY_MS, type CompactionRequestsResult, type FromWorker, type LivePollResult, type LoadProgress, type SessionSummary, type ToWorker, type TurnRequestResult, type WorkerMethod, type WorkerMethods } from "./protocol";
import { readSession, ReadCancelledError } from "../features/open/readSession";
import { requestView } from "../features/request/requestModel";
import { conversationView } from "../features/conversation/conversationModel";
import { simulatorPolicies, SimulatorService } from "../features/simulator/simulatorService";
import { threadInfos } from "../app/threads";
import { listedPrices, sessionPrices } from "../app/sessionPrices";
import { spawnCallLocation, threadCallLinks } from "../features/threads/threadLinks";
import { threadSessionOf } from "../core/session/threads";
import { releaseSessionTexts } from "../core/session/textStores";
import { CompareSlot } from "../features/compare/compareSlot";
import { FollowedFile, LiveFile } from "../features/live/liveFile";
import { openFileSet } from "../features/live/liveFileSet";
import { loadTokenizerTables } from "../core/tokens/tables";
import { tablesForCall, tablesForPass } from "./tokenTables";
import { createBrowserTokenPool, tokenPoolSize, type BrowserTokenPool } from "./tokenPool";
import { interactiveHoldMs, noteInteractiveCall } from "../app/interactiveQuiet";
import { stringifyWithTexts } from "../core/text/text";

declare const self: DedicatedWorkerGlobalScope;

/** The open run currently reading; 0 when none (or it was cancelled). */
let activeRunId = 0;
/** The session shown by the UI and the open run that produced it. */
let session: Session | null = null;
let sessionRunId = 0;
/** The last analysis, reused while the options stay the same. */
let lastAnalysis: { key: string; value: SessionAnalysis } | null = null;
/** The analysis the page was last sent (an `analyze` answer, or grown by a poll's delta): what the next delta extends. */
let sentAnalysis: { key: string; value: SessionAnalysis } | null = null;
/** Recently shown turns (key: options + turn), so stepping back and forth is instant. */
const recentViews = new Map<string, TurnRequestResult>();
const RECENT_VIEWS = 4;
/** Prefix-stability work and caches of the open session (created on first use). */
let prefixService: { runId: number; session: Session; service: PrefixService } | null = null;
/** The open session's file, followed as it grows (opened with a handle), and the open run it belongs to. */
let liveFile: { runId: number; file: LiveFile } | null = null;
/** The compare view's second session and its last comparison with the open one. */
const compareSlot = new CompareSlot();

/** Earlier values of the open session that a followed file grew out of (`grow`). */
const grownOut = new WeakSet<Session>();

/** Prefix work of `current`: the open session or one of its threads (a new service per thread shown). */
function prefixFor(current: Session): PrefixService {
  // A call that began before the session grew (it awaited something) is about an earlier value:
  // it gets a service of its own, so the open session's passes go on (a pass there is abandoned).
  if (grownOut.has(current)) return new PrefixService(current, () => false);
  if (prefixService?.runId !== sessionRunId || prefixService.session !== current) {
    const runId = sessionRunId;
    // Current while it is the service of the session shown (a followed session that grows keeps it: `grow`).
    const service: PrefixService = new PrefixService(current, () => sessionRunId === runId && prefixService?.service === service, sessionTokenPool());
    prefixService = { runId, session: current, service };
  }
  return prefixService.service;
}

/** The open session's counting workers (the exact pass's counts, off this thread); null where workers cannot start workers. */
let tokenPool: BrowserTokenPool | null = null;

function sessionTokenPool(): BrowserTokenPool | null {
  if (typeof Worker === "undefined") return null;
  tokenPool ??= createBrowserTokenPool(
    tokenPoolSize(navigator.hardwareConcurrency),
    () => new Worker(new URL("./count.worker.ts", import.meta.url), { type: "module", name: "contextscope-count" }),
    interactiveHoldMs,
  );
  return tokenPool;
}

/** Session search of the open session (or thread), restarted with a new session. */
let searchService: { runId: number; session: Session; service: SearchService } | null = null;

function searchFor(current: Session): SearchService {
  if (searchService?.runId !== sessionRunId || searchService.session !== current) {
    searchService = { runId: sessionRunId, session: current, service: new SearchService(current) };
  }
  return searchService.service;
}

/** Compaction simulator of the open session, with its caches (created on first use). */
let simulatorService: { runId: number; session: Session; service: SimulatorService } | null = null;

function simulatorFor(current: Session): SimulatorService {
  if (simulatorService?.runId !== sessionRunId || simulatorService.session !== current) {
    simulatorService = { runId: sessionRunId, session: current, service: new SimulatorService(current) };
  }
  return simulatorService.service;
}

function post(message: FromWorker): void {
  self.postMessage(message);
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Makes `read` the session the calls are about (a new open's, provisional or final); caches start afresh. */
function install(read: Session, runId: number): void {
  // The bytes of the previous session's stored texts go with it (a provisional value's go on in the final one).
  releaseSessionTexts(session, read);
  session = read;
  sessionRunId = runId;
  lastAnalysis = null;
  sentAnalysis = null;
  recentViews.clear();
  prefixService = null;
  // Counts of the previous session are not needed again: its workers go with them.
  tokenPool?.close();
  tokenPool = null;
  simulatorService = null;
  compareSlot.reset();
}

/**
 * The followed file grew: `next` appends to the open session (its agent's caches were carried over
 * to it). Unlike `install`, the prefix passes and the composition go on with the new turns (their
 * rows are extended, src/features/prefix/prefixService.ts) and the counting workers stay; the views of single
 * turns and the simulator start afresh.
 */
function grow(next: Session): void {
  const previous = session;
  releaseSessionTexts(previous, next);
  if (previous) grownOut.add(previous);
  session = next;
  lastAnalysis = null;
  recentViews.clear();
  if (prefixService && prefixService.runId === sessionRunId && prefixService.session === previous) {
    prefixService.service.grow(next);
    prefixService = { ...prefixService, session: next };
  } else prefixService = null;
  simulatorService = null;
  compareSlot.reset();
}

/** The summary of a session the UI shows (provisional while the file is still being read). */
function summaryOf(read: Session, byteLength: number, fileNames?: string[]): SessionSummary {
  const summary: SessionSummary = {
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
  if (read.threads?.length) summary.threads = threadInfos(read, { profile: "pi" });
  if (read.companionNotes?.length) summary.companionNotes = read.companionNotes;
  if (fileNames && fileNames.length > 1 && !databaseSummary(read, fileNames)) summary.fileNames = fileNames;
  const database = databaseSummary(read, fileNames ?? [read.fileName]);
  if (database) summary.database = database;
  return summary;
}

async function open(runId: number, source: Extract<ToWorker, { type: "open" }>["source"]): Promise<void> {
  activeRunId = runId;
  try {
    const control = {
      isCancelled: () => activeRunId !== runId,
      onProgress: (progress: LoadProgress) => post({ type: "progress", runId, progress }),
      // The entries read so far replace the session shown, so the UI can show (and step through)
      // the first turns while the rest is read; the previous session is gone from then on.
      onSnapshot: (snapshot: Session, progress: LoadProgress) => {
        if (activeRunId !== runId) return;
        install(snapshot, runId);
        post({ type: "provisional", runId, summary: { ...summaryOf(snapshot, progress.bytesRead), provisional: { bytesRead: progress.bytesRead, totalBytes: progress.totalBytes } } });
      },
    };
    // A file opened with a handle is followed as it grows: the read keeps its line reader.
    const handle = source.kind === "file" ? (source.handle ?? null) : null;
    // Files opened with their handles (a database with its -wal, a session with its sub-agent files) are followed together.
    const set = source.kind === "files" && source.handles?.length ? await openFileSet(source.handles, source.sessionId ?? null, control) : null;
    // Share links and bundles are decoded and validated here, then read like a file.
    const { session: read, byteLength, fileNames, shared, follower } = set
      ? { ...set.read, shared: undefined }
      : isSharedSource(source)
        ? { ...(await readShared(source)), fileNames: undefined, follower: undefined }
        : { ...(await readSession(source, { ...control, live: handle !== null })), shared: undefined };
    if (activeRunId !== runId) throw new ReadCancelledError();
    refuseFailedRead(read);
    install(read, runId);
    const followed = set?.source ?? (handle && source.kind === "file" ? new FollowedFile(handle, follower ?? null, source.file) : null);
    liveFile = followed ? { runId, file: new LiveFile(followed, read) } : null;
    activeRunId = 0;
    const summary = summaryOf(read, byteLength, fileNames);
    if (shared) summary.shared = shared;
    post({ type: "opened", runId, summary });
  } catch (error) {
    const cancelled = error instanceof ReadCancelledError || activeRunId !== runId;
    if (activeRunId === runId) activeRunId = 0;
    // A provisional session of a read that did not finish is not kept (the UI closes it).
    if (sessionRunId === runId) {
      releaseSessionTexts(session);
      session = null;
      sessionRunId = 0;
    }
    post({ type: "open-failed", runId, message: errorText(error), cancelled });
  }
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

function optionsKey(options: PipelineOptions): string {
  return JSON.stringify(options);
}

function analyze(current: Session, options: PipelineOptions): SessionAnalysis {
  const key = optionsKey(options);
  if (lastAnalysis?.key === key) return lastAnalysis.value;
  return keepAnalysis(key, analyzeSession(current, options));
}

/** The analysis kept for `options`, if it is the last one made (never makes one). */
function keptAnalysis(options: PipelineOptions): SessionAnalysis | undefined {
  return lastAnalysis?.key === optionsKey(options) ? lastAnalysis.value : undefined;
}

/** Keeps `analysis` (made for the options of `key`) as the one the next `analyze` call answers with. */
function keepAnalysis(key: string, analysis: SessionAnalysis): SessionAnalysis {
  // Auxiliary requests (opencode title / summariser) become timeline rows of their own.
  const value = analysis.auxiliary?.length ? { ...analysis, timeline: timelineWithAuxiliary(analysis.timeline, analysis.auxiliary) } : analysis;
  lastAnalysis = { key, value };
  return value;
}

async function captureBody(data: Blob | string, source: string): Promise<unknown> {
  const text = typeof data === "string" ? data : await data.text();
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`"${source}" is not valid JSON (${errorText(error)}). Expected a captured provider request body.`);
  }
}

/**
 * Bodies of the main-request captures parsed so far, by source, for the Request view's capture
 * diff; which of them count is decided by the options each call names (what is still attached).
 */
const captureBodies = new Map<string, CaptureInput>();
const MAX_CAPTURE_BODIES = 64;

function keepCaptureBody(source: string, body: unknown): void {
  captureBodies.delete(source);
  captureBodies.set(source, { source, body });
  if (captureBodies.size > MAX_CAPTURE_BODIES) captureBodies.delete(captureBodies.keys().next().value as string);
}

/** Calls the page makes on its own, in the background; every other call is the user's, and the background passes give way to it. */
const BACKGROUND: ReadonlySet<WorkerMethod> = new Set<WorkerMethod>(["prefixReports", "sessionComposition", "searchPrepare", "livePoll"]);

type Params<M extends WorkerMethod> = WorkerMethods[M]["params"];
type Answer<M extends WorkerMethod> = WorkerMethods[M]["result"] | Promise<WorkerMethods[M]["result"]>;

/** What a call about the open session is given. */
interface OpenSession {
  /** The open session, its sub-agent threads included. */
  session: Session;
  /** The thread the call's options name (its own session), else the open session. */
  target: Session;
}

/** How the worker answers one call, and whether the call is about the open session (refused for an older one). */
interface Handler<M extends WorkerMethod> {
  aboutSession: boolean;
  run: (params: Params<M>) => Answer<M>;
}

/** A call that does not depend on the open session. */
function sessionless<P, R>(run: (params: P) => R): { aboutSession: false; run: (params: P) => R } {
  return { aboutSession: false, run };
}

/** The open session, for a call that needs one. */
function openSession(): Session {
  if (!session) throw new Error("No session is open.");
  return session;
}

/** A call about the open session's turns: a sub-agent thread in its options selects that thread's own session. */
function ofSession<P extends { options: PipelineOptions }, R>(run: (params: P, open: OpenSession) => R): { aboutSession: true; run: (params: P) => R } {
  return {
    aboutSession: true,
    run: (params) => {
      const opened = openSession();
      return run(params, { session: opened, target: threadSessionOf(opened, params.options.thread) });
    },
  };
}

/** A call that is refused without an open session, but is not about its turns (opening the compare view's second session). */
function whileSessionOpen<P, R>(run: (params: P) => R): { aboutSession: true; run: (params: P) => R } {
  return {
    aboutSession: true,
    run: (params) => {
      openSession();
      return run(params);
    },
  };
}

/** Every call the worker answers, by method (src/worker/protocol.ts says what each takes and returns). */
const HANDLERS: { [M in WorkerMethod]: Handler<M> } = {
  parseHeader: sessionless(async ({ data, source }) => {
    const body = await captureBody(data, source);
    const header = learnCapture(body, source);
    keepCaptureBody(source, body);
    return header;
  }),
  parseCapture: sessionless(async ({ data, source, instructions }) => {
    const body = await captureBody(data, source);
    const parsed = parseCapture(body, source, instructions ?? null);
    if (parsed.kind === "header") keepCaptureBody(source, body);
    return parsed;
  }),
  simulatorPolicies: ofSession(({ options }, { target }) => simulatorPolicies(target, options)),
  sniffSessions: sessionless(({ files }) => sniffSessions(files)),
  listedPrices: sessionless(() => listedPrices()),
  // The page asks for the prices right after each analysis of the main thread: the one kept is
  // used, for analysing the session again held the worker (and the next step) as long as opening
  // did. Options that name no thread are the main thread's; a thread's analysis is not evicted.
  sessionPrices: ofSession(({ options }, { session: opened }) => sessionPrices(opened, options, keptAnalysis(options))),
  readableFiles: sessionless(() => allAgents().flatMap((agent) => agent.readableFiles.map((row) => ({ ...row })))),
  analyze: ofSession(({ options }, { target }) => {
    const value = analyze(target, options);
    sentAnalysis = { key: optionsKey(options), value };
    return value;
  }),
  buildRequest: ofSession(({ options, turn }, { session: opened, target }) => {
    const key = `${optionsKey(options)}#${turn}`;
    const cached = recentViews.get(key);
    if (cached) {
      recentViews.delete(key);
      recentViews.set(key, cached);
      return cached;
    }
    const built = buildTurnRequest(target, options, turn);
    const view = requestView(turn, built, messageCharsEstimator(target, options));
    // Tool calls of this request that started a sub-agent thread link to it (Messages tab).
    for (const [index, links] of threadCallLinks(built.messages, opened.threads ?? [], options.thread ?? null)) {
      const row = view.rows[index];
      if (row) row.threads = links;
    }
    const groundTruth = requestDumpLines(target, options, turn);
    if (groundTruth.length > 0) view.groundTruth = groundTruth;
    recentViews.set(key, view);
    if (recentViews.size > RECENT_VIEWS) recentViews.delete(recentViews.keys().next().value as string);
    return view;
  }),
  spawnCall: ofSession(({ options, threadId }, { session: opened }) => spawnCallLocation(opened, threadId, { ...options, thread: null })),
  captureDiff: ofSession(({ options, turn }, { target }) => captureDiffForTurn(target, options, [...captureBodies.values()], turn)),
  turnConversation: ofSession(({ options, turn }, { target }) => conversationView(turn, buildTurnRequest(target, options, turn))),
  requestBody: ofSession(({ options, turn }, { target }) => stringifyWithTexts(buildTurnRequest(target, options, turn).body)),
  compactionRequests: ofSession(({ options, entryId, instructions }, { target }): CompactionRequestsResult => {
    const outcome = compactionOutcome(target, options, analyze(target, options), entryId);
    try {
      return { ...compactionRequests(target, options, entryId, instructions ?? null), outcome };
    } catch (error) {
      // What the compaction kept and summarised is shown even when its request cannot be rebuilt.
      return { available: false, entryId, requests: [], facts: [], lints: [], reason: `The summariser request could not be rebuilt: ${errorText(error)}`, outcome };
    }
  }),
  exportRequest: ofSession(({ options, params }, { target }) => exportRequest(target, options, params)),
  buildShare: ofSession(({ options, params }, { target }) => buildShare(target, options, params, analyze(target, options))),
  shareBundle: ofSession(({ options, params }, { target }) => shareBundle(target, options, params, analyze(target, options))),
  auxiliaryRequest: ofSession(({ options, index }, { target }) => auxiliaryRequest(target, options, index)),
  prefixReports: ofSession(async ({ options, pass }, { target }) => {
    const analysis = analyze(target, options);
    const service = prefixFor(target);
    // The counting workers count the exact pass's tokens when there are some.
    if (!service.countsElsewhere) await loadTokenizerTables(tablesForPass(pass, analysis, options));
    const rows = await service.reports(options, pass, analysis, optionsKey(options));
    return { pass, rows };
  }),
  turnDiff: ofSession(async ({ options, turn }, { target }) => {
    const analysis = analyze(target, options);
    // The diff counts both requests with the session's own counters ("auto").
    await loadTokenizerTables(tablesForPass("exact", analysis, options));
    return prefixFor(target).turnDiff(options, turn, analysis, optionsKey(options));
  }),
  tokenComposition: ofSession(async ({ options, turn, pass }, { target }) => {
    await loadTokenizerTables(tablesForPass(pass, analyze(target, options), options));
    return prefixFor(target).composition(options, turn, pass);
  }),
  simulate: ofSession(({ options, settings }, { target }) => simulatorFor(target).simulate(options, settings)),
  spiralRun: ofSession(({ options, settings, attempts }, { target }) => simulatorFor(target).spiral(options, settings, attempts)),
  replaySession: ofSession(({ options, settings, fromTurn, toTurn }, { target }) => {
    const range: { fromTurn?: number; toTurn?: number } = {};
    if (fromTurn !== undefined) range.fromTurn = fromTurn;
    if (toTurn !== undefined) range.toTurn = toTurn;
    return { replay: simulatorFor(target).replay(options, settings, settings.policyId, range) };
  }),
  comparePolicies: ofSession(({ options, settings, otherPolicyId }, { target }) =>
    simulatorFor(target).compare(options, settings, otherPolicyId),
  ),
  openCompare: whileSessionOpen(({ source }) => compareSlot.open(source)),
  compareSessions: ofSession(({ options, against, priceOverrides }, { target }) =>
    compareSlot.compare(target, options, against, priceOverrides),
  ),
  comparePair: ofSession(({ options, against, index }, { target }) => compareSlot.pair(target, options, against, index)),
  sessionComposition: ofSession(async ({ options }, { target }) => ({
    rows: await prefixFor(target).sessionComposition(options, optionsKey(options), analyze(target, options)),
  })),
  searchStep: ofSession((params, { target }) => searchFor(target).step(params)),
  searchPrepare: ofSession((params, { target }) => searchFor(target).prepare(params)),
  inferSettings: ofSession(({ options, settings, sliceMs }, { target }) => simulatorFor(target).infer(options, settings, sliceMs, () => performance.now())),
  tokenView: ofSession(({ options, turn, index }, { target }) => prefixFor(target).tokenView(options, turn, index)),
  livePoll: ofSession(async ({ options }) => {
    const followed = liveFile;
    if (!followed || followed.runId !== sessionRunId) return { status: "not-followed" };
    // The notices are about the main thread's turns.
    const outcome = await followed.file.poll({ ...options, thread: null });
    if (outcome.kind === "unchanged" || liveFile !== followed || followed.runId !== sessionRunId) return { status: "unchanged" };
    if (outcome.kind === "appended") grow(outcome.session);
    else install(outcome.session, followed.runId);
    const result: LivePollResult = { status: outcome.kind, summary: summaryOf(outcome.session, outcome.byteLength), notices: outcome.notices, readBytes: outcome.readBytes };
    if (options.thread) return result;
    // The analysis the notices were made from is the new one (main thread): the page is sent what
    // changed in the one it holds, else it asks for the whole one next.
    const key = optionsKey(options);
    const analysis = keepAnalysis(key, outcome.analysis);
    const before = sentAnalysis;
    sentAnalysis = null;
    if (outcome.kind !== "appended" || before?.key !== key) return result;
    sentAnalysis = { key, value: analysis };
    return { ...result, delta: analysisDelta(before.value, analysis) };
  }),
};

/** Answers one call, once the tokenizer tables it needs are loaded. */
async function answer<M extends WorkerMethod>(method: M, params: Params<M>): Promise<WorkerMethods[M]["result"]> {
  await loadTokenizerTables(tablesForCall(method));
  const handler: Handler<M> = HANDLERS[method];
  return handler.run(params);
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  switch (message.type) {
    case "open":
      void open(message.runId, message.source);
      break;
    case "cancel":
      if (activeRunId === message.runId) activeRunId = 0;
      break;
    case "call": {
      const { callId, method, params } = message;
      if (!BACKGROUND.has(method)) noteInteractiveCall();
      // A call about the open session must be about the one the page holds (it is stale otherwise).
      if (HANDLERS[method].aboutSession && message.sessionRunId !== sessionRunId) {
        post({ type: "reply", callId, ok: false, error: "The session changed.", stale: true });
        break;
      }
      answer(method, params).then(
        (value) => post({ type: "reply", callId, ok: true, value }),
        (error: unknown) => post({ type: "reply", callId, ok: false, error: errorText(error), stale: error instanceof PrefixPassAbandoned }),
      );
      break;
    }
  }
};

// Everything above is loaded: the UI may now count on quick answers (its first open).
post({ type: "started" });
// The watchdog's sign of life: a long pass that yields is not a stuck worker.
setInterval(() => post({ type: "alive" }), ALIVE_EVERY_MS);
