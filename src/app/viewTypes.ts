// The display-ready results the app's view-models return (src/app) and the worker hands the UI:
// request views with their highlights, message rows, compaction and auxiliary request views,
// prefix reports, and where the bytes of a session come from. Plain, structured-cloneable data.
import type { CapturedCompactionRequest, CompactionInstructions, StorageSessionListing } from "../core/session/index";
import type { ApiId, CompanionNote, ModelInfo, PipelineOptions, ProfileId, ReaderWarning, ReplyLanguageNoteInfo, RequestHeader, SessionThread, ThreadSpawn } from "../core/model";
import type { SessionAnalysis } from "../core/session/pipeline";
import type { CostTotal } from "../core/pricing/index";
import type { ShareViewV1 } from "../core/share/payload-v1";
import type { AnalysisDelta } from "./analysisDelta";

/** Where the bytes of a session come from. A `File` is cloned by reference (no copy). */
export type OpenSource =
  /** `handle`: the file is followed as it grows (File System Access API; the worker keeps its reader). */
  | { kind: "file"; file: File; handle?: FileSystemFileHandle }
  /**
   * Several files dropped or picked together: an opencode database with its `-wal` (and `-shm`,
   * ignored), FM-OC-1, read as one session (`sessionId`, default the most recent); without a
   * database among them, the first file is read as a text session.
   */
  | {
      kind: "files";
      files: File[];
      sessionId?: string | null;
      /** The files' handles, in the same order: the set is followed as it changes (a database with its -wal, a session with its sub-agent files). */
      handles?: FileSystemFileHandle[];
    }
  | { kind: "bytes"; name: string; bytes: ArrayBuffer }
  | { kind: "text"; name: string; text: string }
  /** Same-origin URL (built-in samples), resolved by the UI against the page's base URL. */
  | { kind: "url"; name: string; url: string }
  /** A share link (`#v2=…` fragment or whole URL): decoded and validated in the worker. */
  | { kind: "share-link"; link: string }
  /** A reproduction bundle file (`{"contextscope":"bundle",…}`), e.g. dropped on the page. */
  | { kind: "share-bundle"; name: string; data: Blob | string };

export interface LoadProgress {
  bytesRead: number;
  /** Null when the size is unknown (a response without Content-Length). */
  totalBytes: number | null;
  lines: number;
}

/** What the UI learns about an opened session. */
/** The agent that wrote a session, for the UI (src/features/open/agentInfo.ts). */
export interface AgentInfo {
  id: string;
  label: string;
  /** Profiles the user can choose between (pi: pi and senpi); empty when the agent has only its own. */
  profiles: { id: ProfileId; label: string; replyLanguageNotes: boolean }[];
  /** Recorded compactions are rebuilt in the agent's own summariser form (pi, PI-R12). */
  rebuildsRecordedCompactions: boolean;
  /** What to drop to see sub-agents whose files were not opened with the session (descriptor's `missingThreadFiles`). */
  missingThreadFiles?: string;
  /** The session file itself records the system prompt and tool definitions (deepseek-harness). */
  recordsSystemAndTools: boolean;
}

/** A new turn of a followed file that the user is told about: a cache break, or a compaction before it. */
export interface LiveNotice {
  turn: number;
  kind: "break" | "compaction";
  /** The break's cause in words; null for a compaction whose turn still extends the prefix. */
  cause: string | null;
  /** Tokens the previous request had cached that this one sends again, and their price (null: not priced). */
  rebilledTokens: number;
  rebilledDollars: number | null;
  /** The turn's request tokens (estimate). */
  tokens: number;
}

/** What a poll of the followed file found. */
export type LivePollResult =
  | { status: "unchanged" | "not-followed" }
  | {
      /** "appended": only the bytes past the last read were read; "rewritten": the file was read again whole. */
      status: "appended" | "rewritten";
      summary: SessionSummary;
      notices: LiveNotice[];
      /** Bytes read by this poll. */
      readBytes: number;
      /**
       * Appended, main thread: what changed in the analysis the page was last sent for the poll's
       * options (the page appends it to the one it holds); absent when the page must ask for the
       * whole analysis (a rewrite, a thread shown, other options).
       */
      delta?: AnalysisDelta;
    };

export interface SessionSummary {
  fileName: string;
  formatId: string;
  /** The agent that wrote the file; null for an empty input. */
  agent: AgentInfo | null;
  formatLabel: string;
  formatVersion: number | null;
  entryCount: number;
  lineCount: number;
  byteLength: number;
  warnings: ReaderWarning[];
  /** Set when the input was an opencode SQLite database (session picker, WAL banner). */
  database?: DatabaseSummary;
  /** Set when the session came from a share link or bundle: the view to restore. */
  shared?: SharedOpenInfo;
  /** Sub-agent threads of the session (Session.threads), for the thread list. */
  threads?: ThreadInfo[];
  /** Names of the files read into this session, when several were opened together. */
  fileNames?: string[];
  /** What files opened with it that are not sessions said (Gemini CLI's projects.json, logs.json). */
  companionNotes?: CompanionNote[];
  /**
   * Set while the file is still being read: the session holds the entries read so far (a
   * provisional view; the final one replaces it). Branches end at the last entry read so far.
   */
  provisional?: { bytesRead: number; totalBytes: number | null };
}

/** One sub-agent thread in the thread list (src/app/threads.ts). */
export interface ThreadInfo {
  id: string;
  label: string;
  origin: SessionThread["origin"];
  parentThreadId: string | null;
  spawnedBy: ThreadSpawn | null;
  /** Turns of the thread's own session (its default branch). */
  turns: number;
  entryCount: number;
  /** The file its entries came from (`<main file>#<id>` for entries inside the main file). */
  fileName: string;
  /** Depth in the thread tree: 1 for the main thread's children, 2 for theirs, … */
  depth: number;
  /** Requests the thread sent: its main requests, one per turn, plus its auxiliary requests. */
  requests: number;
  /** Prefix breaks of its requests (chars/4 pass); null when its requests could not be analysed. */
  breaks: number | null;
  /** Dollars of its recorded usage (built-in price table) with their status; null when its requests could not be analysed. */
  cost: CostTotal | null;
}

/** A tool call of the message shown that started a sub-agent thread (Messages tab link). */
export interface ThreadCallLink {
  threadId: string;
  label: string;
  toolCallId: string;
}

/** Where a thread's spawning tool call is first sent in its parent thread. */
export interface SpawnCallLocation {
  /** The parent thread (null: the main thread). */
  threadId: string | null;
  turn: number;
  /** Index of the message holding the call in that turn's request; null when no request holds it. */
  messageIndex: number | null;
  toolCallId: string;
}

/** The view a share link or bundle restores (docs/share-format.md). */
export interface SharedOpenInfo {
  from: "link" | "bundle";
  version: number;
  scope: "full" | "branch";
  view: ShareViewV1;
}

/**
 * One session of a database's picker: opencode's listing, with hermes-agent's own facts when the
 * storage is hermes' (platform source, model, how it is linked to its parent, end reason).
 */
export type DatabaseSessionListing = StorageSessionListing;

/** What the UI needs to pick another session of a database and to warn about a missing WAL. */
export interface DatabaseSummary {
  /** The session shown. */
  sessionId: string;
  /** Every session of the database, newest first (sub-agent sessions name their parent). */
  sessions: DatabaseSessionListing[];
  /** The agent whose storage it is ("opencode", "hermes-agent"), for the picker's and banner's texts. */
  agentLabel: string;
  /** What was opened: "opencode.db", "state.db" or "hermes files" (snapshots, transcripts, dumps). */
  storage: string;
  /** False when the database was opened without its `-wal` file: recent rows may be missing. */
  walApplied: boolean;
  /** Names of the files the database was read from. */
  fileNames: string[];
}

/** An auxiliary request of the session (opencode title or summariser request), for the UI. */
export interface AuxiliaryRequestResult {
  index: number;
  purpose: "title" | "summary";
  /** "title request" / "summariser request". */
  label: string;
  rule: string;
  ruleId: string;
  jsonText: string;
  highlights: TextHighlight[];
  notRecorded: string[];
  /** Summariser requests: the rebuilt `<conversation>` text and the prior summary (CP-OC-16, CP-OC-20). */
  summariser?: { conversation: string; priorSummary: string | null };
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

/** One reconstructed auxiliary (summariser) request of a recorded compaction. */
interface AuxiliaryRequestView {
  label: string;
  jsonText: string;
  highlights: TextHighlight[];
}

/** One instruction slot of pi's summariser (PI-K20 … PI-K22, PI-K27) and whether it is filled. */
export interface InstructionSlotView {
  slot: string;
  label: string;
  /** Used by one of this compaction's requests. */
  used: boolean;
  /** Filled from an attached capture (else the request shows a not-recorded marker). */
  filled: boolean;
}

/** A context message in a compaction's outcome (estimated tokens, chars/4 of the agent's estimate). */
export interface OutcomeMessage {
  index: number;
  role: string;
  entryId: string | null;
  tokens: number;
  preview: string;
}

/** What a recorded compaction did: the request before it against the next one (src/features/compaction/compactionOutcomeModel.ts). */
export interface CompactionOutcomeView {
  /** The last turn answered before the compaction, and the first after it (null: none in the file). */
  beforeTurn: number | null;
  afterTurn: number | null;
  /** Messages of the request before that the request after still sends. */
  kept: OutcomeMessage[];
  /** Messages of the request before that the request after no longer sends (summarised or dropped). */
  summarised: OutcomeMessage[];
  /** Messages the request after sends that the one before did not: the summary, the next prompt. */
  added: OutcomeMessage[];
  /** Estimated tokens of the request's messages before, and of the next request's. */
  tokensBefore: number | null;
  tokensAfter: number | null;
  /** The trigger in words (manual, or the usage against the threshold of the agent's policy). */
  trigger: string | null;
  /** The same in a few words (Details). */
  triggerShort: string | null;
  /** Whether it was manual: true/false as the file says, null where the file does not say. */
  manual: boolean | null;
  /** Why a part is missing (no turn before or after it in the file). */
  note: string | null;
}

export interface CompactionRequestsResult {
  /** What the compaction kept and summarised (every agent). */
  outcome?: CompactionOutcomeView | null;
  /** When unavailable: why no summariser request is shown here, or where it is shown instead, in words. */
  reason?: string;
  /** False when no summariser reconstruction exists for this session's format. */
  available: boolean;
  entryId: string;
  requests: AuxiliaryRequestView[];
  /** pi's serializeConversation transcript of the summarised messages (PI-K23). */
  serializedConversation?: string;
  /** The split turn's prefix transcript, when the cut split a turn (PI-K27). */
  turnPrefixConversation?: string;
  /** The previous compaction's summary carried into the update prompt, or null. */
  previousSummary?: string | null;
  slots?: InstructionSlotView[];
  /** Names of the captures the slots were filled from. */
  instructionSources?: string[];
  /** Labelled facts of the reconstruction (cut point, split turn, tokens before, …). */
  facts: { label: string; value: string }[];
  /** Differences between the recorded entry and pi's rules, and unrecorded parts. */
  lints: string[];
}

export type ParsedCapture =
  | { kind: "header"; header: RequestHeader }
  | {
      kind: "compaction";
      captured: CapturedCompactionRequest;
      source: string;
      /** The slots filled before (given with the call), with this capture's filling the empty ones (the first value of a slot wins). */
      merged: CompactionInstructions;
    };


// ---------------------------------------------------------------------------------------------
// Prefix stability: per-turn reports for the timeline and chart, the Diff tab, and the
// Tokens tab. "estimate" counts chars/4 (fast, shown first); "exact" counts o200k (exact for
// OpenAI shapes, labelled estimates for Anthropic and Google) and replaces it when it finishes.

export type TokenPass = "estimate" | "exact";

/** The part of a PrefixTurnReport the UI shows for every turn. */
export interface PrefixRow {
  turn: number;
  bytes: number;
  sharedBytes: number;
  tokens: number;
  sharedTokens: number;
  tokensExact: boolean;
  /** How `tokens` were counted, in words ("exact (o200k)", "estimate (chars/4)"). */
  counterLabel: string;
  breakPath: string | null;
  cause: string | null;
  causeDetail: string | null;
  contributing: string[];
  /** Cached tokens the cache simulation predicts (Gemini: possible hits). */
  predictedCachedTokens: number | null;
  /** Recorded usage, normalised (CA-21): cache reads and all input tokens; null when not recorded. */
  recordedCacheRead: number | null;
  recordedInput: number | null;
  /** Cache expiry from the gap to the previous request ("live", "expired", …), null for turn 1. */
  expiry: string | null;
  /** The cache simulation's input prediction (reads, writes by TTL, uncached), for the predicted cost. */
  predictedInput?: { uncachedInput: number; cacheRead: number; cacheWrite: number; cacheWrite5m?: number; cacheWrite1h?: number } | null;
  /** Tokens of the previous request this one sends again after a prefix break (0 without a break). */
  rebilledTokens?: number;
  /**
   * What the file does not hold (system prompt, tools), in tokens, inferred from the recorded
   * usage of turn `unrecordedFromTurn`; null when nothing is missing or nothing allowed it.
   */
  unrecordedTokens: number | null;
  unrecordedFromTurn: number | null;
}

export interface PrefixReportsResult {
  pass: TokenPass;
  rows: PrefixRow[];
}

export interface TurnDiffResult {
  turn: number;
  /** Null on the first turn (nothing to compare with). */
  previousTurn: number | null;
  previousJson: string;
  currentJson: string;
  /** UTF-16 offset in `currentJson` where the shared prefix ends (the first differing position). */
  boundaryOffset: number | null;
  row: PrefixRow;
  /** "extends the previous request", or the cause in words ("history rewritten (compaction)"). */
  causeText: string;
  /** Contributing causes in words. */
  contributingText: string[];
  /** Tokens of the previous request paid again (its tokens after the shared prefix). */
  repaidTokens: number;
  /** Token counter label ("exact (o200k)", "estimate (o200k × 1)"). */
  counterLabel: string;
}

export interface TokenCompositionResult {
  turn: number;
  pass: TokenPass;
  exact: boolean;
  counterLabel: string;
  total: number;
  rows: { kind: string; label: string; count: number; tokens: number }[];
  messages: { index: number; kind: string; role: string; tokens: number; preview: string }[];
  notRecorded: string[];
}

export interface TokenViewResult {
  turn: number;
  index: number;
  /** o200k pieces; exact only for OpenAI shapes. */
  exact: boolean;
  label: string;
  pieces: string[];
  tokenCount: number;
  truncated: boolean;
}

