// Opening a session: a file, files dropped together, a database's other session, pasted text, a
// sample, a share link or a reproduction bundle. The worker reads it (provisional turns first for
// a large file); the new session is shown with fresh options and selection, then analysed.
import type { ProfileId } from "../../core/model";
import type { ShareViewV1 } from "../../core/share/payload-v1";
import { isStale } from "../../worker/client";
import type { OpenSource, SessionSummary } from "./protocol";
import { analyze, analyzeGrowth } from "../../page/analysis";
import {
  getAppState,
  initialAuxiliary,
  initialCompaction,
  initialPrefix,
  initialRequest,
  setAppState,
  type SampleInfo,
  type UserOptions,
} from "../../page/store";
import { centerTab, mergeViews, noteSessionOrigin, type RequestedView } from "../../page/urlState";
import { errorMessage, pipeline } from "../../page/workerBridge";
import { setTimelineFilter } from "../../page/timelineFilter";
import { selectedTurnNumber } from "../../page/selectors";
import { keepOpenedSource, keptSourceFailed, readKeptSession } from "./keptSession";

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
  const showNew = (summary: SessionSummary, requested: RequestedView | null, loadStatus: "loading" | "ready") => {
    setTimelineFilter("all");
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
      // The previous session's prefix rows (badges, Breaks filter, overview, token figures) go with it.
      prefix: initialPrefix,
      warningsOpen: false,
      // Captures attached to the previous session taught its facts, not this one's: they go with it.
      headerError: null,
      factsNote: null,
      options: withOfferedProfile(summary, { ...state.options, leafId: null, thread: null, header: null, captures: [], compactionInstructions: null, profile: suggestedProfile ?? summary.agent?.sessionProfile ?? state.options.profile, ...requestedOptions(requested, summary) }),
      ...(requested?.tab ? { activeTab: requested.tab } : {}),
    }));
  };
  // The turn a restored view asks for (a reload's, a link's) stays wanted while the entries read
  // so far do not reach it and the user has not chosen another: `autoTurn` is the turn shown
  // meanwhile, which the page chose by itself.
  let autoTurn: number | null = null;
  const wantedTurn = (asked: number | null | undefined): number | null => {
    if (asked === null || asked === undefined) return null;
    const shown = selectedTurnNumber(getAppState());
    return shown === asked || (autoTurn !== null && shown !== autoTurn) ? null : asked;
  };
  const noteAutoTurn = (asked: number | null | undefined) => {
    const shown = selectedTurnNumber(getAppState());
    autoTurn = asked !== null && asked !== undefined && shown !== asked ? shown : null;
  };
  // The entries read so far: shown (and analysed) at once, each later snapshot keeps the selected turn.
  const onProvisional = async (summary: SessionSummary) => {
    const first = provisional === null;
    provisional = summary;
    if (first) showNew(summary, view ?? null, "loading");
    else setAppState({ session: summary });
    const turn = first ? (view?.turn ?? null) : wantedTurn(view?.turn);
    // A later view is sent as the rows read since the one before.
    if (first) await analyze({ keepTurn: false, turn, turnFirst: turn !== null });
    else await analyzeGrowth({ turn, turnFirst: turn !== null });
    if (provisional === summary) noteAutoTurn(view?.turn);
  };
  try {
    const summary = await pipeline().open(source, (progress) => setAppState({ progress }), (snapshot) => void onProvisional(snapshot));
    openedSource = source;
    noteSessionOrigin(sampleId, source.kind === "share-link" ? sharedHash(source.link) : null);
    const requested = mergeViews(summary.shared ? sharedView(summary.shared.view) : null, view);
    void keepOpenedSource(source, name, summary);
    if (provisional) {
      // The whole file replaces the provisional view; the selected turn stays, unless a restored
      // view asked for one the entries read so far did not reach (the whole file has it).
      setAppState((state) => ({
        session: summary,
        loadStatus: "ready",
        loadingName: null,
        progress: null,
        options: state.options.thread === null ? { ...state.options, ...threadOption(requested, summary) } : state.options,
      }));
      const turn = wantedTurn(requested?.turn);
      await analyzeGrowth({ turn, turnFirst: turn !== null });
      return;
    }
    showNew(summary, requested, "ready");
    await analyze({ keepTurn: false, turn: requested?.turn ?? null });
  } catch (error) {
    // A provisional view of a read that did not finish is closed (the worker dropped it).
    if (provisional && getAppState().session === provisional) closeSession();
    if (isStale(error)) return;
    keptSourceFailed(source);
    // The previous session (if any) stays on screen; only the banner changes.
    setAppState((state) => ({
      loadStatus: state.session ? "ready" : "error",
      loadingName: null,
      progress: null,
      error: errorMessage(error),
    }));
  }
}

function openFile(file: File): Promise<void> {
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

/**
 * Reopens the session kept in the page's storage (./keptSession.ts) with its view, `view` (the
 * address's query) winning over it. False when none is kept.
 */
export async function openKeptSession(view: RequestedView | null): Promise<boolean> {
  const kept = await readKeptSession();
  if (!kept) return false;
  const state = getAppState();
  // Something was opened meanwhile (a drop while the storage was read): it wins.
  if (state.session || state.loadStatus === "loading") return false;
  await openSource(kept.source, kept.name, undefined, mergeViews(kept.view, view));
  return true;
}

export function openPastedText(text: string): Promise<void> {
  return openSource({ kind: "text", name: "pasted.jsonl", text }, "pasted.jsonl");
}

export function openSample(sample: SampleInfo, view?: RequestedView | null): Promise<void> {
  const url = new URL(`samples/${sample.file}`, document.baseURI).href;
  return openSource({ kind: "url", name: sample.file, url }, sample.file, sample.profile, view, sample.id);
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

/**
 * The options with a profile the session's agent offers: a profile it does not offer (one from a
 * link or left from the previous session) gives way to the agent's first. Agents without a choice
 * of profiles keep the options as they are.
 */
function withOfferedProfile(summary: SessionSummary, options: UserOptions): UserOptions {
  const offered = summary.agent?.profiles ?? [];
  const first = offered[0];
  if (!first || offered.some((profile) => profile.id === options.profile)) return options;
  return { ...options, profile: first.id };
}

/** A share payload's view as a RequestedView (profile, provider, notes, leaf, header, instructions, turn, tab). */
function sharedView(view: ShareViewV1): RequestedView {
  const requested: RequestedView = {
    turn: view.turn,
    profile: view.profile,
    provider: view.provider,
    notes: view.notes,
    leafId: view.leafId,
    header: view.header ?? null,
    instructions: view.instructions ?? null,
  };
  const tab = centerTab(view.tab);
  if (tab) requested.tab = tab;
  return requested;
}

/** The thread a requested view names, when `summary`'s session has it (a kept view of a file since rewritten may not). */
function threadOption(view: RequestedView | null, summary: SessionSummary): Pick<UserOptions, "thread"> | Record<string, never> {
  const thread = view?.thread;
  if (thread === undefined) return {};
  return thread === null || summary.threads?.some((item) => item.id === thread) ? { thread } : {};
}

/**
 * The pipeline options a requested view sets (fields it leaves out keep their values).
 */
function requestedOptions(view: RequestedView | null, summary: SessionSummary): Partial<UserOptions> {
  if (!view) return {};
  const options: Partial<UserOptions> = threadOption(view, summary);
  if (view.profile !== undefined) options.profile = view.profile;
  if (view.provider !== undefined) options.api = view.provider;
  if (view.notes !== undefined) options.notes = view.notes;
  if (view.leafId !== undefined) options.leafId = view.leafId;
  if (view.header !== undefined) options.header = view.header;
  if (view.instructions !== undefined) options.compactionInstructions = view.instructions;
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
    setAppState({ samplesError: `Samples unavailable: ${errorMessage(error)}` });
  }
}
