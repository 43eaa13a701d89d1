// Typed messages between the UI thread and the pipeline worker. The worker owns the parsed
// Session; the UI only ever receives plain, structured-cloneable results (summaries, analyses,
// one materialised request at a time), never the session itself. Types only: the results are
// declared with the view-models that make them (src/app).
import type { CaptureDiffResult } from "../app/captureCheck";
import type { SniffedKind } from "../features/open/sniffSessions";
import type { CompactionInstructions } from "../core/session/index";
import type { PipelineOptions, RequestHeader } from "../core/model";
import type { SessionAnalysis } from "../core/session/pipeline";
import type { ExportParams, ExportResult, ShareParams, ShareResult } from "../app/shareExport";
import type { SimulatorMethods } from "../features/simulator/protocol";
import type { CompareAgainst, CompareOpened, ComparePairResult, CompareViewResult } from "../features/compare/compareModel";
import type { SearchPrepareParams, SearchPrepareResult, SearchStepParams, SearchStepResult } from "../features/search/searchService";
import type { TurnComposition } from "../core/session/sessionComposition";
import type { ConversationResult } from "../features/conversation/conversationModel";
import type { PriceDatasetInfo, PriceOverrides, PriceRow } from "../core/pricing/index";
import type { SessionPricesResult } from "../app/sessionPrices";
import type {
  AuxiliaryRequestResult,
  CompactionRequestsResult,
  LivePollResult,
  LoadProgress,
  OpenSource,
  ParsedCapture,
  PrefixReportsResult,
  SessionSummary,
  SpawnCallLocation,
  TokenCompositionResult,
  TokenPass,
  TokenViewResult,
  TurnDiffResult,
  TurnRequestResult,
} from "../app/viewTypes";

export type * from "../app/viewTypes";
export type { ConversationBlock, ConversationMessage, ConversationResult } from "../features/conversation/conversationModel";

/** Request/response calls the worker answers, by method name. */
export interface WorkerMethods {
  analyze: { params: { options: PipelineOptions }; result: SessionAnalysis };
  buildRequest: { params: { options: PipelineOptions; turn: number }; result: TurnRequestResult };
  /** The request body of a turn as sent: compact JSON (`JSON.stringify`, PI-R13), for copy/export. */
  requestBody: { params: { options: PipelineOptions; turn: number }; result: string };
  /** The messages of a turn's request as readable text, for the Conversation tab. */
  turnConversation: { params: { options: PipelineOptions; turn: number }; result: ConversationResult };
  /** Parses a captured provider request (a dropped .json file, or its text) into a request header. */
  parseHeader: { params: { data: Blob | string; source: string }; result: RequestHeader };
  compactionRequests: {
    params: { options: PipelineOptions; entryId: string; instructions?: CompactionInstructions | null };
    result: CompactionRequestsResult;
  };
  /**
   * Parses a dropped or attached captured request: a pi summariser request (accepted by
   * extractCompactionInstructions and without tools) fills compaction instruction slots, merged
   * into `instructions` (the slots filled so far); anything else is read as a main-request header.
   */
  parseCapture: { params: { data: Blob | string; source: string; instructions?: CompactionInstructions | null }; result: ParsedCapture };
  /** For each file (a dropped `.json` file), in order, whether it starts like a session a reader recognises. */
  sniffSessions: { params: { files: File[] }; result: SniffedKind[] };
  /** Every agent and file kind the readers know, for the page shown before a session is open. */
  readableFiles: { params: Record<string, never>; result: { agent: string; files: string }[] };
  /** Where the tool call that started sub-agent thread `threadId` is first sent in its parent thread. */
  spawnCall: { params: { options: PipelineOptions; threadId: string }; result: SpawnCallLocation | null };
  /** The selected turn against the attached capture matched to it (null: none matches that turn). */
  captureDiff: { params: { options: PipelineOptions; turn: number }; result: CaptureDiffResult | null };
  /** Auxiliary request `index` of `SessionAnalysis.auxiliary` (opencode title / summariser). */
  auxiliaryRequest: { params: { options: PipelineOptions; index: number }; result: AuxiliaryRequestResult };
  /** The selected turn's (or a compaction's summariser) request as JSON or curl, redacted by default. */
  exportRequest: { params: { options: PipelineOptions; params: ExportParams }; result: ExportResult };
  /** The `#v2=` fragment of the current view, its size level and the redaction review list. */
  buildShare: { params: { options: PipelineOptions; params: ShareParams }; result: ShareResult };
  /** The reproduction bundle file of the current view. */
  shareBundle: { params: { options: PipelineOptions; params: ShareParams }; result: { text: string; fileName: string } };
  prefixReports: PrefixMethods["prefixReports"];
  turnDiff: PrefixMethods["turnDiff"];
  tokenComposition: PrefixMethods["tokenComposition"];
  tokenView: PrefixMethods["tokenView"];
  /** Every turn's context tokens by kind (chars/4 estimates), for the stacked context chart. */
  sessionComposition: { params: { options: PipelineOptions }; result: { rows: TurnComposition[] } };
  /** One slice of a session search (src/features/search/searchService.ts): the hits found meanwhile. */
  searchStep: { params: SearchStepParams; result: SearchStepResult };
  /** One slice of building the search index in the background (src/features/search/searchService.ts). */
  searchPrepare: { params: SearchPrepareParams; result: SearchPrepareResult };
  // Compaction simulator (src/features/simulator/protocol.ts).
  simulatorPolicies: SimulatorMethods["simulatorPolicies"];
  simulate: SimulatorMethods["simulate"];
  spiralRun: SimulatorMethods["spiralRun"];
  replaySession: SimulatorMethods["replaySession"];
  comparePolicies: SimulatorMethods["comparePolicies"];
  // Compare view (src/features/compare/compareModel.ts): a second session, or another branch of this one.
  openCompare: { params: { source: OpenSource }; result: CompareOpened };
  /** `priceOverrides`: the user's price edits, so the totals' cost matches the main view's. */
  compareSessions: { params: { options: PipelineOptions; against: CompareAgainst; priceOverrides?: PriceOverrides }; result: CompareViewResult };
  comparePair: { params: { options: PipelineOptions; against: CompareAgainst; index: number }; result: ComparePairResult };
  inferSettings: SimulatorMethods["inferSettings"];
  /** Every thread's calls (model, time, usage) and the price dataset's rows for their models (src/app/sessionPrices.ts). */
  sessionPrices: { params: { options: PipelineOptions }; result: SessionPricesResult };
  /** The price dataset's rows of the providers agents usually call, for the price panel. */
  listedPrices: { params: Record<string, never>; result: { dataset: PriceDatasetInfo; rows: PriceRow[] } };
  /** The followed file (opened with a handle) as it is now: its appended turns, or the file read again. */
  livePoll: { params: { options: PipelineOptions }; result: LivePollResult };
}
export type WorkerMethod = keyof WorkerMethods;

/** UI → worker. */
export type ToWorker =
  | { type: "open"; runId: number; source: OpenSource }
  | { type: "cancel"; runId: number }
  | {
      type: "call";
      callId: number;
      /** The open run whose session the call is about; the worker refuses calls for older runs. */
      sessionRunId: number;
      method: WorkerMethod;
      params: WorkerMethods[WorkerMethod]["params"];
    };

/**
 * How often the worker says it is alive. It can only post when its event loop turns, so the
 * client's watchdog tells a worker stuck in one computation (silent) from a long pass that
 * yields as it goes (the exact token pass of a 1 GB session takes minutes).
 */
export const ALIVE_EVERY_MS = 5_000;

/** Worker → UI. */
export type FromWorker =
  /** The worker's code is loaded and it takes messages (posted once, at start). */
  | { type: "started" }
  /** Posted every ALIVE_EVERY_MS while the worker's event loop turns. */
  | { type: "alive" }
  | { type: "progress"; runId: number; progress: LoadProgress }
  /** The entries read so far, while the open goes on (SessionSummary.provisional is set). */
  | { type: "provisional"; runId: number; summary: SessionSummary }
  | { type: "opened"; runId: number; summary: SessionSummary }
  | { type: "open-failed"; runId: number; message: string; cancelled: boolean }
  | { type: "reply"; callId: number; ok: true; value: unknown }
  | { type: "reply"; callId: number; ok: false; error: string; stale: boolean };

interface PrefixMethods {
  prefixReports: { params: { options: PipelineOptions; pass: TokenPass }; result: PrefixReportsResult };
  turnDiff: { params: { options: PipelineOptions; turn: number }; result: TurnDiffResult };
  tokenComposition: { params: { options: PipelineOptions; turn: number; pass: TokenPass }; result: TokenCompositionResult };
  tokenView: { params: { options: PipelineOptions; turn: number; index: number }; result: TokenViewResult };
}
