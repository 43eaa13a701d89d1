// Core data model shared by every stage of the pipeline: sessions as read from a file, the
// messages an agent's context is built from, turns, and the provider requests rebuilt for them.
// Everything here is plain, structured-cloneable data so it can cross the worker boundary.
import type { ReplyLanguageOptions } from "./notes/options";
import type { TextStore } from "./text/storedText";
import type { Text } from "./text/text";

/** A problem found while reading input. `line` is 1-based; 0 means "the file as a whole". */
export interface ReaderWarning {
  line: number;
  reason: string;
  /**
   * Not a problem with the file: a choice the reader made for the user (which session of a
   * database is shown). The app says it where the choice can be changed (the session picker)
   * and does not count it as a warning; the CLI prints it like one.
   */
  notice?: true;
}

/**
 * One entry of a session as the reader found it. `raw` is the parsed line, kept whole so that
 * format-specific stages can read every field; `id`/`parentId` are normalised (formats without ids
 * get synthetic, stable ones).
 */
export interface SessionEntry {
  id: string;
  parentId: string | null;
  type: string;
  /** ISO timestamp of the entry, when the format has one. */
  timestamp: string | null;
  /** 1-based line number in the file (0 for entries that do not come from a line). */
  line: number;
  raw: Record<string, unknown>;
}

export interface Session {
  /** The id of the agent whose reader made this session (its descriptor's `id`); "none" for an input without a line to read. */
  formatId: string;
  formatLabel: string;
  fileName: string;
  /** Format version as written in the file (pi: header.version, 1 when absent). */
  formatVersion: number | null;
  header: Record<string, unknown> | null;
  /**
   * False when the reader made `header` from the entries (Claude Code's facts repeated on every
   * line, Codex's session_meta line, itself an entry) rather than reading it as a line of its own:
   * a session written back as lines (a share link) then leaves it out. Absent: a header line.
   */
  headerIsLine?: false;
  entries: SessionEntry[];
  warnings: ReaderWarning[];
  /** Number of lines the reader looked at (including blank and bad ones). */
  lineCount: number;
  /**
   * Sub-agent threads found in the file or in files dropped with it (Claude Code sidechains and
   * `subagents/agent-<id>.jsonl`, Codex child rollouts). The main thread is this session itself.
   */
  threads?: SessionThread[];
  /**
   * What files read with the session that are not sessions themselves said (Gemini CLI's
   * projects.json and logs.json): one note per file, in words. Never a problem (those are warnings).
   */
  companionNotes?: CompanionNote[];
  /**
   * Lines the reader skipped on purpose without making entries of them, by what they are (Claude
   * Code's re-written copies of earlier lines): counted in the report of what the file holds, never warnings.
   */
  skippedLines?: { what: string; count: number; why: string }[];
  /**
   * The bytes of the session's stored texts (src/core/text/storedText.ts), when its reader kept
   * large texts as bytes: registered in the realm that reads the session; adopted after the
   * session crossed to another worker, released when it is closed.
   */
  textStore?: TextStore;
}

/** One file read with a session that is not a session itself, and what it said about the session. */
export interface CompanionNote {
  fileName: string;
  note: string;
}

/** One session of a storage that holds many (a database's session picker). */
export interface SessionListing {
  id: string;
  title: string;
  /** Sub-agent sessions and continuations name their parent session. */
  parentId: string | null;
  directory: string | null;
  /** Epoch ms. */
  timeCreated: number | null;
  timeUpdated: number | null;
  messageCount: number;
}

/** The tool call in a parent thread that started a sub-agent thread. */
export interface ThreadSpawn {
  /** Entry of the parent thread holding the tool call. */
  entryId: string;
  toolCallId: string;
  toolName: string;
}

/** One sub-agent thread of a session: its own entries, read as a session of the same format. */
export interface SessionThread {
  /** Stable within the session: the sub-agent's id, or the child thread's id. */
  id: string;
  label: string;
  /** The thread that started it: `null` for the main thread's children, else another thread's id. */
  parentThreadId: string | null;
  /** The tool call that started it, when a line of the parent names it. */
  spawnedBy: ThreadSpawn | null;
  /**
   * Where its entries were read from: lines of the main file, progress lines, or its own file;
   * `elsewhere` when the main file records the sub-agent's start but its entries are in a file
   * that was not opened with it (the thread's session then has no entries).
   */
  origin: "sidechain" | "progress" | "file" | "elsewhere";
  /** The thread's entries as a session of the main session's format (own turns and requests). */
  session: Session;
}

// ---------------------------------------------------------------------------------------------
// Agent messages (pi-ai shapes): what projection produces and conversion consumes.

export interface TextBlock {
  type: "text";
  /** A large text may be kept as bytes in the session's text store (`Text`). */
  text: Text;
  textSignature?: string;
}
export interface ImageBlock {
  type: "image";
  data: Text;
  mimeType: string;
}
export interface ThinkingBlock {
  type: "thinking";
  thinking: Text;
  thinkingSignature?: string;
  redacted?: boolean;
}
export interface ToolCallBlock {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  thoughtSignature?: string;
}

/** A response's token usage as every agent's turn summaries record it (pi's usage shape, which the other readers normalise to). */
export interface RecordedUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /**
   * The cache writes split by TTL when the session records it (Claude Code's
   * `cache_creation.ephemeral_5m_input_tokens` / `ephemeral_1h_input_tokens`); pi itself does not.
   */
  cacheWrite5m?: number;
  cacheWrite1h?: number;
  totalTokens: number;
  cost?: Record<string, number>;
}

export interface UserMessage {
  role: "user";
  content: Text | (TextBlock | ImageBlock)[];
  timestamp?: number;
}
export interface AssistantMessage {
  role: "assistant";
  content: (TextBlock | ThinkingBlock | ToolCallBlock)[];
  api?: string;
  provider?: string;
  model?: string;
  usage?: RecordedUsage;
  stopReason?: string;
  errorMessage?: string;
  responseId?: string;
  timestamp?: number;
}
export interface ToolResultMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextBlock | ImageBlock)[];
  isError: boolean;
  details?: unknown;
  timestamp?: number;
}

export interface BashExecutionMessage {
  role: "bashExecution";
  command: string;
  output: Text;
  exitCode?: number | null;
  cancelled?: boolean;
  truncated?: boolean;
  fullOutputPath?: string;
  excludeFromContext?: boolean;
  timestamp?: number;
}
interface CustomMessage {
  role: "custom";
  customType: string;
  content: Text | (TextBlock | ImageBlock)[];
  display?: boolean;
  details?: unknown;
  timestamp?: number;
}
interface BranchSummaryMessage {
  role: "branchSummary";
  summary: Text;
  fromId: string;
  timestamp?: number;
}
export interface CompactionSummaryMessage {
  role: "compactionSummary";
  summary: Text;
  tokensBefore: number;
  details?: unknown;
  timestamp?: number;
  /** senpi reply-language carrier (RL-21), set by the projection on the newest summary only. */
  userLanguage?: string;
  userLanguageRequested?: boolean;
}

/** A message of the agent's context before convertToLlm (pi's AgentMessage). */
export type AgentMessage =
  | UserMessage
  | AssistantMessage
  | ToolResultMessage
  | BashExecutionMessage
  | CustomMessage
  | BranchSummaryMessage
  | CompactionSummaryMessage;

/** A message in the form the provider serializers take (pi's `Message` after convertToLlm). */
export type LlmMessage = UserMessage | AssistantMessage | ToolResultMessage;

/**
 * Where a context message came from. `rule` names the step that produced it: `entry` for a
 * message taken unchanged from the session, otherwise the spec's step name
 * (`wrap:compaction-summary`, `wrap:branch-summary`, `render:bash`, `render:custom`,
 * `user-words`, `fold:environment`, `note:reply-language`, …).
 */
/**
 * Whether a context message's rule marks the summary of a compaction standing for the messages it
 * replaced: "summary:…" (the summary message as Claude Code, Codex, opencode, deepseek-harness and
 * hermes send it) or "wrap:compaction…" (pi's and Gemini CLI's, wrapped in their fixed text).
 */
export function isCompactionSummaryRule(rule: string): boolean {
  return rule.startsWith("summary:") || rule.startsWith("wrap:compaction");
}

export interface Provenance {
  rule: string;
  /** The session entry the message was built from, when there is one. */
  entryId: string | null;
  /** Spec rule id (e.g. "PI-C2") of the behaviour that produced it. */
  ruleId?: string;
  /** Set when the behaviour is an inference of ours ([INF] in the spec): the rule id. */
  inferred?: string;
  /** Free text shown in the UI to explain the message (why it was inserted, folded, …). */
  explanation?: string;
  /** pi/senpi: the `customType` of a custom message rendered as a user message (PI-C3, SP-C6). */
  customType?: string;
  /**
   * The message goes out as a system or developer instruction (the agent's system prompt sent as
   * the first messages: Codex's base and developer instructions, hermes' stored prompt). The
   * Tokens tab counts it as the system prompt, once.
   */
  sentAsSystem?: true;
  /** senpi: the `context_edit` entry that replaced this message's content (SP-P2). */
  editedBy?: string;
  /**
   * senpi reply-language notes (reply-language.md RL-15 … RL-23): set on an inserted note
   * (`rule: "note:reply-language"`) and on a compaction summary that carries the note.
   */
  note?: ReplyLanguageNoteInfo;
}

/** Structured facts behind a reply-language note, for the UI's explanation. */
export interface ReplyLanguageNoteInfo {
  /** Listed name the note carries (RL-9). */
  language: string;
  /** Read from what the user wrote, or from an explicit request (RL-10). */
  source: "written" | "explicit-request";
  /** The user message entry the language was read from; null when not in the context. */
  fromEntryId: string | null;
  /** Characters of tool output, notices, bash output, branch summaries built up (RL-16); 0 for a carrier. */
  builtUpChars: number;
  /** [INF] rule ids that shaped this note (the UI badges it "inferred" and names them). */
  inferredRules?: string[];
  /** When the language came from a compaction summary's carrier: that summary's entry id. */
  carriedByEntryId?: string | null;
}

export interface ContextMessage {
  message: LlmMessage;
  provenance: Provenance;
}

/** A message that a pipeline step removed, shown as a dropped span. */
export interface DroppedMessage {
  message: LlmMessage;
  entryId: string | null;
  reason: string;
  ruleId?: string;
}

// ---------------------------------------------------------------------------------------------
// Providers and models

/** Wire shapes, named as pi names its APIs. */
export type ApiId = "openai-completions" | "openai-responses" | "anthropic-messages" | "google-generative-ai";
export const API_IDS: readonly ApiId[] = [
  "openai-completions",
  "openai-responses",
  "anthropic-messages",
  "google-generative-ai",
];

export interface ModelRef {
  provider: string;
  modelId: string;
}

/** What we know about a model that the session file does not say. */
export interface ModelInfo {
  provider: string;
  id: string;
  api: ApiId;
  contextWindow: number;
  maxTokens: number;
  reasoning: boolean;
  /** Chat Completions: send the system prompt with role "developer". */
  supportsDeveloperRole: boolean;
  supportsReasoningEffort: boolean;
  /** Where these facts came from: "catalogue", "catalogue-default", "user", "header". */
  source: string;
  /** Accepts image input (pi `input` includes "image"). Undefined: false, as pi's models.json default. */
  supportsImages?: boolean;
  /** Chat Completions: sends `store: false`. Undefined: true (pi's default for standard endpoints). */
  supportsStore?: boolean;
  /** Chat Completions: name of the output-cap key. Undefined: "max_completion_tokens". */
  maxTokensField?: "max_completion_tokens" | "max_tokens";
}

/** Tool definition in provider-neutral form. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: unknown;
}

/**
 * The parts of a request a session file does not hold, taken from a captured request body
 * (any of the four shapes). Fields left undefined were not in the capture.
 */
export interface RequestHeader {
  /** Shape of the captured body it came from. */
  api: ApiId;
  /** System prompt text (joined when the capture had several blocks). */
  systemPrompt?: string;
  tools?: ToolDefinition[];
  /** The capture's output cap (max_tokens, max_completion_tokens, max_output_tokens, …). */
  maxTokens?: number;
  /** Top-level keys of the capture we do not derive ourselves, kept verbatim in capture order. */
  extraSettings: Record<string, unknown>;
  /** File name or label the header came from, for the UI. */
  source: string;
  /** The `model` the capture was sent to, when it names one. */
  model?: string;
  /**
   * Everything else the capture teaches (src/core/captures): session constants and model facts,
   * plain data, each with this capture as its source.
   */
  facts?: CaptureFact[];
}

/**
 * One fact learnt from a captured request body. A session constant fills every turn of the
 * session (device ids, base instructions, tool lists); a model fact fills the catalogue entry of
 * the model the capture was sent to, under whatever the user edited.
 */
export interface CaptureFact {
  /** Stable name, e.g. "claude.device_id", "model.reasoning". */
  key: string;
  kind: "session" | "model";
  /** What it is, for the UI. */
  label: string;
  /** Where it is in the capture, as a JSON path ("$.metadata.user_id"). */
  path: string;
  /** The value (JSON). */
  value: unknown;
  /** The capture's file name. */
  source: string;
}

/** Marker placed in a request body where the session does not record the content. */
export interface NotRecorded {
  $notRecorded: string;
}
export function notRecorded(what: string): NotRecorded {
  return { $notRecorded: what };
}
export function isNotRecorded(value: unknown): value is NotRecorded {
  return typeof value === "object" && value !== null && "$notRecorded" in value;
}

// ---------------------------------------------------------------------------------------------
// Turns, timeline and requests

/** An agent's pipeline profile id, as its descriptor lists it (`AgentDescriptor.profiles`). */
export type ProfileId = string;

export interface TurnSummary {
  /** 1-based turn number: the N-th main provider call on the selected branch. */
  turn: number;
  /** The assistant entry that answered this turn's request. */
  entryId: string;
  timestamp: string | null;
  model: ModelRef | null;
  api: ApiId | null;
  thinkingLevel: string;
  messageCount: number;
  /** pi's chars/4 estimate of the context (PI-K2), over the messages sent. */
  estimatedTokens: number;
  /** Total characters of the context messages' text. */
  chars: number;
  /** Usage recorded on the answering assistant message, when there is one. */
  usage: RecordedUsage | null;
  /**
   * The provider's own diagnosis of this call's prompt cache, when the file records one (Claude
   * Code 2.1.143 and later: `message.diagnostics`); absent or null when it records none.
   */
  serverVerdict?: ServerCacheVerdict | null;
  /**
   * The provider's own id of the call when the file records one (Claude Code: message id and
   * request id). Another thread's file may replay the call with the same id (a compaction
   * summariser's transcript repeats the conversation): the whole session counts it once.
   */
  callId?: string;
  stopReason: string | null;
  /** Badges for the timeline. */
  afterCompaction: boolean;
  modelSwitched: boolean;
  hasNote: boolean;
  hasDropped: boolean;
}

/**
 * What the provider's server said about a call's prompt cache, compared with the request before it
 * (Anthropic's cache diagnostics, `diagnostics.cache_miss_reason`; OpenAI's
 * `prompt_cache_diagnostics`), in the provider's own words.
 */
export interface ServerCacheVerdict {
  /**
   * The provider's word for what diverged first (`model_changed`, `system_changed`,
   * `tools_changed`, `messages_changed`, `input_changed`, …), or why it could not tell
   * (`previous_message_not_found`, `unavailable`, `pending`); `none` when it compared the two and
   * found nothing diverged.
   */
  type: string;
  /** Input tokens the provider says came after the divergence and missed the cache; null when it gives no figure. */
  missedTokens: number | null;
}

export interface CompactionEvent {
  kind: "compaction";
  entryId: string;
  /** Turn number of the next main request after this compaction (or null at the end). */
  beforeTurn: number | null;
  timestamp: string | null;
  tokensBefore: number | null;
  firstKeptEntryId: string | null;
  summaryChars: number;
  /** What the summariser call recorded (tokens) and the model it was sent to, when the file holds them (Codex). */
  usage?: RecordedUsage | null;
  model?: ModelRef | null;
  /**
   * Set for a compaction attempt that failed, with what the session records about why (a
   * deepseek-harness `compaction/end` with an error): shown as a failed compaction, never a turn.
   */
  failed?: string;
}

/**
 * A row of the timeline. Auxiliary requests (opencode's title and summariser requests) are only
 * in timelines merged by `timelineWithAuxiliary` (src/core/session/timeline.ts); the format pipelines'
 * own `SessionAnalysis.timeline` holds turns and compactions.
 */
export type TimelineItem = { kind: "turn"; turn: number } | CompactionEvent | AuxiliaryRequestEvent;

/**
 * A provider request the agent made besides the main requests, implied by the session (FM-GEN-4):
 * a title request, a compaction summariser request. Listed in `SessionAnalysis.auxiliary`.
 */
export interface AuxiliaryRequestEvent {
  kind: "auxiliary";
  /** Index in `SessionAnalysis.auxiliary` (stable for a session), to ask for its request. */
  index: number;
  purpose: "title" | "summary";
  /** The entry that records its result (summary message), or that triggered it. */
  entryId: string | null;
  /** Turn number of the next main request after it (null at the end). */
  beforeTurn: number | null;
  timestamp: string | null;
  /** Provenance rule shown in the UI (`synth:title`, `synth:compaction-summary`). */
  rule: string;
  /** Spec rule id of the behaviour. */
  ruleId: string;
  /** Short label for the timeline. */
  label: string;
  /** What the call recorded (tokens) and the model it was sent to, when the file holds them (opencode's summary message). */
  usage?: RecordedUsage | null;
  model?: ModelRef | null;
  /** What the request is and what it is rebuilt from, in the agent's terms (the details panel). */
  explanation?: string;
}

export interface BranchInfo {
  leafId: string;
  /** Number of assistant messages (turns) on the path. */
  turns: number;
  /** Last entry timestamp on the branch. */
  timestamp: string | null;
  label: string | null;
  isDefault: boolean;
  /** Claude Code: "sub-agent" for a sidechain (FM-CC-8), "main" otherwise; absent for other formats. */
  thread?: "main" | "sub-agent";
}

export interface PipelineOptions {
  /** The agent's pipeline profile (pi: "pi" or "senpi"); absent: the agent's first profile, or its only pipeline. */
  profile?: ProfileId;
  /** Leaf of the branch to show; null/undefined: the default leaf (last entry in file order). */
  leafId?: string | null;
  /** Wire shape to render; null/undefined: the shape of the model in force at each turn. */
  api?: ApiId | null;
  header?: RequestHeader | null;
  /**
   * senpi reply-language notes (reply-language.md) on/off. Default off (`NOTES_DEFAULT` in
   * src/core/agents/pi/notesSetup.ts: the session file does not say whether senpi had PR #4540). Ignored
   * by the pi profile.
   */
  notes?: boolean;
  /** Reply-language note parameters (reply-language.md §9); omitted ones take the spec defaults. */
  notesOptions?: Partial<ReplyLanguageOptions>;
  /** User edits to the model catalogue, keyed by "provider/modelId". */
  modelOverrides?: Record<string, Partial<ModelInfo>>;
  /**
   * Further captured requests (several files or a folder): each teaches the model facts of the
   * model it was sent to; `header` stays the source of the session constants. Null/absent: none.
   */
  captures?: RequestHeader[] | null;
  /**
   * The sub-agent thread to show (`Session.threads` id); null/undefined: the main thread. Read by
   * the worker and the CLI, which hand the thread's own session to the pipeline.
   */
  thread?: string | null;
  /**
   * The agent's own pipeline options, by the names its descriptor lists (`AgentDescriptor.options`);
   * an option left out takes its default. Only the agent's folder reads them.
   */
  agentOptions?: Record<string, boolean | number | string>;
}

/** A captured request body an auxiliary rebuild may learn fixed texts from (the first of its purpose). */
export interface LearntCapture {
  source: string;
  body: unknown;
}

/** A rebuilt provider request for one turn. */
export interface BuiltRequest {
  api: ApiId;
  /** The provider-shaped body, in the agent's key order. */
  body: Record<string, unknown>;
  /** The context messages it was built from (after every pipeline step), with provenance. */
  messages: ContextMessage[];
  dropped: DroppedMessage[];
  model: ModelInfo;
  /** Labels of the segments that are not recorded in the session (e.g. "system", "tools"). */
  notRecorded: string[];
}
