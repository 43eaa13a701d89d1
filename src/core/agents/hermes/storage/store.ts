// The hermes-agent storage as one value, whatever it was read from: sessions of `state.db`
// (HS-8 … HS-25), `session_<id>.json` snapshots (HS-26 … HS-29), `<id>.jsonl` gateway transcripts
// (HS-30, HS-31) and `request_dump_*.json` files (HS-32 … HS-34). ./session.ts turns a store and a
// chosen session into the Session the pipeline reads; ./stateDb.ts and ./sideFiles.ts fill it.
import type { ReaderWarning, RecordedUsage } from "../../../model";
import type { HermesRowInfo } from "./rows";

/** Where a stored message, prompt or tool list came from. */
export type HermesSource = "state.db" | "snapshot" | "transcript" | "request dump";

export interface HermesStoredMessage {
  /** The OpenAI message dict as hermes holds it (HS-15 … HS-19, HS-27, HS-30). */
  message: Record<string, unknown>;
  /** The row's bookkeeping (state.db only). */
  row: HermesRowInfo | null;
  from: HermesSource;
  /** Line of a transcript (1-based); 0 otherwise. */
  line: number;
}

export interface HermesStoredSession {
  id: string;
  /** `sessions.source` / snapshot `platform` (HS-13). */
  platform: string | null;
  model: string | null;
  title: string | null;
  parentId: string | null;
  /** Epoch seconds. */
  startedAt: number | null;
  endedAt: number | null;
  endReason: string | null;
  cwd: string | null;
  baseUrl: string | null;
  /** `model_config` parsed (lineage markers `_branched_from`, `_delegate_from`, `_reset_from`, HS-24). */
  modelConfig: Record<string, unknown> | null;
  systemPrompt: string | null;
  systemPromptFrom: HermesSource | null;
  /** OpenAI tool schemas: only snapshots and dumps hold them (HS-29, HS-40). */
  tools: unknown[] | null;
  toolsFrom: HermesSource | null;
  /** Messages the storage holds for it (rows, snapshot or transcript), for the picker. */
  messageCount: number;
  /** Where the messages are read from when the session is shown. */
  messagesFrom: HermesSource | null;
  /** Snapshot / transcript messages (state.db messages are loaded on demand). */
  messages: HermesStoredMessage[] | null;
  /**
   * The session's token counters (state.db `sessions.input_tokens`, `output_tokens`,
   * `cache_read_tokens`, `cache_write_tokens`, schema 5 on): hermes records usage per session,
   * never per call. Null when the storage holds none.
   */
  usageTotals: RecordedUsage | null;
}

/** A `request_dump_*.json` file (HS-32): the request body hermes passed to the SDK. */
export interface HermesRequestDump {
  fileName: string;
  sessionId: string | null;
  timestamp: string | null;
  reason: string | null;
  url: string | null;
  body: Record<string, unknown>;
  /** Set on error dumps (`non_retryable_client_error`, `max_retries_exhausted`). */
  error: Record<string, unknown> | null;
}

export interface HermesStoreOrigin {
  /** "state.db" when a database was read; "files" for snapshots / transcripts / dumps alone. */
  kind: "state.db" | "files";
  fileName: string;
  /** `schema_version.version` (a hint only, HS-12). */
  schemaVersion: number | null;
  walApplied: boolean;
  /** Columns found with PRAGMA table_info, per table. */
  columns: Record<string, string[]>;
}

export interface HermesStore {
  origin: HermesStoreOrigin;
  sessions: HermesStoredSession[];
  dumps: HermesRequestDump[];
  warnings: ReaderWarning[];
  /** Every file name read. */
  fileNames: string[];
}

export function emptyStoredSession(id: string): HermesStoredSession {
  return {
    id,
    platform: null,
    model: null,
    title: null,
    parentId: null,
    startedAt: null,
    endedAt: null,
    endReason: null,
    cwd: null,
    baseUrl: null,
    modelConfig: null,
    systemPrompt: null,
    systemPromptFrom: null,
    tools: null,
    toolsFrom: null,
    messageCount: 0,
    messagesFrom: null,
    messages: null,
    usageTotals: null,
  };
}
