// The UI state (zustand). Holds only what cannot be derived: the opened session's summary, the
// analysis and the one materialised request returned by the worker, load status, selection and
// the user's pipeline options. Derived values (turn count, selected turn, all warnings, …) live
// in selectors.ts. Orchestration (talking to the worker) is in the other modules of this folder.
import { create } from "zustand";
import type { CompactionInstructions } from "../core/session/index";
import type { ApiId, ModelInfo, ProfileId, RequestHeader } from "../core/model";
import type { SessionAnalysis } from "../core/session/pipeline";
import type { AuxiliaryRequestResult } from "../features/auxiliary/protocol";
import type { ConversationResult } from "../features/conversation/protocol";
import type { CompactionRequestsResult } from "../features/compaction/protocol";
import type { LoadProgress, SessionSummary } from "../features/open/protocol";
import type { PrefixRow, TokenCompositionResult, TokenPass, TokenViewResult, TurnDiffResult } from "../features/prefix/protocol";
import type { TurnRequestResult } from "../features/request/protocol";

type LoadStatus = "idle" | "loading" | "ready" | "error";
export type CenterTab = "request" | "conversation" | "messages" | "diff" | "tokens";

export interface SampleInfo {
  id: string;
  title: string;
  file: string;
  description: string;
  /** The pipeline profile the sample is read with (a senpi session: "senpi"); absent: the agent's first. */
  profile?: string;
}

/** The pipeline options the user controls (PipelineOptions minus what the app never sets). */
export interface UserOptions {
  /** Absent until a session, a link or the user names one: the session's agent then uses its first profile. */
  profile?: ProfileId;
  /** Null: "as recorded" (each turn in the shape of the model in force). */
  api: ApiId | null;
  header: RequestHeader | null;
  /** Null: the default branch (last entry in file order, PI-P1). */
  leafId: string | null;
  /** senpi reply-language notes (reply-language.md); off by default (NOTES_DEFAULT). */
  notes: boolean;
  /** The sub-agent thread shown (SessionSummary.threads id); null: the main thread. */
  thread: string | null;
  /** User edits to the model catalogue, keyed "provider/modelId"; persisted in localStorage. */
  modelOverrides: Record<string, Partial<ModelInfo>>;
  /** pi summariser instruction slots filled from attached captured compaction requests. */
  compactionInstructions: CompactionInstructions | null;
  /** Main-request captures dropped besides the header (several files or a folder): model facts per model. */
  captures: RequestHeader[];
}

/** localStorage key of the user's model catalogue edits. */
const MODEL_OVERRIDES_KEY = "contextscope.modelOverrides";

/** The saved model catalogue edits; anything unreadable counts as none. */
function loadModelOverrides(): Record<string, Partial<ModelInfo>> {
  try {
    const text = typeof localStorage === "undefined" ? null : localStorage.getItem(MODEL_OVERRIDES_KEY);
    const parsed = text ? (JSON.parse(text) as unknown) : null;
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    const out: Record<string, Partial<ModelInfo>> = {};
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof value === "object" && value !== null && !Array.isArray(value) && key !== "__proto__") {
        out[key] = value as Partial<ModelInfo>;
      }
    }
    return out;
  } catch {
    return {};
  }
}

export function saveModelOverrides(overrides: Record<string, Partial<ModelInfo>>): void {
  try {
    if (Object.keys(overrides).length === 0) localStorage.removeItem(MODEL_OVERRIDES_KEY);
    else localStorage.setItem(MODEL_OVERRIDES_KEY, JSON.stringify(overrides));
  } catch {
    // Storage unavailable (private mode, quota): the edits last for this page only.
  }
}

export interface RequestState {
  status: "idle" | "loading" | "ready" | "error";
  /** Turn the status refers to (the one being built or shown). */
  turn: number | null;
  result: TurnRequestResult | null;
  error: string | null;
  /**
   * The options object `result` was built with. Changing an option replaces `options`, so until
   * the rebuild arrives the shown request is the previous settings' one and says so.
   */
  builtFor: AppState["options"] | null;
}

export interface CompactionState {
  status: "idle" | "loading" | "ready" | "error";
  entryId: string | null;
  result: CompactionRequestsResult | null;
  error: string | null;
}

/** The selected auxiliary request (opencode title / summariser request), by its index. */
export interface AuxiliaryState {
  status: "idle" | "loading" | "ready" | "error";
  index: number | null;
  result: AuxiliaryRequestResult | null;
  error: string | null;
}

/** Prefix reports of every turn (timeline badges, chart): estimates first, then exact counts. */
export interface PrefixState {
  /** Options the rows belong to (JSON of the pipeline options). */
  key: string | null;
  pass: TokenPass | null;
  rows: PrefixRow[] | null;
  /** True while a pass (estimate or exact) is still running. */
  running: boolean;
  error: string | null;
}

/** One turn's view in the Diff or Tokens tab. */
export interface TurnViewState<T> {
  status: "idle" | "loading" | "ready" | "error";
  turn: number | null;
  result: T | null;
  error: string | null;
}

export interface TokensState extends TurnViewState<TokenCompositionResult> {
  /** Token view of one context message of the turn. */
  view: TurnViewState<TokenViewResult> & { index: number | null };
}

export interface AppState {
  loadStatus: LoadStatus;
  /** Name of the input being read (while loading). */
  loadingName: string | null;
  progress: LoadProgress | null;
  /** Error banner text (unreadable file, worker failure, …); the previous session stays shown. */
  error: string | null;
  session: SessionSummary | null;
  analysis: SessionAnalysis | null;
  /** True while `analysis` is of a provisional session (the entries read so far, SessionSummary.provisional). */
  analysisProvisional: boolean;
  /** The pipeline worker has loaded its code (it is started at page load). */
  pipelineStarted: boolean;
  /** Every agent and file kind the readers know (from the worker, which holds the agents), for the empty page. */
  readableFiles: { agent: string; files: string }[] | null;
  analysisError: string | null;
  /** Index into analysis.timeline. */
  selectedIndex: number | null;
  /** Row selected in the Messages tab (its context index) and the turn it belongs to. */
  selectedMessage: { turn: number; index: number } | null;
  activeTab: CenterTab;
  options: UserOptions;
  request: RequestState;
  compaction: CompactionState;
  auxiliary: AuxiliaryState;
  /** Prefix stability: every turn's report, the Diff tab, the Tokens tab. */
  prefix: PrefixState;
  diff: TurnViewState<TurnDiffResult>;
  tokens: TokensState;
  /** The Conversation tab: the selected turn's messages as readable text. */
  conversation: TurnViewState<ConversationResult>;
  headerError: string | null;
  /** What the attached facts file said of itself (learnt from another version of the agent). */
  factsNote: string | null;
  /** Why an attached captured summariser request could not be used. */
  compactionCaptureError: string | null;
  samples: SampleInfo[];
  samplesError: string | null;
  warningsOpen: boolean;
  pasteOpen: boolean;
}

export const initialRequest: RequestState = { status: "idle", turn: null, result: null, error: null, builtFor: null };
export const initialCompaction: CompactionState = { status: "idle", entryId: null, result: null, error: null };
export const initialPrefix: PrefixState = { key: null, pass: null, rows: null, running: false, error: null };
export const initialDiff: TurnViewState<TurnDiffResult> = { status: "idle", turn: null, result: null, error: null };
export const initialConversation: TurnViewState<ConversationResult> = { status: "idle", turn: null, result: null, error: null };
export const initialTokens: TokensState = {
  status: "idle",
  turn: null,
  result: null,
  error: null,
  view: { status: "idle", turn: null, index: null, result: null, error: null },
};
export const initialAuxiliary: AuxiliaryState = { status: "idle", index: null, result: null, error: null };

/** The pipeline options of a first visit, before a session or the URL says otherwise. */
const initialOptions: AppState["options"] = {
  api: null,
  header: null,
  captures: [],
  leafId: null,
  notes: false,
  thread: null,
  modelOverrides: loadModelOverrides(),
  compactionInstructions: null,
};

export const useAppStore = create<AppState>()(() => ({
  loadStatus: "idle",
  loadingName: null,
  progress: null,
  error: null,
  session: null,
  analysis: null,
  analysisProvisional: false,
  pipelineStarted: false,
  readableFiles: null,
  analysisError: null,
  selectedIndex: null,
  selectedMessage: null,
  activeTab: "request",
  options: initialOptions,
  request: initialRequest,
  compaction: initialCompaction,
  auxiliary: initialAuxiliary,
  prefix: initialPrefix,
  diff: initialDiff,
  tokens: initialTokens,
  conversation: initialConversation,
  headerError: null,
  factsNote: null,
  compactionCaptureError: null,
  samples: [],
  samplesError: null,
  warningsOpen: false,
  pasteOpen: false,
}));

/** Shorthand for partial updates from actions and components. */
export const setAppState = useAppStore.setState;
export const getAppState = useAppStore.getState;
