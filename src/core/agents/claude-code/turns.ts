// Turns of a Claude Code session (FM-CC-23): on the selected branch, each API message (distinct
// `message.id` of the assistant entries, FM-CC-4) answers one main request. With `api-request`
// records the request is rebuilt exactly from them (FM-CC-19); without, approximately
// (FM-CC-24). Compaction boundaries on the branch become timeline events (FM-CC-12), and
// sub-agent sidechains are separate branches (FM-CC-8).
import type {
  BranchInfo,
  BuiltRequest,
  CompactionEvent,
  ContextMessage,
  ModelRef,
  RecordedUsage,
  PipelineOptions,
  ReaderWarning,
  Session,
  SessionEntry,
  TimelineItem,
  TurnSummary,
} from "../../model";
import { notRecorded } from "../../model";
import { resolveModel } from "../../models/catalogue";
import type { SessionAnalysis, SessionEvent, TurnContext } from "../../pipeline/types";
import { sessionEventOf } from "./events";
import { approximateMessages, type ApproximateMessage } from "./approximate";
import { toContextMessages, wireMessageChars } from "./context";
import {
  assistantMessageId,
  contentBlocks,
  entryMessage,
  entryUsage,
  isCompactBoundary,
  isSidechain,
  isSyntheticAssistant,
  numberOr,
  stringField,
} from "./records";
import { isObject } from "../../util/is-object";
import { recordMessages, recordWarnings, requestRefOf, type SourcedMessage } from "./request-records";
import {
  branchLeaves,
  defaultLeaf,
  getClaudeIndex,
  pathTo,
  type ApiRequestRecord,
  type ClaudeSessionIndex,
} from "./session-index";
import { assembleClaudeBody, billingHeaderBlock, metadataBlock } from "./wire";
import { CLAUDE_USER_IDS, claudeUserIds } from "./capture";
import { sessionConstant } from "../../captures/fact";
import { billingSuffix } from "./billing";

export interface ClaudeTurn {
  turn: number;
  messageId: string;
  /** Every assistant entry of the API message, in file order. */
  group: SessionEntry[];
  /** Index in the branch path of the first entry of the message. */
  pathIndex: number;
  record: ApiRequestRecord | null;
}

export interface ClaudeBranch {
  leafId: string;
  path: SessionEntry[];
  turns: ClaudeTurn[];
  warnings: ReaderWarning[];
}

const branchCaches = new WeakMap<Session, Map<string, ClaudeBranch>>();

function resolveLeaf(index: ClaudeSessionIndex, requested: string | null | undefined): string | null {
  if (requested && index.byId.has(requested)) return requested;
  return defaultLeaf(index);
}

export function getClaudeBranch(session: Session, leafId: string): ClaudeBranch {
  let cache = branchCaches.get(session);
  if (!cache) {
    cache = new Map();
    branchCaches.set(session, cache);
  }
  const cached = cache.get(leafId);
  if (cached) return cached;
  const index = getClaudeIndex(session);
  const { path, warning } = pathTo(index, leafId);
  const turns: ClaudeTurn[] = [];
  const seen = new Set<string>();
  const warnings: ReaderWarning[] = warning ? [warning] : [];
  const hasRecords = index.apiRequests.size > 0;
  path.forEach((entry, pathIndex) => {
    // A reply Claude Code wrote itself sent no request: an event of the session, not a turn.
    if (entry.type !== "assistant" || isSyntheticAssistant(entry)) return;
    const messageId = assistantMessageId(entry) ?? entry.id;
    if (seen.has(messageId)) return;
    seen.add(messageId);
    const group = index.messageGroups.get(messageId) ?? [entry];
    const record = requestRefOf(index, group);
    if (hasRecords && !record && !isSidechain(entry)) {
      warnings.push({ line: entry.line, reason: `assistant message ${messageId} names no api-request record: request approximated` });
    }
    turns.push({ turn: turns.length + 1, messageId, group, pathIndex, record });
  });
  const branch: ClaudeBranch = { leafId, path, turns, warnings };
  cache.set(leafId, branch);
  return branch;
}

function lastOf<T>(items: T[]): T | undefined {
  return items[items.length - 1];
}

/** Usage of an API message: the last entry's copy (FM-CC-4, CA-22), in pi's field names. */
export function turnUsage(turn: ClaudeTurn): RecordedUsage | null {
  for (let i = turn.group.length - 1; i >= 0; i--) {
    const usage = entryUsage(turn.group[i] as SessionEntry);
    if (!usage) continue;
    const input = numberOr(usage.input_tokens, 0);
    const cacheRead = numberOr(usage.cache_read_input_tokens, 0);
    const cacheWrite = numberOr(usage.cache_creation_input_tokens, 0);
    const output = numberOr(usage.output_tokens, 0);
    const result: RecordedUsage = { input, output, cacheRead, cacheWrite, totalTokens: input + cacheRead + cacheWrite + output };
    // The write's TTL split (Claude Code records it since the 1-hour cache), priced apart.
    if (isObject(usage.cache_creation)) {
      result.cacheWrite5m = numberOr(usage.cache_creation.ephemeral_5m_input_tokens, 0);
      result.cacheWrite1h = numberOr(usage.cache_creation.ephemeral_1h_input_tokens, 0);
    }
    return result;
  }
  return null;
}

function turnModel(turn: ClaudeTurn): ModelRef | null {
  const message = entryMessage(turn.group[0] as SessionEntry);
  const modelId = (message && typeof message.model === "string" ? message.model : null) ?? (turn.record?.params.model as string | undefined);
  return typeof modelId === "string" ? { provider: "anthropic", modelId } : null;
}

function thinkingLevel(turn: ClaudeTurn): string {
  const params = turn.record?.params;
  const effort = params && isObject(params.output_config) ? params.output_config.effort : undefined;
  if (typeof effort === "string") return effort;
  const recorded = stringField((turn.group[0] as SessionEntry).raw, "effort");
  if (recorded) return recorded;
  const thinking = params && isObject(params.thinking) ? params.thinking.type : undefined;
  return typeof thinking === "string" ? thinking : "off";
}

type WireItem = SourcedMessage | ApproximateMessage;

/** The wire messages of a turn: from the records when present, else approximated. */
function turnWireMessages(session: Session, branch: ClaudeBranch, turn: ClaudeTurn): WireItem[] {
  if (turn.record) return recordMessages(session, turn.record);
  return approximateMessages(getClaudeIndex(session), branch.path, turn.pathIndex);
}

function compactionEvent(boundary: SessionEntry, path: SessionEntry[], from: number, beforeTurn: number | null): CompactionEvent {
  const metadata = isObject(boundary.raw.compactMetadata) ? boundary.raw.compactMetadata : {};
  const segment = isObject(metadata.preservedSegment) ? metadata.preservedSegment : {};
  let summaryChars = 0;
  for (let i = from + 1; i < path.length; i++) {
    const entry = path[i] as SessionEntry;
    if (entry.type === "user" && entry.raw.isCompactSummary === true) {
      const content = entryMessage(entry)?.content;
      summaryChars = typeof content === "string" ? content.length : JSON.stringify(content ?? "").length;
      break;
    }
    if (entry.type === "assistant") break;
  }
  return {
    kind: "compaction",
    entryId: boundary.id,
    beforeTurn,
    timestamp: boundary.timestamp,
    tokensBefore: typeof metadata.preTokens === "number" ? metadata.preTokens : null,
    firstKeptEntryId: stringField(segment, "headUuid"),
    summaryChars,
  };
}

function branchLabel(path: SessionEntry[], leaf: SessionEntry): string | null {
  if (!isSidechain(leaf)) return null;
  const firstUser = path.find((entry) => entry.type === "user" && isSidechain(entry));
  const content = firstUser ? entryMessage(firstUser)?.content : undefined;
  const text = typeof content === "string" ? content : contentBlocks(content).map((b) => (isObject(b) && typeof b.text === "string" ? b.text : "")).join(" ");
  const agent = stringField(leaf.raw, "agentId");
  const preview = text.replace(/\s+/g, " ").trim().slice(0, 60);
  return `sidechain${agent ? ` ${agent}` : ""} (sub-agent)${preview ? `: ${preview}` : ""}`;
}

function listClaudeBranches(session: Session, index: ClaudeSessionIndex): BranchInfo[] {
  const fallback = defaultLeaf(index);
  const leaves = branchLeaves(index);
  if (fallback && !leaves.some((leaf) => leaf.id === fallback)) {
    const entry = index.byId.get(fallback);
    if (entry) leaves.push(entry);
  }
  return leaves.map((leaf) => {
    const branch = getClaudeBranch(session, leaf.id);
    return {
      leafId: leaf.id,
      turns: branch.turns.length,
      timestamp: leaf.timestamp,
      label: branchLabel(branch.path, leaf),
      isDefault: leaf.id === fallback,
      thread: isSidechain(leaf) ? "sub-agent" : "main",
    };
  });
}

export function analyzeClaudeSession(session: Session, options: PipelineOptions): SessionAnalysis {
  const index = getClaudeIndex(session);
  const leafId = resolveLeaf(index, options.leafId);
  if (leafId === null) return { branches: [], leafId: null, turns: [], timeline: [], warnings: index.warnings.slice() };
  const branch = getClaudeBranch(session, leafId);
  const turns: TurnSummary[] = [];
  const timeline: TimelineItem[] = [];
  let pending: { entry: SessionEntry; at: number }[] = [];
  let nextTurn = 0;
  let previousModel: ModelRef | null = null;
  const events: SessionEvent[] = [];
  branch.path.forEach((entry, at) => {
    if (isCompactBoundary(entry)) pending.push({ entry, at });
    else {
      const event = sessionEventOf(entry, nextTurn > 0 ? nextTurn : null);
      if (event) events.push(event);
    }
    const turn = branch.turns[nextTurn];
    if (!turn || turn.pathIndex !== at) return;
    nextTurn += 1;
    for (const item of pending) timeline.push(compactionEvent(item.entry, branch.path, item.at, turn.turn));
    timeline.push({ kind: "turn", turn: turn.turn });
    const wire = turnWireMessages(session, branch, turn);
    let chars = 0;
    for (const item of wire) chars += wireMessageChars(item.message);
    const model = turnModel(turn);
    const last = lastOf(turn.group) as SessionEntry;
    const stopReason = entryMessage(last)?.stop_reason;
    turns.push({
      turn: turn.turn,
      entryId: (turn.group.find((member) => branch.path[turn.pathIndex] === member) ?? (turn.group[0] as SessionEntry)).id,
      timestamp: (branch.path[turn.pathIndex] as SessionEntry).timestamp,
      model,
      api: "anthropic-messages",
      thinkingLevel: thinkingLevel(turn),
      messageCount: wire.length,
      estimatedTokens: Math.ceil(chars / 4),
      chars,
      usage: turnUsage(turn),
      stopReason: typeof stopReason === "string" ? stopReason : null,
      afterCompaction: pending.length > 0,
      modelSwitched: turn.turn > 1 && (previousModel?.modelId ?? null) !== (model?.modelId ?? null),
      hasNote: false,
      hasDropped: false,
    });
    pending = [];
    previousModel = model;
  });
  for (const item of pending) timeline.push(compactionEvent(item.entry, branch.path, item.at, null));
  return {
    branches: listClaudeBranches(session, index),
    leafId,
    turns,
    timeline,
    warnings: [...index.warnings, ...branch.warnings, ...recordWarnings(session)],
    ...(events.length > 0 ? { events } : {}),
  };
}

function selectedTurn(session: Session, options: PipelineOptions, turn: number): { branch: ClaudeBranch; turn: ClaudeTurn } {
  const index = getClaudeIndex(session);
  const leafId = resolveLeaf(index, options.leafId);
  const branch = leafId ? getClaudeBranch(session, leafId) : null;
  const found = branch && Number.isInteger(turn) ? branch.turns[turn - 1] : undefined;
  if (!branch || !found) {
    throw new RangeError(`turn ${turn} does not exist: the branch has ${branch?.turns.length ?? 0} turns`);
  }
  return { branch, turn: found };
}

export function countClaudeTurns(session: Session, options: PipelineOptions): number {
  const index = getClaudeIndex(session);
  const leafId = resolveLeaf(index, options.leafId);
  return leafId ? getClaudeBranch(session, leafId).turns.length : 0;
}

function lastCompactionBefore(branch: ClaudeBranch, turn: ClaudeTurn): string | null {
  for (let i = turn.pathIndex - 1; i >= 0; i--) {
    const entry = branch.path[i] as SessionEntry;
    if (isCompactBoundary(entry)) return entry.id;
  }
  return null;
}

export function buildClaudeTurnContext(session: Session, options: PipelineOptions, turnNumber: number): TurnContext {
  const { branch, turn } = selectedTurn(session, options, turnNumber);
  const wire = turnWireMessages(session, branch, turn);
  const messages: ContextMessage[] = toContextMessages(wire);
  const answer = branch.path[turn.pathIndex] as SessionEntry;
  return {
    turn: turn.turn,
    entryId: answer.id,
    messages,
    dropped: [],
    model: turnModel(turn),
    thinkingLevel: thinkingLevel(turn),
    api: "anthropic-messages",
    pathEntryIds: branch.path.slice(0, turn.pathIndex).map((entry) => entry.id),
    compactionId: lastCompactionBefore(branch, turn),
    warnings: turn.record ? recordWarnings(session) : [],
  };
}

/** The last `prompt_snapshot` system prompt before the answer (FM-CC-10), for approximations. */
function snapshotSystemPrompt(branch: ClaudeBranch, turn: ClaudeTurn): string | null {
  for (let i = turn.pathIndex - 1; i >= 0; i--) {
    const entry = branch.path[i] as SessionEntry;
    const attachment = entry.raw.attachment;
    if (entry.type === "attachment" && isObject(attachment) && attachment.type === "prompt_snapshot") {
      const parts = attachment.systemPrompt;
      if (Array.isArray(parts) && parts.every((part) => typeof part === "string")) return parts.join("\n\n");
    }
  }
  return null;
}

export function buildClaudeTurnRequest(session: Session, options: PipelineOptions, turnNumber: number): BuiltRequest {
  const index = getClaudeIndex(session);
  const { branch, turn } = selectedTurn(session, options, turnNumber);
  const wire = turnWireMessages(session, branch, turn);
  const modelRef = turnModel(turn);
  const model = resolveModel(modelRef, "anthropic-messages", options.modelOverrides);
  const warnings: string[] = [];
  const entryVersion = stringField((turn.group[0] as SessionEntry).raw, "version");
  const wireMessages = wire.map((item) => item.message);
  const userIds = claudeUserIds(sessionConstant(options, CLAUDE_USER_IDS)?.value);
  const labels: string[] = [];
  // The suffix is derived from the request (./billing.ts) when the version and a user text are known.
  if ((turn.record?.version ?? entryVersion) === null || billingSuffix(wireMessages, "") === null) labels.push("system[0]: billing header build suffix (FM-CC-19 step 5)");
  if (!userIds) labels.push("metadata.user_id: device and account ids");
  let body: Record<string, unknown>;
  const shape = turn.record?.shapeHash ? index.shapes.get(turn.record.shapeHash) : undefined;
  if (turn.record) {
    if (!shape) labels.push("system and tools: api-request-shape not found");
    body = assembleClaudeBody(
      {
        params: turn.record.params,
        system: shape ? shape.system : notRecorded("system prompt (api-request-shape missing)"),
        tools: shape ? shape.tools : notRecorded("tool definitions (api-request-shape missing)"),
        messages: wire.map((item) => item.message),
        cacheControl: turn.record.cacheControl,
        billingBlock: billingHeaderBlock(turn.record.version ?? entryVersion, index.entrypoint, wireMessages),
        metadata: metadataBlock(index.sessionId, userIds),
      },
      warnings,
    );
  } else {
    labels.push("approximate: messages rebuilt from the transcript without api-request records (FM-CC-24)");
    const snapshot = snapshotSystemPrompt(branch, turn);
    const header = options.header ?? null;
    const systemText = snapshot ?? header?.systemPrompt ?? null;
    if (systemText === null) labels.push("system prompt");
    const tools = header?.tools
      ? header.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }))
      : notRecorded("tool definitions");
    if (!header?.tools) labels.push("tools");
    labels.push("request parameters (max_tokens, thinking, context_management, output_config)");
    const messages = wire.map((item) => item.message);
    const lastIndex = messages.length - 1;
    const lastContent = lastIndex >= 0 ? contentBlocks((messages[lastIndex] as Record<string, unknown>).content) : [];
    body = assembleClaudeBody(
      {
        params: { model: modelRef?.modelId ?? notRecorded("model") },
        system: [{ type: "text", text: systemText ?? "[not recorded: system prompt]" }],
        tools,
        messages,
        // FM-CC-21 [INF]: breakpoints on the system block and the last block of the last message.
        cacheControl: [
          { path: ["system", 0], value: { type: "ephemeral" } },
          ...(lastContent.length > 0 ? [{ path: ["messages", lastIndex, "content", lastContent.length - 1], value: { type: "ephemeral" } }] : []),
        ],
        billingBlock: billingHeaderBlock(entryVersion, index.entrypoint, wireMessages),
        metadata: metadataBlock(index.sessionId, userIds),
      },
      warnings,
    );
  }
  for (const warning of warnings) labels.push(warning);
  return {
    api: "anthropic-messages",
    body,
    messages: toContextMessages(wire),
    dropped: [],
    model,
    notRecorded: labels,
  };
}
