// A Claude Code transcript's summary in one pass over its lines (`scan` without `--full`): its
// provider calls and the usage they recorded, counted as the full pipeline counts them, without
// reading the file into a session or rebuilding a request. A call is one API message (the
// assistant entries sharing `message.id`, FM-CC-4): its model and time from its first entry, its
// usage and cache verdict from the last entry that has them. A line whose uuid was read already is
// a resumed session's copy and is skipped. Sidechain entries and `agent_progress` messages are the
// sub-agents' calls, grouped by agent as the reader groups them into threads (threads.ts).
// Assumed: the main chain has one branch (a rewound session's calls on other branches count
// here, where the full pipeline shows only the default branch's).
import type { ModelRef, RecordedUsage } from "../../model";
import type { SessionSummary, SummaryCall, SummaryLines } from "../descriptor";
import { isObject } from "../../util/is-object";
import { leadingField } from "../../util/json-line-head";
import { assistantRecordWithoutContent } from "./assistant-line";

/** The synthetic model of replies Claude Code writes itself: no request was sent. */
const SYNTHETIC_MODEL = "<synthetic>";
const CONVERSATION_TYPES = new Set(["user", "assistant", "attachment", "system"]);
/** Characters of a line read for its leading fields: past the ids, folder, version and branch. */
const HEAD_LENGTH = 640;

type Raw = Record<string, unknown>;

const str = (value: unknown): string | null => (typeof value === "string" ? value : null);
const num = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** One API message being gathered: its calls' facts as its entries arrive. */
interface Group {
  model: ModelRef | null;
  at: string | null;
  usage: RecordedUsage | null;
  verdict: string | null;
  callId: string | undefined;
}

function usageOf(message: Raw): RecordedUsage | null {
  const usage = message.usage;
  if (!isObject(usage)) return null;
  const input = num(usage.input_tokens);
  const cacheRead = num(usage.cache_read_input_tokens);
  const cacheWrite = num(usage.cache_creation_input_tokens);
  const output = num(usage.output_tokens);
  const result: RecordedUsage = { input, output, cacheRead, cacheWrite, totalTokens: input + cacheRead + cacheWrite + output };
  if (isObject(usage.cache_creation)) {
    result.cacheWrite5m = num(usage.cache_creation.ephemeral_5m_input_tokens);
    result.cacheWrite1h = num(usage.cache_creation.ephemeral_1h_input_tokens);
  }
  return result;
}

/** The server's cache verdict on the line (records.ts `entryCacheVerdict`), as its type only. */
function verdictOf(message: Raw): string | null | undefined {
  if (!("diagnostics" in message)) return undefined;
  const diagnostics = message.diagnostics;
  if (diagnostics === null) return "none";
  if (!isObject(diagnostics)) return undefined;
  const reason = diagnostics.cache_miss_reason;
  if (reason === null || reason === undefined) return "pending";
  return isObject(reason) && typeof reason.type === "string" ? reason.type : undefined;
}

/** A thread's calls by message id, in the order they first appear. */
class CallGroups {
  readonly groups = new Map<string, Group>();

  add(message: Raw, record: Raw, fallbackId: string, timestamp: string | null): void {
    const messageId = str(message.id) ?? str(record.requestId) ?? fallbackId;
    let group = this.groups.get(messageId);
    if (!group) {
      const model = str(message.model);
      group = { model: model ? { provider: "anthropic", modelId: model } : null, at: timestamp, usage: null, verdict: null, callId: undefined };
      this.groups.set(messageId, group);
    }
    const usage = usageOf(message);
    if (usage) group.usage = usage;
    const verdict = verdictOf(message);
    if (verdict !== undefined) group.verdict = verdict;
    const id = str(message.id);
    const requestId = str(record.requestId);
    group.callId = id !== null && requestId !== null ? `${id}:${requestId}` : undefined;
  }

  calls(): SummaryCall[] {
    return [...this.groups.values()].map((group) => ({ model: group.model, at: group.at, usage: group.usage, verdict: group.verdict, ...(group.callId ? { callId: group.callId } : {}) }));
  }
}

class ClaudeSummariser {
  private readonly seen = new Set<string>();
  private readonly main = new CallGroups();
  private readonly sidechains = new Map<string, CallGroups>();
  private readonly rootOf = new Map<string, string>();
  private readonly progress = new Map<string, CallGroups>();
  private readonly progressSeen = new Set<string>();
  private compactions = 0;
  private project: string | null = null;
  /** The agent id the file's entries name (a sub-agent's own file). */
  private fileAgentId: string | null = null;
  /** Sub-agents whose start the file records (`toolUseResult.agentId`), by id. */
  private readonly spawned = new Set<string>();

  /** A user entry answering the tool call that started a sub-agent (threads.ts `addSpawns`). */
  private spawn(record: Raw): void {
    const result = record.toolUseResult;
    const agentId = isObject(result) ? str(result.agentId) : null;
    const message = record.message;
    if (agentId === null || !isObject(message)) return;
    const content = Array.isArray(message.content) ? message.content : [];
    const block = content.find((item) => isObject(item) && item.type === "tool_result");
    if (isObject(block) && typeof block.tool_use_id === "string") this.spawned.add(agentId);
  }

  /**
   * False for a line no call, compaction or project is on, told by the fields its head states
   * (Claude Code writes `isSidechain` and, in most versions, `type` before the content) and the
   * markers it holds. A line naming an agent is wanted for a sub-agent's start or a sub-agent
   * file's own agent; an `agent_progress` line only when it carries an assistant message: the
   * sub-agent's user messages and tool results there (a third of an older session's bytes) hold
   * no call.
   */
  wants(contains: (marker: string) => boolean, head: (length: number) => string): boolean {
    const start = head(HEAD_LENGTH);
    const sidechain = leadingField(start, "isSidechain");
    const type = leadingField(start, "type");
    const names = (): boolean => contains('"agentId"') || (this.project === null && contains('"cwd"'));
    if (sidechain === true) return true;
    if (sidechain === false && typeof type === "string") {
      if (type === "assistant") return true;
      if (type === "progress") return contains('"assistant"');
      if (type === "system") return contains("compact_boundary") || names();
      return CONVERSATION_TYPES.has(type) && names();
    }
    return (
      contains('"assistant"') ||
      contains("compact_boundary") ||
      (sidechain === undefined && contains('"isSidechain":true')) ||
      (contains('"agentId"') && !contains('"agent_progress"')) ||
      (this.project === null && contains('"cwd"'))
    );
  }

  /** A line `wants` accepted (lines no call, compaction or project is on are never parsed). */
  line(text: string): void {
    // An assistant line read without its content (most of its bytes; no figure here is in it).
    let record: unknown = assistantRecordWithoutContent(text);
    if (record === undefined || (record as Raw).type !== "assistant") {
      try {
        record = JSON.parse(text);
      } catch {
        return;
      }
    }
    if (!isObject(record)) return;
    if (record.type === "progress") return this.progressLine(record);
    const uuid = str(record.uuid);
    if (uuid === null || typeof record.type !== "string" || !CONVERSATION_TYPES.has(record.type)) return;
    if (this.seen.has(uuid)) return;
    this.seen.add(uuid);
    this.project ??= str(record.cwd) || null;
    this.fileAgentId ??= str(record.agentId);
    if (record.type === "user") this.spawn(record);
    const sidechain = record.isSidechain === true;
    let groups = this.main;
    if (sidechain) {
      const parent = str(record.parentUuid);
      const key = str(record.agentId) ?? (parent !== null ? this.rootOf.get(parent) : undefined) ?? uuid;
      this.rootOf.set(uuid, key);
      groups = this.sidechains.get(key) ?? new CallGroups();
      this.sidechains.set(key, groups);
    } else if (record.type === "system" && record.subtype === "compact_boundary") this.compactions++;
    const message = record.message;
    if (record.type !== "assistant" || !isObject(message) || typeof message.role !== "string" || message.model === SYNTHETIC_MODEL) return;
    groups.add(message, record, uuid, str(record.timestamp));
  }

  /** A sub-agent's message carried by an `agent_progress` line (threads.ts `progressGroups`). */
  private progressLine(record: Raw): void {
    const data = record.data;
    if (!isObject(data) || data.type !== "agent_progress") return;
    const agentId = str(data.agentId) ?? str(record.parentToolUseID);
    const message = data.message;
    if (agentId === null || !isObject(message) || (message.type !== "user" && message.type !== "assistant") || !isObject(message.message)) return;
    const id = str(message.uuid) ?? `${agentId}@${this.progressSeen.size}`;
    if (this.progressSeen.has(id)) return;
    this.progressSeen.add(id);
    const inner = message.message;
    if (message.type !== "assistant" || typeof inner.role !== "string" || inner.model === SYNTHETIC_MODEL) return;
    const groups = this.progress.get(agentId) ?? new CallGroups();
    this.progress.set(agentId, groups);
    groups.add(inner, message, id, str(message.timestamp) ?? str(record.timestamp));
  }

  summary(fileName: string): SessionSummary {
    const threads: SessionSummary["threads"] = [...this.sidechains].map(([id, groups]) => ({ id, calls: groups.calls() }));
    // An agent whose sidechain the file holds is that thread; its progress copies are not another.
    for (const [id, groups] of this.progress) if (!this.sidechains.has(id)) threads.push({ id, calls: groups.calls() });
    // A sub-agent started whose messages are in another file: a thread without calls here.
    const found = new Set(threads.map((thread) => thread.id));
    for (const id of this.spawned) if (!found.has(id)) threads.push({ id, calls: [] });
    const agentId = this.fileAgentId ?? AGENT_FILE.exec(fileName)?.[1] ?? null;
    return { main: this.main.calls(), threads, compactions: this.compactions, project: this.project, agentId };
  }
}

/** A sub-agent's file name (threads.ts): its agent id when its entries name none. */
const AGENT_FILE = /(?:^|[\\/])agent-([A-Za-z0-9_-]+)\.jsonl$/;

export function summarizeClaudeLines(lines: SummaryLines, fileName: string): SessionSummary {
  const summariser = new ClaudeSummariser();
  for (const line of lines((contains, head) => summariser.wants(contains, head))) summariser.line(line);
  return summariser.summary(fileName);
}
