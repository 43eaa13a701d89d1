// The Request view of a turn as the worker hands it to the page: the JSON text, the Messages tab's
// rows, the highlights of synthesised and unrecorded text, and the facts of the request. Types only.
import type { ApiId, ModelInfo, PipelineOptions, ReplyLanguageNoteInfo } from "../../core/model";
import type { ThreadCallLink } from "../threads/protocol";

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
  /** Reply-language note facts (a note, or a compaction summary that carries one). */
  note?: ReplyLanguageNoteInfo;
  /** Plain-text explanation of the note (language, source, characters built up, inferred rules). */
  noteExplanation?: string;
  /** The [INF] rules that shaped the note, for its "inferred" badges. */
  noteRules?: { ruleId: string; what: string; alternative: string }[];
  /** The [INF] rule that produced the message: id, what we chose, the alternative. */
  inferredRule?: { ruleId: string; what: string; alternative: string };
  /** Sub-agent threads started by the tool calls of this message. */
  threads?: ThreadCallLink[];
}

/** A character range of a request's JSON text to decorate in the editor. */
export interface TextHighlight {
  kind: "not-recorded" | "synthesized" | "inferred" | "note";
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
  /** [INF] serializer behaviours that apply to this request's wire shape (SERIALIZER_INFERENCES). */
  inferences: { ruleId: string; what: string; alternative: string }[];
  /**
   * For a model our list does not know, the largest context the session reached when it is above
   * the default window (the simulator uses the same window); null otherwise.
   */
  windowFromSession?: number | null;
}

export interface TurnRequestResult {
  turn: number;
  built: RequestFacts;
  /**
   * Captured ground truth of this turn (hermes-agent request dumps, HS-32): one line per dump,
   * "equal" or the first differing path.
   */
  groundTruth?: { line: string; equal: boolean }[];
  /** The body as JSON, pretty-printed with 2 spaces, for the editor. */
  jsonText: string;
  rows: MessageRow[];
  highlights: TextHighlight[];
}

export interface RequestMethods {
  buildRequest: { params: { options: PipelineOptions; turn: number }; result: TurnRequestResult };
  /** The request body of a turn as sent: compact JSON (`JSON.stringify`), for copy/export. */
  requestBody: { params: { options: PipelineOptions; turn: number }; result: string };
}
