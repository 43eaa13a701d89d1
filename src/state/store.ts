// The UI state (zustand). Holds only what cannot be derived: the opened session's summary, the
// analysis and the one materialised request returned by the worker, load status, selection and
// the user's pipeline options. Derived values (turn count, selected turn, all warnings, …) live
// in selectors.ts. Orchestration (talking to the worker) is in actions.ts.
import { create } from "zustand";
import type { ApiId, ProfileId, RequestHeader } from "../core/model";
import type { SessionAnalysis } from "../core/pipeline";
import type { CompactionRequestsResult, LoadProgress, SessionSummary, TurnRequestResult } from "../worker/protocol";

export type LoadStatus = "idle" | "loading" | "ready" | "error";
export type CenterTab = "request" | "messages";

export interface SampleInfo {
  id: string;
  title: string;
  file: string;
  description: string;
}

/** The pipeline options the user controls (PipelineOptions minus what the app never sets). */
export interface UserOptions {
  profile: ProfileId;
  /** Null: "as recorded" (each turn in the shape of the model in force). */
  api: ApiId | null;
  header: RequestHeader | null;
  /** Null: the default branch (last entry in file order, PI-P1). */
  leafId: string | null;
}

export interface RequestState {
  status: "idle" | "loading" | "ready" | "error";
  /** Turn the status refers to (the one being built or shown). */
  turn: number | null;
  result: TurnRequestResult | null;
  error: string | null;
}

export interface CompactionState {
  status: "idle" | "loading" | "ready" | "error";
  entryId: string | null;
  result: CompactionRequestsResult | null;
  error: string | null;
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
  analysisError: string | null;
  /** Index into analysis.timeline. */
  selectedIndex: number | null;
  activeTab: CenterTab;
  options: UserOptions;
  request: RequestState;
  compaction: CompactionState;
  headerError: string | null;
  samples: SampleInfo[];
  samplesError: string | null;
  warningsOpen: boolean;
  pasteOpen: boolean;
}

export const initialRequest: RequestState = { status: "idle", turn: null, result: null, error: null };
export const initialCompaction: CompactionState = { status: "idle", entryId: null, result: null, error: null };

export const useAppStore = create<AppState>()(() => ({
  loadStatus: "idle",
  loadingName: null,
  progress: null,
  error: null,
  session: null,
  analysis: null,
  analysisError: null,
  selectedIndex: null,
  activeTab: "request",
  options: { profile: "pi", api: null, header: null, leafId: null },
  request: initialRequest,
  compaction: initialCompaction,
  headerError: null,
  samples: [],
  samplesError: null,
  warningsOpen: false,
  pasteOpen: false,
}));

/** Shorthand for partial updates from actions and components. */
export const setAppState = useAppStore.setState;
export const getAppState = useAppStore.getState;
