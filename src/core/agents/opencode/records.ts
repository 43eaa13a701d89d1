// opencode's stored records (formats.md FM-OC-4 … FM-OC-6) in the normalised shape both inputs
// are read into: the `opencode export` JSON has it already; database rows are turned into it by
// ./database.ts. Only the fields the pipeline reads are typed; every other field is kept in the
// record as stored (FM-GEN-2) and shown in the raw view.
import { isObject } from "../../util/is-object";
import type { SessionListing } from "../../model";

/** One stored message with its parts, as in `opencode export` (`{info, parts}`). */
export interface OpencodeMessageRecord {
  info: OpencodeMessageInfo;
  parts: OpencodePart[];
}

export interface OpencodeMessageInfo {
  id: string;
  sessionID?: string;
  role: "user" | "assistant" | string;
  /** Assistant: the user message it answers (FM-OC-5). */
  parentID?: string;
  time?: { created?: number; completed?: number };
  agent?: string;
  mode?: string;
  /** User: `{providerID, modelID}`. */
  model?: { providerID?: string; modelID?: string };
  modelID?: string;
  providerID?: string;
  /** Assistant: `true` on compaction summaries; user: `{diffs}`. */
  summary?: unknown;
  finish?: string;
  error?: unknown;
  tokens?: OpencodeTokens;
  cost?: number;
  [key: string]: unknown;
}

interface OpencodeTokens {
  total?: number;
  input?: number;
  output?: number;
  reasoning?: number;
  cache?: { read?: number; write?: number };
}

export interface OpencodePart {
  id: string;
  type: string;
  messageID?: string;
  sessionID?: string;
  /** text / reasoning */
  text?: string;
  synthetic?: boolean;
  ignored?: boolean;
  metadata?: Record<string, unknown>;
  /** tool */
  tool?: string;
  callID?: string;
  state?: OpencodeToolState;
  /** compaction */
  auto?: boolean;
  overflow?: boolean;
  tail_start_id?: string;
  /** file */
  mime?: string;
  filename?: string;
  url?: string;
  [key: string]: unknown;
}

interface OpencodeToolState {
  status?: string;
  input?: unknown;
  output?: string;
  error?: string;
  title?: string;
  metadata?: unknown;
  time?: { start?: number; end?: number; compacted?: number };
}

/** Session row / export `info` (FM-OC-2, FM-OC-4) in the export's camelCase shape. */
export interface OpencodeSessionInfo {
  id: string;
  title?: string;
  directory?: string;
  version?: string;
  parentID?: string | null;
  time?: { created?: number; updated?: number };
  [key: string]: unknown;
}

/** One line of the session picker (a database can hold many sessions). */
export type OpencodeSessionListing = SessionListing;

export function isUserInfo(info: OpencodeMessageInfo): boolean {
  return info.role === "user";
}

export function isAssistantInfo(info: OpencodeMessageInfo): boolean {
  return info.role === "assistant";
}

/** A compaction summary row (FM-OC-5): `summary: true` on an assistant message. */
export function isSummaryMessage(record: OpencodeMessageRecord): boolean {
  return isAssistantInfo(record.info) && record.info.summary === true;
}

/** A compaction request row: a user message holding a `compaction` part (CP-OC-24). */
export function compactionPartOf(record: OpencodeMessageRecord): OpencodePart | null {
  if (!isUserInfo(record.info)) return null;
  return record.parts.find((part) => part.type === "compaction") ?? null;
}

/** The continue message stored after an automatic compaction (FM-OC-14, CP-OC-25). */
export function isCompactionContinue(record: OpencodeMessageRecord): boolean {
  if (!isUserInfo(record.info)) return false;
  return record.parts.some(
    (part) => part.type === "text" && part.synthetic === true && isObject(part.metadata) && part.metadata.compaction_continue === true,
  );
}

/** A main request's answer (FM-OC-12): an assistant message that is not a summary and has a finish. */
export function isTurnAnswer(record: OpencodeMessageRecord): boolean {
  return isAssistantInfo(record.info) && record.info.summary !== true && typeof record.info.finish === "string" && record.info.finish !== "";
}

/** Text of an assistant message's text parts, joined (CP-OC-11 "non-blank text"). */
export function assistantText(record: OpencodeMessageRecord): string {
  return record.parts
    .filter((part) => part.type === "text" && typeof part.text === "string")
    .map((part) => part.text as string)
    .join("");
}
