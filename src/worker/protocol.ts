// Typed messages between the UI thread and the pipeline worker. The worker owns the parsed
// Session; the UI only ever receives plain, structured-cloneable results (summaries, analyses,
// one materialised request at a time), never the session itself.
import type { ApiId, ModelInfo, PipelineOptions, ReaderWarning, RequestHeader } from "../core/model";
import type { SessionAnalysis } from "../core/pipeline";

/** Where the bytes of a session come from. A `File` is cloned by reference (no copy). */
export type OpenSource =
  | { kind: "file"; file: File }
  | { kind: "bytes"; name: string; bytes: ArrayBuffer }
  | { kind: "text"; name: string; text: string }
  /** Same-origin URL (built-in samples), resolved by the UI against the page's base URL. */
  | { kind: "url"; name: string; url: string };

export interface LoadProgress {
  bytesRead: number;
  /** Null when the size is unknown (a response without Content-Length). */
  totalBytes: number | null;
  lines: number;
}

/** What the UI learns about an opened session. */
export interface SessionSummary {
  fileName: string;
  formatId: string;
  formatLabel: string;
  formatVersion: number | null;
  entryCount: number;
  lineCount: number;
  byteLength: number;
  warnings: ReaderWarning[];
}

/** One row of the Messages tab, computed in the worker so the UI does no per-message work. */
export interface MessageRow {
  index: number;
  role: string;
  /** Provenance rule: `entry`, `wrap:compaction-summary`, `render:bash`, `note:reply-language`, … */
  rule: string;
  entryId: string | null;
  chars: number;
  /** ceil(chars / 4), the same estimate pi uses (PI-K2). */
  tokens: number;
  /** Start of the message text, at most PREVIEW_CHARS characters, single line. */
  preview: string;
  ruleId?: string;
  inferred?: string;
  explanation?: string;
}

/** A character range of a request's JSON text to decorate in the editor. */
export interface TextHighlight {
  kind: "not-recorded" | "synthesized" | "inferred";
  /** UTF-16 offsets into `jsonText`, end exclusive. */
  start: number;
  end: number;
  /** Hover text: what the range is and why it is highlighted. */
  label: string;
}

/** A message the pipeline removed, without its content (the UI lists only why and where). */
export interface DroppedInfo {
  role: string;
  entryId: string | null;
  reason: string;
  ruleId?: string;
}

/**
 * What the UI needs of a BuiltRequest. The body and the context messages stay in the worker:
 * the JSON text, the rows and the highlights already describe them, and cloning a large body
 * to the UI thread would double the cost of showing a turn (design §3).
 */
export interface RequestFacts {
  api: ApiId;
  model: ModelInfo;
  notRecorded: string[];
  dropped: DroppedInfo[];
}

export interface TurnRequestResult {
  turn: number;
  built: RequestFacts;
  /** The body as JSON, pretty-printed with 2 spaces, for the editor. */
  jsonText: string;
  rows: MessageRow[];
  highlights: TextHighlight[];
}

/** One reconstructed auxiliary (summariser) request of a recorded compaction. */
export interface AuxiliaryRequestView {
  label: string;
  jsonText: string;
  highlights: TextHighlight[];
}

export interface CompactionRequestsResult {
  /** False when no summariser reconstruction exists for this session's format. */
  available: boolean;
  entryId: string;
  requests: AuxiliaryRequestView[];
  /** Labelled facts of the reconstruction (cut point, split turn, tokens before, …). */
  facts: { label: string; value: string }[];
  /** Differences between the recorded entry and pi's rules, and unrecorded parts. */
  lints: string[];
}

/** Request/response calls the worker answers, by method name. */
export interface WorkerMethods {
  analyze: { params: { options: PipelineOptions }; result: SessionAnalysis };
  buildRequest: { params: { options: PipelineOptions; turn: number }; result: TurnRequestResult };
  /** The request body of a turn as sent: compact JSON (`JSON.stringify`, PI-R13), for copy/export. */
  requestBody: { params: { options: PipelineOptions; turn: number }; result: string };
  /** Parses a captured provider request (a dropped .json file, or its text) into a request header. */
  parseHeader: { params: { data: Blob | string; source: string }; result: RequestHeader };
  compactionRequests: {
    params: { options: PipelineOptions; entryId: string };
    result: CompactionRequestsResult;
  };
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

/** Worker → UI. */
export type FromWorker =
  | { type: "progress"; runId: number; progress: LoadProgress }
  | { type: "opened"; runId: number; summary: SessionSummary }
  | { type: "open-failed"; runId: number; message: string; cancelled: boolean }
  | { type: "reply"; callId: number; ok: true; value: unknown }
  | { type: "reply"; callId: number; ok: false; error: string; stale: boolean };

export const PREVIEW_CHARS = 160;
