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
  ServerCacheVerdict,
  Session,
  SessionEntry,
  TimelineItem,
  ToolDefinition,
  TurnSummary,
} from "../../model";
import { notRecorded } from "../../model";
import { resolveModel } from "../../models/catalogue";
import type { SessionAnalysis, SessionEvent, TurnContext } from "../../pipeline/types";
import { sessionEventOf } from "./events";
import { approximateMessages, approximateParts, type ApproximateMessage } from "./approximate";
import { contextMessageOf, toContextMessages, wireMessageChars } from "./context";
import {
  assistantMessageId,
  contentBlocks,
  entryCacheVerdict,
  entryMessage,
  entryUsage,
  isCompactBoundary,
  isSidechain,
  isSyntheticAssistant,
  numberOr,
  stringField,
} from "./records";
import { isObject } from "../../util/is-object";
import { recordCacheOf, recordMessages, recordWarnings, requestRefOf, type SourcedMessage } from "./request-records";
import {
  branchLeaves,
  defaultLeaf,
  getClaudeIndex,
  indexGeneration,
  touchedAt,
  type ApiRequestRecord,
  type ClaudeSessionIndex,
} from "./session-index";
import { assembleClaudeBody, billingHeaderBlock, metadataBlock, sentMessage, type ClaudeUserIds, type SentMessages } from "./wire";
import { WireCarry, type WireList } from "./wire-carry";
import { recordSharedHead } from "../../util/list-lineage";
import { AlternatingLists } from "../../providers/alternating-lists";
import { withCaptureModelFacts } from "../../captures/modelFacts";
import type { PipelineHooks } from "../../pipeline/types";
import { CLAUDE_USER_IDS, claudeUserIds } from "./capture";
import { sessionConstant } from "../../captures/fact";
import { firstUserTextAt } from "./billing";
import { isText, stringifyWithTexts, textString, textUnits } from "../../text/text";
import { perObject } from "../../util/per-object";

export interface ClaudeTurn {
  turn: number;
  messageId: string;
  /** Every assistant entry of the API message, in file order. */
  group: SessionEntry[];
  /** Entries the group had when the turn was made: a followed file may add some (the group is the index's list). */
  groupLength: number;
  /** Index in the branch path of the first entry of the message. */
  pathIndex: number;
  record: ApiRequestRecord | null;
}

export interface ClaudeBranch {
  leafId: string;
  path: SessionEntry[];
  turns: ClaudeTurn[];
  warnings: ReaderWarning[];
  /** The parent cycle the path was cut at, if any. */
  cycle: ReaderWarning | null;
}

/**
 * The branches built per session, and the turn made for each answering entry: a branch through
 * the same answer (the default leaf moving to a sibling tool result as a followed file grows)
 * takes the same turn object, and with it the turn's kept summary.
 */
interface BranchCache {
  branches: Map<string, ClaudeBranch>;
  turnsByAnswer: Map<string, ClaudeTurn>;
}

const branchCaches = new WeakMap<Session, BranchCache>();

/**
 * `next` is `previous` with lines appended and the index moved to it (session-index.ts
 * `carryClaudeIndex`): the branches built so far move too. A branch's path stays true (the index
 * moved only if no earlier parent changed); a turn whose API message grew is made again when the
 * branch is next asked for (`refreshedTurns`).
 */
export function carryClaudeBranches(previous: Session, next: Session, appended: readonly SessionEntry[], index: ClaudeSessionIndex): void {
  const cache = branchCaches.get(previous);
  if (!cache || branchCaches.has(next)) return;
  branchCaches.delete(previous);
  // Branches of entries that had children before these lines are no leaves any more: dropped, so
  // that the paths kept do not pile up with every append. A leaf that gained its first child now
  // stays for one growth: the new leaf's path is walked up to it.
  const firstLine = appended[0]?.line ?? Number.POSITIVE_INFINITY;
  for (const leafId of cache.branches.keys()) {
    const first = index.children.get(leafId)?.[0];
    if (first && first.line < firstLine) cache.branches.delete(leafId);
  }
  branchCaches.set(next, cache);
}

function resolveLeaf(index: ClaudeSessionIndex, requested: string | null | undefined): string | null {
  if (requested && index.byId.has(requested)) return requested;
  return defaultLeaf(index);
}

/**
 * The turn answered at `path[pathIndex]`: the one made before for that entry when it is the same
 * (number, place, API message unchanged: the path before an entry is the same on every branch), else a new one.
 */
function makeTurn(index: ClaudeSessionIndex, cache: BranchCache, turn: number, messageId: string, group: SessionEntry[], path: SessionEntry[], pathIndex: number): ClaudeTurn {
  const answerId = (path[pathIndex] as SessionEntry).id;
  const kept = cache.turnsByAnswer.get(answerId);
  if (kept && kept.turn === turn && kept.pathIndex === pathIndex && kept.group === group && kept.groupLength === group.length) return kept;
  const made: ClaudeTurn = { turn, messageId, group, groupLength: group.length, pathIndex, record: requestRefOf(index, group) };
  cache.turnsByAnswer.set(answerId, made);
  return made;
}

/** The branch's turns, each whose API message grew since it was made made again (its record may be in the new entries). */
function refreshedTurns(index: ClaudeSessionIndex, cache: BranchCache, path: SessionEntry[], turns: ClaudeTurn[]): ClaudeTurn[] {
  if (turns.every((turn) => turn.group.length === turn.groupLength)) return turns;
  return turns.map((turn) => (turn.group.length === turn.groupLength ? turn : makeTurn(index, cache, turn.turn, turn.messageId, turn.group, path, turn.pathIndex)));
}

function branchWarnings(index: ClaudeSessionIndex, path: SessionEntry[], turns: ClaudeTurn[], cycle: ReaderWarning | null): ReaderWarning[] {
  const warnings: ReaderWarning[] = cycle ? [cycle] : [];
  if (index.apiRequests.size === 0) return warnings;
  for (const turn of turns) {
    const entry = path[turn.pathIndex] as SessionEntry;
    if (!turn.record && !isSidechain(entry)) {
      warnings.push({ line: entry.line, reason: `assistant message ${turn.messageId} names no api-request record: request approximated` });
    }
  }
  return warnings;
}

/**
 * The path from the root to `leafId` and its turns. The walk up from the leaf stops at the leaf of
 * a branch built already (the previous leaf of a growing session): that branch's path and turns
 * go on with the entries walked, so a new leaf costs the entries appended since.
 */
function buildBranch(index: ClaudeSessionIndex, cache: BranchCache, leafId: string): ClaudeBranch {
  const reversed: SessionEntry[] = [];
  const seen = new Set<string>();
  let cycle: ReaderWarning | null = null;
  let base: ClaudeBranch | null = null;
  let current = index.byId.get(leafId) ?? null;
  while (current) {
    if (seen.has(current.id)) {
      cycle = { line: current.line, reason: `parent cycle at ${current.id}: path cut there` };
      break;
    }
    const kept = reversed.length > 0 ? cache.branches.get(current.id) : undefined;
    // A kept path without a cycle holds exactly the entries the walk would meet from here.
    if (kept && kept.cycle === null) {
      base = kept;
      break;
    }
    seen.add(current.id);
    reversed.push(current);
    const parent = index.parentOf.get(current.id);
    current = parent === undefined ? null : (index.byId.get(parent) ?? null);
  }
  const walked = reversed.reverse();
  const path = base ? base.path.concat(walked) : walked;
  const turns = base ? refreshedTurns(index, cache, base.path, base.turns).slice() : [];
  const messageIds = new Set(turns.map((turn) => turn.messageId));
  for (let pathIndex = base ? base.path.length : 0; pathIndex < path.length; pathIndex++) {
    const entry = path[pathIndex] as SessionEntry;
    // A reply Claude Code wrote itself sent no request: an event of the session, not a turn.
    if (entry.type !== "assistant" || isSyntheticAssistant(entry)) continue;
    const messageId = assistantMessageId(entry) ?? entry.id;
    if (messageIds.has(messageId)) continue;
    messageIds.add(messageId);
    const group = index.messageGroups.get(messageId) ?? [entry];
    // A path cut at a parent cycle is not the path every branch has before the answer: its turns are its own.
    if (cycle) turns.push({ turn: turns.length + 1, messageId, group, groupLength: group.length, pathIndex, record: requestRefOf(index, group) });
    else turns.push(makeTurn(index, cache, turns.length + 1, messageId, group, path, pathIndex));
  }
  return { leafId, path, turns, warnings: branchWarnings(index, path, turns, cycle), cycle };
}

/**
 * The growth of the index each branch's turns were last checked at: an API message grows only when
 * the index does (carryClaudeIndex), so a branch checked at the index's current growth is asked for
 * every turn without walking its turns again.
 */
const checkedAt = new WeakMap<ClaudeBranch, { index: ClaudeSessionIndex; generation: number }>();

export function getClaudeBranch(session: Session, leafId: string): ClaudeBranch {
  let cache = branchCaches.get(session);
  if (!cache) {
    cache = { branches: new Map(), turnsByAnswer: new Map() };
    branchCaches.set(session, cache);
  }
  const index = getClaudeIndex(session);
  const generation = indexGeneration(index);
  let branch = cache.branches.get(leafId);
  const checked = branch ? checkedAt.get(branch) : undefined;
  if (branch && checked?.index === index && checked.generation === generation) return branch;
  if (branch) {
    const turns = refreshedTurns(index, cache, branch.path, branch.turns);
    if (turns !== branch.turns) branch = { ...branch, turns, warnings: branchWarnings(index, branch.path, turns, branch.cycle) };
  } else branch = buildBranch(index, cache, leafId);
  cache.branches.set(leafId, branch);
  checkedAt.set(branch, { index, generation });
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

/** The server's cache diagnosis of an API message: the last of its entries that records one. */
function turnVerdict(turn: ClaudeTurn): ServerCacheVerdict | null {
  for (let i = turn.group.length - 1; i >= 0; i--) {
    const verdict = entryCacheVerdict(turn.group[i] as SessionEntry);
    if (verdict) return verdict;
  }
  return null;
}

/**
 * The call's provider ids, message id and request id (the pair ccusage also counts a call by):
 * an `agent-acompact-*` transcript may replay the main conversation's calls with both.
 */
function callIdOf(turn: ClaudeTurn): { callId?: string } {
  const last = lastOf(turn.group) as SessionEntry;
  const messageId = entryMessage(last)?.id;
  const requestId = last.raw.requestId;
  return typeof messageId === "string" && typeof requestId === "string" ? { callId: `${messageId}:${requestId}` } : {};
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

/** The wire messages of a turn: from the records when present, else approximated (a list valid until the next turn's: read it at once). */
function turnWireMessages(session: Session, branch: ClaudeBranch, turn: ClaudeTurn): readonly WireItem[] {
  if (turn.record) return recordMessages(session, turn.record);
  return approximateMessages(getClaudeIndex(session), branch.path, turn.pathIndex);
}

/** The same wire messages in parts, for a carry (wire-carry.ts). */
function turnWireList(session: Session, branch: ClaudeBranch, turn: ClaudeTurn): WireList<WireItem> {
  if (turn.record) {
    const messages = recordMessages(session, turn.record);
    return { base: messages, baseLength: messages.length, extra: [] };
  }
  return approximateParts(getClaudeIndex(session), branch.path, turn.pathIndex);
}

function compactionEvent(boundary: SessionEntry, path: SessionEntry[], from: number, beforeTurn: number | null): CompactionEvent {
  const metadata = isObject(boundary.raw.compactMetadata) ? boundary.raw.compactMetadata : {};
  const segment = isObject(metadata.preservedSegment) ? metadata.preservedSegment : {};
  let summaryChars = 0;
  for (let i = from + 1; i < path.length; i++) {
    const entry = path[i] as SessionEntry;
    if (entry.type === "user" && entry.raw.isCompactSummary === true) {
      const content = entryMessage(entry)?.content;
      summaryChars = isText(content) ? textUnits(content) : stringifyWithTexts(content ?? "").length;
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
  const text = isText(content) ? textString(content) : contentBlocks(content).map((b) => (isObject(b) && isText(b.text) ? textString(b.text) : "")).join(" ");
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

/** What a turn's summary is made of besides its request: cheap to find, compared before a kept summary is used. */
interface SummaryPlace {
  turn: number;
  entryId: string;
  timestamp: TurnSummary["timestamp"];
  afterCompaction: boolean;
  modelSwitched: boolean;
  model: ModelRef | null;
  /** The latest growth of the index that changed an entry on the path before the turn's answer. */
  changedBefore: number;
}

/** A turn's summary, the growth of the index it was made at, and the record cache its request came from. */
interface KeptSummary {
  summary: TurnSummary;
  generation: number;
  records: object | null;
}

/** The wire items of the last turn summarised, with the running total of their sizes. */
const summaryCarry = { wire: new WireCarry<WireItem>(), charEnds: [] as number[] };

/** A turn's wire size and message count, carried from the previous turn's (its items are mostly the same objects). */
function wireSize(list: WireList<WireItem>): { chars: number; count: number } {
  const kept = summaryCarry.wire.update(list);
  const items = summaryCarry.wire.items;
  const charEnds = summaryCarry.charEnds;
  charEnds.length = Math.min(charEnds.length, kept);
  let chars = charEnds.length > 0 ? charEnds[charEnds.length - 1]! : 0;
  for (let i = charEnds.length; i < items.length; i++) {
    chars += wireMessageChars(items[i]!.message);
    charEnds.push(chars);
  }
  return { chars, count: items.length };
}

/**
 * Summaries made per turn: a followed session that grows keeps its turns (the branch's turns move
 * with the index, see carryClaudeBranches), so the analysis of the grown session builds the
 * requests of the new turns only.
 */
const keptSummaries = new WeakMap<ClaudeTurn, KeptSummary>();

/**
 * The summary of `turn`: the kept one while it still holds, else made from the turn's request.
 * A kept summary holds when nothing it was made from changed: no entry before the answer on the
 * path gained a child or an API message entry since (an approximated request reads them), the
 * records are the same cache, and its place in the branch (number, compaction, model switch) is the same.
 */
function turnSummary(session: Session, index: ClaudeSessionIndex, branch: ClaudeBranch, turn: ClaudeTurn, place: SummaryPlace): TurnSummary {
  const records = turn.record ? recordCacheOf(session) : null;
  const kept = keptSummaries.get(turn);
  if (
    kept &&
    kept.generation >= place.changedBefore &&
    kept.records === records &&
    kept.summary.turn === place.turn &&
    kept.summary.entryId === place.entryId &&
    kept.summary.timestamp === place.timestamp &&
    kept.summary.afterCompaction === place.afterCompaction &&
    kept.summary.modelSwitched === place.modelSwitched
  ) {
    return kept.summary;
  }
  const { chars, count } = wireSize(turnWireList(session, branch, turn));
  const last = lastOf(turn.group) as SessionEntry;
  const stopReason = entryMessage(last)?.stop_reason;
  const summary: TurnSummary = {
    turn: place.turn,
    entryId: place.entryId,
    timestamp: place.timestamp,
    model: place.model,
    api: "anthropic-messages",
    thinkingLevel: thinkingLevel(turn),
    messageCount: count,
    estimatedTokens: Math.ceil(chars / 4),
    chars,
    usage: turnUsage(turn),
    serverVerdict: turnVerdict(turn),
    ...callIdOf(turn),
    stopReason: typeof stopReason === "string" ? stopReason : null,
    afterCompaction: place.afterCompaction,
    modelSwitched: place.modelSwitched,
    hasNote: false,
    hasDropped: false,
  };
  keptSummaries.set(turn, { summary, generation: indexGeneration(index), records });
  return summary;
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
  // The latest growth of the index that changed an entry before the one walked (see turnSummary).
  let changedBefore = 0;
  branch.path.forEach((entry, at) => {
    const changedBeforeEntry = changedBefore;
    changedBefore = Math.max(changedBefore, touchedAt(index, entry.id));
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
    const model = turnModel(turn);
    const summary = turnSummary(session, index, branch, turn, {
      turn: turn.turn,
      entryId: (turn.group.find((member) => branch.path[turn.pathIndex] === member) ?? (turn.group[0] as SessionEntry)).id,
      timestamp: (branch.path[turn.pathIndex] as SessionEntry).timestamp,
      afterCompaction: pending.length > 0,
      modelSwitched: turn.turn > 1 && (previousModel?.modelId ?? null) !== (model?.modelId ?? null),
      model,
      changedBefore: changedBeforeEntry,
    });
    turns.push(summary);
    pending = [];
    previousModel = model;
  });
  for (const item of pending) timeline.push(compactionEvent(item.entry, branch.path, item.at, null));
  return {
    branches: listClaudeBranches(session, index),
    leafId,
    turns,
    timeline,
    warnings: [...index.warnings, ...branch.warnings, ...offBranchWarnings(index, branch), ...recordWarnings(session)],
    ...(events.length > 0 ? { events } : {}),
    ...(index.startsMidSession ? { startsMidSession: true } : {}),
  };
}

/** Line numbers named in a warning before "…". */
const NAMED_LINES = 10;

/**
 * The main-chain provider calls of the file that are not turns of the branch shown (answers on
 * other branches: a rewind, an edited prompt), named in one warning so that none is left out
 * unseen. Replies Claude Code wrote itself sent no request and are not calls.
 */
function offBranchWarnings(index: ClaudeSessionIndex, branch: ClaudeBranch): ReaderWarning[] {
  const onBranch = new Set(branch.turns.map((turn) => turn.messageId));
  const lines: number[] = [];
  for (const [messageId, group] of index.messageGroups) {
    const first = group[0];
    if (!first || onBranch.has(messageId) || isSidechain(first) || isSyntheticAssistant(first)) continue;
    lines.push(first.line);
  }
  if (lines.length === 0) return [];
  const named = lines.slice(0, NAMED_LINES).join(", ") + (lines.length > NAMED_LINES ? ", …" : "");
  const calls = lines.length === 1 ? "1 provider call" : `${lines.length} provider calls`;
  return [{ line: lines[0] as number, reason: `${calls} of the file ${lines.length === 1 ? "is" : "are"} on other branches, not in this timeline (line${lines.length === 1 ? "" : "s"} ${named}): pick the branch that ends there to see ${lines.length === 1 ? "it" : "them"}` }];
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

/** The system prompt a `prompt_snapshot` attachment records (FM-CC-10), or null when the entry is none. */
function snapshotOf(entry: SessionEntry): string | null {
  const attachment = entry.raw.attachment;
  if (entry.type === "attachment" && isObject(attachment) && attachment.type === "prompt_snapshot") {
    const parts = attachment.systemPrompt;
    if (Array.isArray(parts) && parts.every((part) => typeof part === "string")) return parts.join("\n\n");
  }
  return null;
}

/**
 * How far each path has been scanned for snapshots, and where the ones found are (in path order):
 * turns asked in order scan the path once between them, and a turn asked again later (a second
 * pass) looks its snapshot up instead of walking back to the path's start.
 */
const snapshotScans = new WeakMap<readonly SessionEntry[], { next: number; found: { at: number; snapshot: string }[] }>();

/** The last `prompt_snapshot` system prompt before the answer (FM-CC-10), for approximations. */
function snapshotSystemPrompt(branch: ClaudeBranch, turn: ClaudeTurn): string | null {
  let scan = snapshotScans.get(branch.path);
  if (!scan) {
    scan = { next: 0, found: [] };
    snapshotScans.set(branch.path, scan);
  }
  for (; scan.next < turn.pathIndex; scan.next++) {
    const snapshot = snapshotOf(branch.path[scan.next] as SessionEntry);
    if (snapshot !== null) scan.found.push({ at: scan.next, snapshot });
  }
  // The last snapshot found before the answer: every entry before it has been scanned.
  const found = scan.found;
  let low = 0;
  let high = found.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (found[mid]!.at < turn.pathIndex) low = mid + 1;
    else high = mid;
  }
  return low > 0 ? found[low - 1]!.snapshot : null;
}

/**
 * The wire items of the last turn's request and the lists made of them (their messages, the
 * messages as sent without markers, their context messages), carried to the next turn's; with the
 * last body's messages and how many leading items the carry still shares with them. One per
 * session: a session's turns extend each other's, another session's do not, and a closed
 * session's carry goes with it.
 */
class RequestCarry {
  readonly wire = new WireCarry<WireItem>();
  readonly messages: Record<string, unknown>[] = [];
  readonly sent: Record<string, unknown>[] = [];
  readonly contexts: ContextMessage[] = [];
  /** The two lists of each kind a walk whose reader keeps no request past the turn after is handed in turn. */
  readonly contextLists = new AlternatingLists<ContextMessage>();
  readonly bodyLists = new AlternatingLists<Record<string, unknown>>();
  /** The context messages the last request was handed, and how many leading ones the carry still shares with them. */
  lastContexts: readonly ContextMessage[] | null = null;
  contextsShared = 0;
  lastBody: readonly unknown[] | null = null;
  lastFirstMarked = 0;
  bodyShared = 0;
  /** Leading wire items the last request shares with the one before it (the same objects). */
  kept = 0;
  /** The last billing block, and what it was made from (`billingOf`). */
  billing: { version: string | null; entrypoint: string | null; textAt: number; block: Record<string, unknown> } | null = null;
  /** The walk being handed the body lists, and the steps the body assembly takes them with (made once, not per turn). */
  walk: ClaudeTurnWalk | null = null;
  readonly bodyList = (): Record<string, unknown>[] => this.bodyLists.next(this.sent, this.walk as ClaudeTurnWalk);
  readonly markedFrom = (index: number): void => this.bodyLists.touched(index);
  /** The parameters of the last approximated body (its model only), kept while the model is. */
  approximateParams: { modelId: string | undefined; params: Record<string, unknown> } | null = null;
  /** Approximated system prompts by text, so an unchanged prompt is the same object turn to turn. */
  readonly approximateSystems = new Map<string, Record<string, unknown>[]>();
  /** The last metadata block and the ids it was made of: every turn of the session sends the same one. */
  metadata: { sessionId: string | null; deviceId: string | null; accountUuid: string | null; block: Record<string, unknown> } | null = null;
}

const requestCarryOf = perObject<Session, RequestCarry>(() => new RequestCarry());

/** The session's metadata block: made once while its ids stay, one object for every turn. */
function carriedMetadata(carry: RequestCarry, sessionId: string | null, ids: ClaudeUserIds | null): Record<string, unknown> {
  const deviceId = ids?.deviceId ?? null;
  const accountUuid = ids?.accountUuid ?? null;
  const last = carry.metadata;
  if (last !== null && last.sessionId === sessionId && last.deviceId === deviceId && last.accountUuid === accountUuid) return last.block;
  const block = metadataBlock(sessionId, ids);
  carry.metadata = { sessionId, deviceId, accountUuid, block };
  return block;
}

/** Brings the request carry to a turn's wire items. */
function carryRequest(carry: RequestCarry, list: WireList<WireItem>): void {
  const kept = carry.wire.update(list);
  carry.kept = kept;
  const items = carry.wire.items;
  carry.bodyShared = Math.min(carry.bodyShared, kept);
  const from = Math.min(kept, carry.messages.length);
  carry.contextsShared = Math.min(carry.contextsShared, from);
  // The items past `from` are new: the lists a walk is handed follow them from there.
  carry.contextLists.cut(from);
  carry.bodyLists.cut(from);
  carry.messages.length = from;
  carry.sent.length = from;
  carry.contexts.length = from;
  for (let i = from; i < items.length; i++) {
    const item = items[i]!;
    carry.messages.push(item.message);
    carry.sent.push(sentMessage(item.message));
    carry.contexts.push(contextMessageOf(item));
  }
}

/**
 * The request's context messages: a copy of the carry's (the request owns its list), or for a
 * walk one of its two lists brought up to date, recorded as beginning with the previous
 * request's, so a later stage (the composition sums) takes over the messages both share instead
 * of comparing them again, turn after turn.
 */
function handedContexts(carry: RequestCarry, walk: ClaudeTurnWalk | null): ContextMessage[] {
  const contexts = walk ? carry.contextLists.next(carry.contexts, walk) : carry.contexts.slice();
  if (carry.lastContexts) recordSharedHead(contexts, carry.lastContexts, Math.min(carry.contextsShared, carry.lastContexts.length));
  carry.lastContexts = contexts;
  carry.contextsShared = contexts.length;
  return contexts;
}

/**
 * The billing block of the carry's messages, and where their first user text is (-1: none). The
 * block depends on the messages up to that text only: while the carry keeps them (every turn until
 * a compaction), the last request's block is taken again, not rendered and looked up per turn.
 */
function billingOf(carry: RequestCarry, version: string | null, entrypoint: string | null): { block: Record<string, unknown>; textAt: number } {
  const last = carry.billing;
  if (last !== null && last.version === version && last.entrypoint === entrypoint && last.textAt >= 0 && last.textAt < carry.kept) return last;
  const textAt = firstUserTextAt(carry.messages);
  const made = { version, entrypoint, textAt, block: billingHeaderBlock(version, entrypoint, carry.messages) };
  carry.billing = made;
  return made;
}

/** Records that the body's messages share their head with the previous body's (the carry knows how many). */
function recordBodyHead(carry: RequestCarry, body: Record<string, unknown>, firstMarked: number): void {
  const messages = body.messages;
  if (!Array.isArray(messages)) return;
  if (carry.lastBody) recordSharedHead(messages, carry.lastBody, Math.min(carry.bodyShared, firstMarked, carry.lastFirstMarked));
  carry.lastBody = messages;
  carry.lastFirstMarked = firstMarked;
  carry.bodyShared = messages.length;
}

/**
 * The parts of an approximated body that are the same from turn to turn are the same objects
 * from turn to turn (the system prompt while its text is, the tools while the header's are), so
 * the work kept by object downstream (markers set, segments, hashes) is done once for them.
 */
const TOOLS_NOT_RECORDED = notRecorded("tool definitions");
/**
 * The markers of an approximated body, one object each for every turn (the body never changes
 * them): the marked system is then found kept by its markers, and no marker is made per turn but
 * the last message's.
 */
const EPHEMERAL = Object.freeze({ type: "ephemeral" });
const SYSTEM_MARKER = Object.freeze({ path: Object.freeze(["system", 0]), value: EPHEMERAL });
const SYSTEM_MARKERS = Object.freeze([SYSTEM_MARKER]);
const approximateToolLists = new WeakMap<readonly ToolDefinition[], Record<string, unknown>[]>();
const APPROXIMATE_SYSTEM_LIMIT = 16;

function approximateTools(tools: readonly ToolDefinition[]): Record<string, unknown>[] {
  let list = approximateToolLists.get(tools);
  if (list === undefined) {
    list = tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
    approximateToolLists.set(tools, list);
  }
  return list;
}

function approximateSystem(approximateSystems: Map<string, Record<string, unknown>[]>, text: string): Record<string, unknown>[] {
  let system = approximateSystems.get(text);
  if (system === undefined) {
    system = [{ type: "text", text }];
    if (approximateSystems.size >= APPROXIMATE_SYSTEM_LIMIT) approximateSystems.clear();
    approximateSystems.set(text, system);
  }
  return system;
}

/** An approximated body's parameters: its model only, one object while the model stays. */
function approximateParams(carry: RequestCarry, modelId: string | undefined): Record<string, unknown> {
  const last = carry.approximateParams;
  if (last !== null && last.modelId === modelId) return last.params;
  const params = { model: modelId ?? notRecorded("model") };
  carry.approximateParams = { modelId, params };
  return params;
}

/**
 * A walk of every turn whose reader reads each request before asking for the next and keeps none
 * past the turn after (PipelineHooks.reuseRequestLists): its message lists are two handed out in
 * turn, brought up to date with the new items, instead of a copy of the whole context per turn.
 */
type ClaudeTurnWalk = object;

/**
 * Every turn's request in order, as the pipeline's one-turn entry point builds each (with the
 * captured model facts applied); with `reuseRequestLists` their message lists are a walk's two.
 */
export function* iterateClaudeTurnRequests(session: Session, options: PipelineOptions, hooks: PipelineHooks): Generator<{ turn: number; request: BuiltRequest }> {
  const effective = withCaptureModelFacts(options);
  const walk: ClaudeTurnWalk | null = hooks.reuseRequestLists === true ? {} : null;
  const count = countClaudeTurns(session, options);
  for (let turn = 1; turn <= count; turn++) yield { turn, request: buildClaudeTurnRequest(session, effective, turn, walk) };
}

export function buildClaudeTurnRequest(session: Session, options: PipelineOptions, turnNumber: number, walk: ClaudeTurnWalk | null = null): BuiltRequest {
  const index = getClaudeIndex(session);
  const { branch, turn } = selectedTurn(session, options, turnNumber);
  const carry = requestCarryOf(session);
  carryRequest(carry, turnWireList(session, branch, turn));
  const modelRef = turnModel(turn);
  const model = resolveModel(modelRef, "anthropic-messages", options.modelOverrides);
  const warnings: string[] = [];
  const entryVersion = stringField((turn.group[0] as SessionEntry).raw, "version");
  // Read at once below (the body's messages are a copy of the sent forms): the carry's own list.
  const wireMessages = carry.messages;
  carry.walk = walk;
  const carried: SentMessages = walk ? { sent: carry.sent, bodyList: carry.bodyList, markedFrom: carry.markedFrom } : { sent: carry.sent };
  const userIds = claudeUserIds(sessionConstant(options, CLAUDE_USER_IDS)?.value);
  const labels: string[] = [];
  // The suffix is derived from the request (./billing.ts) when the version and a user text are known.
  const billing = billingOf(carry, turn.record?.version ?? entryVersion, index.entrypoint);
  if ((turn.record?.version ?? entryVersion) === null || billing.textAt === -1) labels.push("billing header's build suffix (in the first system block)");
  if (!userIds) labels.push("device and account ids (metadata.user_id)");
  let body: Record<string, unknown>;
  const shape = turn.record?.shapeHash ? index.shapes.get(turn.record.shapeHash) : undefined;
  if (turn.record) {
    if (!shape) labels.push("system prompt and tools (the file lacks the record of this request's shape)");
    body = assembleClaudeBody(
      {
        params: turn.record.params,
        system: shape ? shape.system : notRecorded("system prompt (the file lacks the record of this request's shape)"),
        tools: shape ? shape.tools : notRecorded("tool definitions (the file lacks the record of this request's shape)"),
        messages: wireMessages,
        cacheControl: turn.record.cacheControl,
        billingBlock: billing.block,
        metadata: carriedMetadata(carry, index.sessionId, userIds),
      },
      warnings,
      carried,
    );
  } else {
    labels.push("approximated: the file holds no request records for this turn, so its messages are rebuilt from the conversation");
    const snapshot = snapshotSystemPrompt(branch, turn);
    const header = options.header ?? null;
    const systemText = snapshot ?? header?.systemPrompt ?? null;
    if (systemText === null) labels.push("system prompt");
    const tools = header?.tools ? approximateTools(header.tools) : TOOLS_NOT_RECORDED;
    if (!header?.tools) labels.push("tools");
    labels.push("request parameters (max_tokens, thinking, context_management, output_config)");
    const messages = wireMessages;
    const lastIndex = messages.length - 1;
    const lastContent = lastIndex >= 0 ? contentBlocks((messages[lastIndex] as Record<string, unknown>).content) : [];
    body = assembleClaudeBody(
      {
        params: approximateParams(carry, modelRef?.modelId),
        system: approximateSystem(carry.approximateSystems, systemText ?? "[not recorded: system prompt]"),
        tools,
        messages,
        // FM-CC-21 [INF]: breakpoints on the system block and the last block of the last message.
        cacheControl: lastContent.length > 0 ? [SYSTEM_MARKER, { path: ["messages", lastIndex, "content", lastContent.length - 1], value: EPHEMERAL }] : SYSTEM_MARKERS,
        billingBlock: billing.block,
        metadata: carriedMetadata(carry, index.sessionId, userIds),
      },
      warnings,
      carried,
    );
  }
  recordBodyHead(carry, body, carried.firstMarked ?? 0);
  for (const warning of warnings) labels.push(warning);
  return {
    api: "anthropic-messages",
    body,
    messages: handedContexts(carry, walk),
    dropped: [],
    model,
    notRecorded: labels,
  };
}
