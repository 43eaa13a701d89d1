// Orchestration between the store and the pipeline worker: opening inputs, (re)analysing when
// options change, building the selected turn's request, attaching a request header. Components
// call these functions; they never talk to the worker directly.
import type { CaptureDiffResult } from "../app/captureCheck";
import { mergeCompactionInstructions } from "../core/session/index";
import type { ApiId, ModelInfo, PipelineOptions, ProfileId, RequestHeader } from "../core/model";
import { DEFAULT_WATCHDOG_MS, isStale, PipelineClient } from "../worker/client";
import type { OpenSource, SessionSummary } from "../worker/protocol";
import { latestOnly } from "./latestOnly";
import { selectedItem } from "./selectors";
import type { ShareViewV1 } from "../core/share/payload-v1";
import { isBundleFile, looksLikeSession } from "./sniffInput";
import { centerTab, mergeViews, noteSessionOrigin, type RequestedView } from "./urlState";
import {
  getAppState,
  initialAuxiliary,
  initialCompaction,
  initialDiff,
  initialPrefix,
  initialRequest,
  initialTokens,
  saveModelOverrides,
  setAppState,
  type CenterTab,
  type SampleInfo,
  type UserOptions,
} from "./store";

/** Captured request bodies above this size are refused (they are a few hundred KB in practice). */
const MAX_HEADER_BYTES = 32 * 1024 * 1024;

let client: PipelineClient | null = null;

/** The watchdog bound: `?watchdog=<seconds>` in the page address (slow machines, tests), else the default. */
function watchdogBound(): number | undefined {
  const value = typeof location === "undefined" ? null : new URLSearchParams(location.search).get("watchdog");
  const seconds = value === null ? NaN : Number(value);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/** The worker bridge (also used by ./share.ts for export and share). */
export function pipeline(): PipelineClient {
  client ??= new PipelineClient({
    // Read at each stage, so a changed address applies to the next one.
    watchdogMs: () => watchdogBound() ?? DEFAULT_WATCHDOG_MS,
    // The restarted worker holds no session: the view is closed, the banner says why.
    onRestart: (error) =>
      setAppState({ session: null, analysis: null, analysisError: null, loadStatus: "error", loadingName: null, progress: null, error: error.message }),
    onStarted: () => setAppState({ pipelineStarted: true }),
  });
  return client;
}

/**
 * Starts the worker at page load, so that loading its code (several MB, with the tokenizer's
 * tables) is not paid when the first file is dropped.
 */
export function startPipeline(): void {
  pipeline();
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function pipelineOptions(): PipelineOptions {
  const { profile, api, header, leafId, notes, modelOverrides, thread, captures } = getAppState().options;
  const options: PipelineOptions = { profile, api, header, leafId, notes };
  // Only when there are further captures, so the worker's caches keep their keys otherwise.
  if (captures.length > 0) options.captures = captures;
  // Only when a sub-agent thread is shown, so the main thread's cache keys stay as they were.
  if (thread !== null) options.thread = thread;
  // Only when there are edits, so the worker's caches keep their keys otherwise.
  if (Object.keys(modelOverrides).length > 0) options.modelOverrides = modelOverrides;
  return options;
}

// ---------------------------------------------------------------------------------------------
// Opening

/** The source of the open session: a database is re-read from it to show another of its sessions. */
let openedSource: OpenSource | null = null;

/**
 * Opens a source. `view` (from the URL query) is restored once it is open; a share link's or
 * bundle's own view comes back in the summary and is restored first (`view` wins over it).
 */
export async function openSource(
  source: OpenSource,
  name: string,
  suggestedProfile?: ProfileId,
  view?: RequestedView | null,
  sampleId: string | null = null,
): Promise<void> {
  setAppState({ loadStatus: "loading", loadingName: name, progress: null, error: null });
  /** The last provisional summary shown for this open (the entries read so far), if any. */
  let provisional: SessionSummary | null = null;
  // A new session on screen: options and selection start afresh (the requested view applies).
  const showNew = (summary: SessionSummary, requested: RequestedView | null, loadStatus: "loading" | "ready") =>
    setAppState((state) => ({
      session: summary,
      loadStatus,
      ...(loadStatus === "ready" ? { loadingName: null, progress: null } : {}),
      analysis: null,
      analysisProvisional: false,
      analysisError: null,
      selectedIndex: null,
      request: initialRequest,
      compaction: initialCompaction,
      auxiliary: initialAuxiliary,
      warningsOpen: false,
      options: { ...state.options, leafId: null, thread: null, profile: suggestedProfile ?? state.options.profile, ...requestedOptions(requested) },
      ...(requested?.tab ? { activeTab: requested.tab } : {}),
    }));
  // The entries read so far: shown (and analysed) at once, each later snapshot keeps the selected turn.
  const onProvisional = (summary: SessionSummary) => {
    const first = provisional === null;
    provisional = summary;
    if (first) showNew(summary, view ?? null, "loading");
    else setAppState({ session: summary });
    void analyze({ keepTurn: !first, turn: first ? (view?.turn ?? null) : null });
  };
  try {
    const summary = await pipeline().open(source, (progress) => setAppState({ progress }), onProvisional);
    openedSource = source;
    noteSessionOrigin(sampleId, source.kind === "share-link" ? sharedHash(source.link) : null);
    const requested = mergeViews(summary.shared ? sharedView(summary.shared.view) : null, view);
    if (provisional) {
      // The whole file replaces the provisional view; the selected turn stays.
      setAppState({ session: summary, loadStatus: "ready", loadingName: null, progress: null });
      await analyze({ keepTurn: true, turn: requested?.turn ?? null });
      return;
    }
    showNew(summary, requested, "ready");
    await analyze({ keepTurn: false, turn: requested?.turn ?? null });
  } catch (error) {
    // A provisional view of a read that did not finish is closed (the worker dropped it).
    if (provisional && getAppState().session === provisional) closeSession();
    if (isStale(error)) return;
    // The previous session (if any) stays on screen; only the banner changes.
    setAppState((state) => ({
      loadStatus: state.session ? "ready" : "error",
      loadingName: null,
      progress: null,
      error: message(error),
    }));
  }
}

export function openFile(file: File): Promise<void> {
  return openSource({ kind: "file", file }, file.name);
}

/** Files picked or dropped together: an opencode database with its -wal (FM-OC-1), or one session file. */
export function openFiles(files: File[]): Promise<void> {
  if (files.length === 1) return openFile(files[0] as File);
  return openSource({ kind: "files", files }, files.map((file) => file.name).join(" + "));
}

/** Session picker of a database: re-reads the same files for session `sessionId`. */
export function openDatabaseSession(sessionId: string): Promise<void> {
  const source = openedSource;
  const files = source?.kind === "files" ? source.files : source?.kind === "file" ? [source.file] : null;
  if (!files) return Promise.resolve();
  return openSource({ kind: "files", files, sessionId }, files[0]?.name ?? "database");
}

export function openPastedText(text: string): Promise<void> {
  return openSource({ kind: "text", name: "pasted.jsonl", text }, "pasted.jsonl");
}

export function openSample(sample: SampleInfo, view?: RequestedView | null): Promise<void> {
  const url = new URL(`samples/${sample.file}`, document.baseURI).href;
  const profile: ProfileId = /senpi/i.test(`${sample.id} ${sample.file}`) ? "senpi" : "pi";
  return openSource({ kind: "url", name: sample.file, url }, sample.file, profile, view, sample.id);
}

/** Opens a share link (`#v1=…` or a whole URL); decoding and validation happen in the worker. */
export function openShareLink(link: string, view?: RequestedView | null): Promise<void> {
  return openSource({ kind: "share-link", link }, "share link", undefined, view);
}

/** The `#v…=` part of a link, kept in the page URL while its session is shown. */
function sharedHash(link: string): string | null {
  const at = link.indexOf("#");
  return at >= 0 ? link.slice(at).replace(/\s+/g, "") : null;
}

/** A share payload's view as a RequestedView (profile, provider, notes, leaf, header, turn, tab). */
function sharedView(view: ShareViewV1): RequestedView {
  const requested: RequestedView = {
    turn: view.turn,
    profile: view.profile,
    provider: view.provider,
    notes: view.notes,
    leafId: view.leafId,
    header: view.header ?? null,
  };
  const tab = centerTab(view.tab);
  if (tab) requested.tab = tab;
  return requested;
}

/** The pipeline options a requested view sets (fields it leaves out keep their values). */
function requestedOptions(view: RequestedView | null): Partial<UserOptions> {
  if (!view) return {};
  const options: Partial<UserOptions> = {};
  if (view.profile !== undefined) options.profile = view.profile;
  if (view.provider !== undefined) options.api = view.provider;
  if (view.notes !== undefined) options.notes = view.notes;
  if (view.leafId !== undefined) options.leafId = view.leafId;
  if (view.header !== undefined) options.header = view.header;
  return options;
}

export function cancelOpen(): void {
  pipeline().cancelOpen();
  // Turns of a file read only in part are not kept: the view closes (the previous session was
  // already replaced by them).
  if (getAppState().session?.provisional) closeSession();
  setAppState((state) => ({ loadStatus: state.session ? "ready" : "idle", loadingName: null, progress: null }));
}

/** Closes the session shown (a provisional one whose read stopped). */
function closeSession(): void {
  setAppState({ session: null, analysis: null, analysisProvisional: false, analysisError: null, selectedIndex: null, request: initialRequest });
}

export function dismissError(): void {
  setAppState({ error: null });
}

/**
 * Loads the sample list; with nothing open, opens `preferredId` (or the first sample) so a first
 * visit shows something useful at once.
 */
export async function loadSamples(autoOpen: boolean, preferredId: string | null = null, view?: RequestedView | null): Promise<void> {
  try {
    const response = await fetch(new URL("samples/index.json", document.baseURI).href);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const list = (await response.json()) as unknown;
    const samples = (Array.isArray(list) ? list : []).filter(
      (item): item is SampleInfo =>
        typeof item === "object" && item !== null && typeof item.id === "string" && typeof item.file === "string",
    );
    setAppState({ samples, samplesError: null });
    const state = getAppState();
    const first = samples.find((sample) => sample.id === preferredId) ?? samples[0];
    if (autoOpen && first && !state.session && state.loadStatus === "idle") await openSample(first, view);
  } catch (error) {
    setAppState({ samplesError: `Samples unavailable: ${message(error)}` });
  }
}

// ---------------------------------------------------------------------------------------------
// Analysis and selection

async function analyze({ keepTurn, turn = null }: { keepTurn: boolean; turn?: number | null }): Promise<void> {
  // Of the session the worker holds now: the entries read so far while the file is still read.
  const provisional = Boolean(getAppState().session?.provisional);
  try {
    const analysis = await pipeline().call("analyze", { options: pipelineOptions() }, "analyze");
    // Read the selection only now: the user may have moved it while the worker was busy.
    const previous = selectedItem(getAppState());
    const timeline = analysis.timeline;
    let index = -1;
    if (keepTurn && previous) {
      index = timeline.findIndex((item) =>
        previous.kind === "turn"
          ? item.kind === "turn" && item.turn === previous.turn
          : previous.kind === "compaction"
            ? item.kind === "compaction" && item.entryId === previous.entryId
            : item.kind === "auxiliary" && item.index === previous.index,
      );
    }
    // A restored view (share link, URL) asks for its turn; a turn past the end falls back to the first.
    if (index < 0 && turn !== null) index = timeline.findIndex((item) => item.kind === "turn" && item.turn === turn);
    if (index < 0) index = timeline.findIndex((item) => item.kind === "turn");
    if (index < 0 && timeline.length > 0) index = 0;
    setAppState({
      analysis,
      analysisProvisional: provisional,
      analysisError: null,
      selectedIndex: index >= 0 ? index : null,
      request: keepTurn ? getAppState().request : initialRequest,
      // Built for the previous options: rebuilt for the selected turn when their tab is shown.
      diff: initialDiff,
      tokens: initialTokens,
    });
    loadSelection();
    // Prefix passes (and exact counts) wait for the whole file: the reading goes first.
    if (!provisional) void loadPrefixReports();
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ analysisError: message(error), analysis: null, selectedIndex: null, request: initialRequest });
  }
}

const buildRequest = latestOnly(async (turn: number) => {
  setAppState((state) => ({ request: { ...state.request, status: "loading", turn, error: null } }));
  const builtFor = getAppState().options;
  try {
    const result = await pipeline().call("buildRequest", { options: pipelineOptions(), turn }, "request");
    setAppState({ request: { status: "ready", turn, result, error: null, builtFor } });
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ request: { status: "error", turn, result: null, error: message(error), builtFor } });
  }
});

const buildCompaction = latestOnly(async (entryId: string) => {
  setAppState({ compaction: { status: "loading", entryId, result: null, error: null } });
  try {
    const instructions = getAppState().options.compactionInstructions;
    const result = await pipeline().call("compactionRequests", { options: pipelineOptions(), entryId, instructions }, "compaction");
    setAppState({ compaction: { status: "ready", entryId, result, error: null } });
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ compaction: { status: "error", entryId, result: null, error: message(error) } });
  }
});

const buildAuxiliary = latestOnly(async (index: number) => {
  setAppState({ auxiliary: { status: "loading", index, result: null, error: null } });
  try {
    const result = await pipeline().call("auxiliaryRequest", { options: pipelineOptions(), index }, "auxiliary");
    setAppState({ auxiliary: { status: "ready", index, result, error: null } });
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ auxiliary: { status: "error", index, result: null, error: message(error) } });
  }
});

// Prefix stability: every turn's report for the timeline badges and the chart (chars/4
// estimates first, exact counts replace them when the worker's second pass finishes), and the
// selected turn's Diff and Tokens tabs, built only while that tab is shown.

/** Loads the prefix reports for the current options: the estimate pass, then the exact pass. */
async function loadPrefixReports(): Promise<void> {
  const options = pipelineOptions();
  const key = JSON.stringify(options);
  if (getAppState().prefix.key === key && getAppState().prefix.pass === "exact") return;
  setAppState((state) => ({ prefix: state.prefix.key === key ? { ...state.prefix, running: true } : { ...initialPrefix, key, running: true } }));
  try {
    for (const pass of ["estimate", "exact"] as const) {
      const result = await pipeline().call("prefixReports", { options, pass }, `prefix-${pass}`);
      if (getAppState().prefix.key !== key) return;
      setAppState({ prefix: { key, pass, rows: result.rows, running: pass !== "exact", error: null } });
    }
  } catch (error) {
    if (isStale(error) || getAppState().prefix.key !== key) return;
    setAppState((state) => ({ prefix: { ...state.prefix, running: false, error: message(error) } }));
  }
}

const buildDiff = latestOnly(async (turn: number) => {
  setAppState((state) => ({ diff: { ...state.diff, status: "loading", turn, error: null } }));
  try {
    const result = await pipeline().call("turnDiff", { options: pipelineOptions(), turn }, "diff");
    setAppState({ diff: { status: "ready", turn, result, error: null } });
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ diff: { status: "error", turn, result: null, error: message(error) } });
  }
});

const buildTokens = latestOnly(async (turn: number) => {
  setAppState((state) => ({ tokens: { ...state.tokens, status: "loading", turn, error: null, view: initialTokens.view } }));
  try {
    for (const pass of ["estimate", "exact"] as const) {
      const result = await pipeline().call("tokenComposition", { options: pipelineOptions(), turn, pass }, "tokens");
      setAppState((state) => ({ tokens: { ...state.tokens, status: "ready", turn, result, error: null } }));
    }
  } catch (error) {
    if (isStale(error)) return;
    setAppState((state) => ({ tokens: { ...state.tokens, status: "error", turn, result: null, error: message(error) } }));
  }
});

/** The token view of context message `index` of the turn shown in the Tokens tab. */
const buildTokenView = latestOnly(async ({ turn, index }: { turn: number; index: number }) => {
  setAppState((state) => ({ tokens: { ...state.tokens, view: { status: "loading", turn, index, result: null, error: null } } }));
  try {
    const result = await pipeline().call("tokenView", { options: pipelineOptions(), turn, index }, "token-view");
    setAppState((state) => ({ tokens: { ...state.tokens, view: { status: "ready", turn, index, result, error: null } } }));
  } catch (error) {
    if (isStale(error)) return;
    setAppState((state) => ({ tokens: { ...state.tokens, view: { status: "error", turn, index, result: null, error: message(error) } } }));
  }
});

export function showTokenView(turn: number, index: number): void {
  buildTokenView({ turn, index });
}

/**
 * Builds the Diff or Tokens view of the selected turn when that tab is shown. The store holds the
 * turn being built, which is not the last one asked for when another is queued behind it: stepping
 * 4 → 3 → 4 while turn 4 is built must queue 4 again, or the queued 3 would be left on screen.
 */
function loadTabView(turn: number): void {
  const state = getAppState();
  if (state.activeTab === "diff" && (state.diff.turn !== turn || buildDiff.lastAsked() !== turn)) buildDiff(turn);
  else if (state.activeTab === "tokens" && (state.tokens.turn !== turn || buildTokens.lastAsked() !== turn)) buildTokens(turn);
}

/** Materialises what the selected timeline item needs (its request, compaction or auxiliary view). */
function loadSelection(): void {
  const item = selectedItem(getAppState());
  if (!item) return;
  if (item.kind === "turn") loadTabView(item.turn);
  if (item.kind === "turn") buildRequest(item.turn);
  else if (item.kind === "compaction") buildCompaction(item.entryId);
  else buildAuxiliary(item.index);
}

export function selectIndex(index: number): void {
  const timeline = getAppState().analysis?.timeline ?? [];
  if (timeline.length === 0) return;
  const clamped = Math.max(0, Math.min(timeline.length - 1, index));
  if (clamped === getAppState().selectedIndex) return;
  setAppState({ selectedIndex: clamped });
  loadSelection();
}

export function stepSelection(delta: number): void {
  const current = getAppState().selectedIndex;
  selectIndex(current === null ? 0 : current + delta);
}

export function selectEdge(edge: "first" | "last"): void {
  const length = getAppState().analysis?.timeline.length ?? 0;
  selectIndex(edge === "first" ? 0 : length - 1);
}

export function setActiveTab(tab: CenterTab): void {
  setAppState({ activeTab: tab });
  const item = selectedItem(getAppState());
  if (item?.kind === "turn") loadTabView(item.turn);
}

// ---------------------------------------------------------------------------------------------
// Options

function updateOptions(patch: Partial<ReturnType<typeof getAppState>["options"]>): void {
  setAppState((state) => ({ options: { ...state.options, ...patch } }));
  if (getAppState().session) void analyze({ keepTurn: true });
}

export function setProfile(profile: ProfileId): void {
  updateOptions({ profile });
}

export function setApi(api: ApiId | null): void {
  updateOptions({ api });
}

export function setLeaf(leafId: string | null): void {
  updateOptions({ leafId });
}

/**
 * Shows a sub-agent thread of the session (its own turns and requests), or with null the main
 * thread; `turn` selects that turn of it (a link to a tool call).
 */
export function setThread(thread: string | null, turn: number | null = null): Promise<void> {
  if (getAppState().options.thread === thread) {
    if (turn !== null) selectTurnNumber(turn);
    return Promise.resolve();
  }
  setAppState((state) => ({ options: { ...state.options, thread, leafId: null }, compaction: initialCompaction, auxiliary: initialAuxiliary }));
  return getAppState().session ? analyze({ keepTurn: false, turn }) : Promise.resolve();
}

function selectTurnNumber(turn: number): void {
  const index = (getAppState().analysis?.timeline ?? []).findIndex((item) => item.kind === "turn" && item.turn === turn);
  if (index >= 0) selectIndex(index);
}

/**
 * Goes back from a sub-agent thread to the tool call that started it: the parent thread's first
 * request holding the call, on the Messages tab with the call's message selected.
 */
export async function showSpawnCall(threadId: string): Promise<void> {
  try {
    const location = await pipeline().call("spawnCall", { options: pipelineOptions(), threadId }, "spawnCall");
    if (!location) return;
    await setThread(location.threadId, location.turn);
    setActiveTab("messages");
    if (location.messageIndex !== null) selectMessage(location.turn, location.messageIndex);
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ analysisError: message(error) });
  }
}

/** senpi reply-language notes on/off (ignored by the pi profile). */
export function setNotes(notes: boolean): void {
  updateOptions({ notes });
}

/**
 * Writes (or, with null, removes) the user's edit of one model's catalogue facts, keyed
 * "provider/modelId" as PipelineOptions.modelOverrides expects, saves it and rebuilds the request.
 */
export function setModelOverride(key: string, override: Partial<ModelInfo> | null): void {
  const next = { ...getAppState().options.modelOverrides };
  if (override) next[key] = override;
  else delete next[key];
  saveModelOverrides(next);
  updateOptions({ modelOverrides: next });
}

/** Selects a row of the Messages tab (its context index), for the Details panel. */
export function selectMessage(turn: number, index: number | null): void {
  setAppState({ selectedMessage: index === null ? null : { turn, index } });
}

export async function attachHeaderFile(file: File): Promise<void> {
  if (file.size > MAX_HEADER_BYTES) {
    setAppState({ headerError: `"${file.name}" is too large for a captured request (${file.size} bytes).` });
    return;
  }
  try {
    const header = await pipeline().call("parseHeader", { data: file, source: file.name }, "header");
    setAppState({ headerError: null });
    updateOptions({ header });
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ headerError: message(error) });
  }
}

export function clearHeader(): void {
  setAppState({ headerError: null });
  updateOptions({ header: null, captures: [] });
}

/**
 * A main-request capture dropped with others: the first becomes the header (session constants),
 * the others are kept as further captures (model facts of their models; matched to their turns
 * for the capture diff). A capture of a source already attached replaces it.
 */
function addMainCapture(header: RequestHeader): void {
  const { options } = getAppState();
  if (!options.header || options.header.source === header.source) {
    updateOptions({ header });
    return;
  }
  updateOptions({ captures: [...options.captures.filter((item) => item.source !== header.source), header] });
}

/**
 * Attaches captured summariser requests (PI-K20 … PI-K27): each fills the instruction slot it
 * carries; earlier attachments keep their slots (the first capture of a slot wins).
 */
export async function attachCompactionCaptures(files: File[]): Promise<void> {
  for (const file of files) {
    if (file.size > MAX_HEADER_BYTES) {
      setAppState({ compactionCaptureError: `"${file.name}" is too large for a captured request (${file.size} bytes).` });
      continue;
    }
    try {
      const parsed = await pipeline().call("parseCapture", { data: file, source: file.name }, `capture-${file.name}`);
      if (parsed.kind !== "compaction") {
        setAppState({
          compactionCaptureError: `"${file.name}" is not a pi summariser request (system prompt and one "<conversation>" user message, no tools).`,
        });
        continue;
      }
      addCompactionInstructions(parsed.captured.instructions);
    } catch (error) {
      if (isStale(error)) return;
      setAppState({ compactionCaptureError: message(error) });
    }
  }
}

function addCompactionInstructions(instructions: Parameters<typeof mergeCompactionInstructions>[0]): void {
  const merged = mergeCompactionInstructions(getAppState().options.compactionInstructions, instructions);
  setAppState({ compactionCaptureError: null });
  updateOptions({ compactionInstructions: merged });
}

export function clearCompactionCaptures(): void {
  setAppState({ compactionCaptureError: null });
  updateOptions({ compactionInstructions: null });
}

/**
 * A dropped `.json` capture: a pi summariser request fills the compaction instruction slots;
 * anything else becomes the request header.
 */
async function attachDroppedCapture(file: File): Promise<void> {
  if (file.size > MAX_HEADER_BYTES) {
    setAppState({ headerError: `"${file.name}" is too large for a captured request (${file.size} bytes).` });
    return;
  }
  try {
    const parsed = await pipeline().call("parseCapture", { data: file, source: file.name }, `capture-${file.name}`);
    if (parsed.kind === "compaction") addCompactionInstructions(parsed.captured.instructions);
    else {
      setAppState({ headerError: null });
      addMainCapture(parsed.header);
    }
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ headerError: message(error) });
  }
}

/**
 * Files dropped or picked together: the session opens (several at once: an opencode database with
 * its -wal); each `.json` capture is a header or a summariser request, unless its first lines are
 * a session a reader recognises (an `opencode export` is JSON too).
 */
export function openDroppedFiles(files: File[]): void {
  void (async () => {
    // A reproduction bundle reopens the view it was saved from.
    for (const file of files) {
      if (await isBundleFile(file)) {
        void openSource({ kind: "share-bundle", name: file.name, data: file }, file.name);
        return;
      }
    }
    // A recorder's NNN.meta.json beside each request body (a dropped folder of captures) is not a capture.
    const jsonFiles = files.filter((file) => file.name.toLowerCase().endsWith(".json") && !file.name.toLowerCase().endsWith(".meta.json"));
    const jsonSessions = new Set<File>();
    for (const file of jsonFiles) if (await looksLikeSession(file)) jsonSessions.add(file);
    const captures = jsonFiles.filter((file) => !jsonSessions.has(file));
    const sessions = files.filter((file) => !file.name.toLowerCase().endsWith(".json") || jsonSessions.has(file));
    if (sessions.length > 0) void openFiles(sessions);
    for (const capture of captures) await attachDroppedCapture(capture);
  })();
}

/** The selected turn against the attached capture matched to it; null when none matches it. */
export async function loadCaptureDiff(turn: number): Promise<CaptureDiffResult | null> {
  return pipeline().call("captureDiff", { options: pipelineOptions(), turn }, "capture-diff");
}

/** Copies the selected turn's request body as sent (compact JSON) to the clipboard. */
export async function copyRequestBody(turn: number): Promise<void> {
  try {
    const body = await pipeline().call("requestBody", { options: pipelineOptions(), turn }, "copy");
    await navigator.clipboard.writeText(body);
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ error: `Could not copy the request: ${message(error)}` });
  }
}
