// Orchestration between the store and the pipeline worker: opening inputs, (re)analysing when
// options change, building the selected turn's request, attaching a request header. Components
// call these functions; they never talk to the worker directly.
import type { ApiId, PipelineOptions, ProfileId } from "../core/model";
import { isStale, PipelineClient } from "../worker/client";
import type { OpenSource } from "../worker/protocol";
import { latestOnly } from "./latestOnly";
import { selectedItem } from "./selectors";
import { getAppState, initialCompaction, initialRequest, setAppState, type CenterTab, type SampleInfo } from "./store";

/** Captured request bodies above this size are refused (they are a few hundred KB in practice). */
const MAX_HEADER_BYTES = 32 * 1024 * 1024;

let client: PipelineClient | null = null;
function pipeline(): PipelineClient {
  client ??= new PipelineClient();
  return client;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function pipelineOptions(): PipelineOptions {
  const { profile, api, header, leafId } = getAppState().options;
  return { profile, api, header, leafId };
}

// ---------------------------------------------------------------------------------------------
// Opening

export async function openSource(source: OpenSource, name: string, suggestedProfile?: ProfileId): Promise<void> {
  setAppState({ loadStatus: "loading", loadingName: name, progress: null, error: null });
  try {
    const summary = await pipeline().open(source, (progress) => setAppState({ progress }));
    setAppState((state) => ({
      session: summary,
      loadStatus: "ready",
      loadingName: null,
      progress: null,
      analysis: null,
      analysisError: null,
      selectedIndex: null,
      request: initialRequest,
      compaction: initialCompaction,
      warningsOpen: false,
      options: { ...state.options, leafId: null, profile: suggestedProfile ?? state.options.profile },
    }));
    await analyze({ keepTurn: false });
  } catch (error) {
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

export function openPastedText(text: string): Promise<void> {
  return openSource({ kind: "text", name: "pasted.jsonl", text }, "pasted.jsonl");
}

export function openSample(sample: SampleInfo): Promise<void> {
  const url = new URL(`samples/${sample.file}`, document.baseURI).href;
  const profile: ProfileId = /senpi/i.test(`${sample.id} ${sample.file}`) ? "senpi" : "pi";
  return openSource({ kind: "url", name: sample.file, url }, sample.file, profile);
}

export function cancelOpen(): void {
  pipeline().cancelOpen();
  setAppState((state) => ({ loadStatus: state.session ? "ready" : "idle", loadingName: null, progress: null }));
}

export function dismissError(): void {
  setAppState({ error: null });
}

/**
 * Loads the sample list; with nothing open, opens `preferredId` (or the first sample) so a first
 * visit shows something useful at once.
 */
export async function loadSamples(autoOpen: boolean, preferredId: string | null = null): Promise<void> {
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
    if (autoOpen && first && !state.session && state.loadStatus === "idle") await openSample(first);
  } catch (error) {
    setAppState({ samplesError: `Samples unavailable: ${message(error)}` });
  }
}

// ---------------------------------------------------------------------------------------------
// Analysis and selection

async function analyze({ keepTurn }: { keepTurn: boolean }): Promise<void> {
  try {
    const analysis = await pipeline().call("analyze", { options: pipelineOptions() }, "analyze");
    // Read the selection only now: the user may have moved it while the worker was busy.
    const previous = selectedItem(getAppState());
    const timeline = analysis.timeline;
    let index = -1;
    if (keepTurn && previous) {
      index = timeline.findIndex((item) =>
        previous.kind === "turn" ? item.kind === "turn" && item.turn === previous.turn : item.kind === "compaction" && item.entryId === previous.entryId,
      );
    }
    if (index < 0) index = timeline.findIndex((item) => item.kind === "turn");
    if (index < 0 && timeline.length > 0) index = 0;
    setAppState({ analysis, analysisError: null, selectedIndex: index >= 0 ? index : null, request: keepTurn ? getAppState().request : initialRequest });
    loadSelection();
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ analysisError: message(error), analysis: null, selectedIndex: null, request: initialRequest });
  }
}

const buildRequest = latestOnly(async (turn: number) => {
  setAppState((state) => ({ request: { ...state.request, status: "loading", turn, error: null } }));
  try {
    const result = await pipeline().call("buildRequest", { options: pipelineOptions(), turn }, "request");
    setAppState({ request: { status: "ready", turn, result, error: null } });
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ request: { status: "error", turn, result: null, error: message(error) } });
  }
});

const buildCompaction = latestOnly(async (entryId: string) => {
  setAppState({ compaction: { status: "loading", entryId, result: null, error: null } });
  try {
    const result = await pipeline().call("compactionRequests", { options: pipelineOptions(), entryId }, "compaction");
    setAppState({ compaction: { status: "ready", entryId, result, error: null } });
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ compaction: { status: "error", entryId, result: null, error: message(error) } });
  }
});

/** Materialises what the selected timeline item needs (its request, or its compaction view). */
function loadSelection(): void {
  const item = selectedItem(getAppState());
  if (!item) return;
  if (item.kind === "turn") buildRequest(item.turn);
  else buildCompaction(item.entryId);
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
  updateOptions({ header: null });
}

/** Files dropped on the page: a session opens; a `.json` capture becomes the request header. */
export function openDroppedFiles(files: File[]): void {
  const headers = files.filter((file) => file.name.toLowerCase().endsWith(".json"));
  const sessions = files.filter((file) => !file.name.toLowerCase().endsWith(".json"));
  const header = headers[0];
  if (header) void attachHeaderFile(header);
  const session = sessions[0];
  if (session) void openFile(session);
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
