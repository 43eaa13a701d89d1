// Turns of a Kimi Code wire file: one per `llm.request` of kind "loop" (history.ts), each rebuilt
// as the Chat Completions body Kimi Code sends (request.ts). Compactions become timeline events
// before the next turn. The file records a fingerprint of every request it sent (`llm.request`:
// the system prompt's and the tool list's SHA-256, the number of messages, the model), checked
// against the rebuilt request of its turn (checkRequestRecords).
import type { BuiltRequest, CompactionEvent, ModelRef, PipelineOptions, RecordedUsage, Session, TurnSummary } from "../../model";
import { resolveModel } from "../../models/catalogue";
import type { SessionAnalysis, TurnContext } from "../../pipeline/types";
import { analyzeOneBranch, oneBranchSummary, type TurnPlace } from "../../pipeline/oneBranchAnalysis";
import { sessionConstant } from "../../captures/fact";
import { isObject } from "../../util/is-object";
import { sha256Hex } from "../../util/sha256";
import type { RequestDumpCheck } from "../descriptor";
import { KIMI_CACHE_KEY } from "./capture";
import { getKimiIndex, type KimiIndex, type KimiTurn } from "./history";
import { buildKimiRequest, type KimiRequest } from "./request";

const API = "openai-completions" as const;

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** The model the request record names, under the provider protocol it names ("openai", "anthropic", "kimi", …). */
function turnModel(turn: KimiTurn): ModelRef | null {
  const { model, provider } = turn.request.raw;
  return typeof model === "string" && model.length > 0 ? { provider: typeof provider === "string" ? provider : "openai", modelId: model } : null;
}

/** A `usage.record` in the shared shape: its input counts are disjoint (other, cache read, cache creation). */
function turnUsage(turn: KimiTurn): RecordedUsage | null {
  const usage = turn.usage?.raw.usage;
  if (!isObject(usage)) return null;
  const input = num(usage.inputOther);
  const output = num(usage.output);
  const cacheRead = num(usage.inputCacheRead);
  const cacheWrite = num(usage.inputCacheCreation);
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite };
}

function selectedTurn(index: KimiIndex, turn: number): KimiTurn {
  const found = Number.isInteger(turn) ? index.turns[turn - 1] : undefined;
  if (!found) throw new RangeError(`turn ${turn} does not exist: the session has ${index.turns.length} requests`);
  return found;
}

/** The session folder's name: from the file's path when it was read with it, else from a capture of the session. */
export function sessionIdOf(session: Session, options: PipelineOptions): string | null {
  const id = session.header?.sessionId;
  if (typeof id === "string") return id;
  const learnt = sessionConstant(options, KIMI_CACHE_KEY)?.value;
  return typeof learnt === "string" ? learnt : null;
}

function turnRequest(session: Session, options: PipelineOptions, turnNumber: number): { request: KimiRequest; turn: KimiTurn } {
  const turn = selectedTurn(getKimiIndex(session), turnNumber);
  return { request: buildKimiRequest(turn, sessionIdOf(session, options)), turn };
}

function thinkingOf(turn: KimiTurn): string {
  const effort = turn.request.raw.thinkingEffort;
  return typeof effort === "string" ? effort : "off";
}

function compactionEvent(index: KimiIndex, position: number): CompactionEvent {
  const compaction = index.compactions[position]!;
  const next = index.turns[compaction.turnsBefore];
  return {
    kind: "compaction",
    entryId: compaction.entry.id,
    beforeTurn: next ? next.turn : null,
    timestamp: compaction.entry.timestamp,
    tokensBefore: compaction.tokensBefore,
    firstKeptEntryId: null,
    summaryChars: compaction.summary.length,
  };
}

function turnSummary(session: Session, options: PipelineOptions, turn: KimiTurn, place: TurnPlace): TurnSummary {
  const { request } = turnRequest(session, options, turn.turn);
  const messages = request.body.messages as unknown[];
  const chars = JSON.stringify(messages).length + (Array.isArray(request.body.tools) ? JSON.stringify(request.body.tools).length : 0);
  return oneBranchSummary({ turn: turn.turn, entry: turn.request, api: API, thinkingLevel: thinkingOf(turn), messageCount: messages.length, chars, usage: turnUsage(turn) }, place);
}

export function analyzeKimiSession(session: Session, options: PipelineOptions): SessionAnalysis {
  const index = getKimiIndex(session);
  return analyzeOneBranch(session, index, { compactionEvent: (position) => compactionEvent(index, position), modelOf: turnModel, summary: (turn, place) => turnSummary(session, options, turn, place) });
}

export function countKimiTurns(session: Session): number {
  return getKimiIndex(session).turns.length;
}

export function buildKimiTurnContext(session: Session, options: PipelineOptions, turnNumber: number): TurnContext {
  const { request, turn } = turnRequest(session, options, turnNumber);
  return {
    turn: turn.turn,
    entryId: turn.request.id,
    messages: request.messages,
    dropped: [],
    model: turnModel(turn),
    thinkingLevel: thinkingOf(turn),
    api: API,
    pathEntryIds: [...new Set(turn.history.map((message) => message.entryId))],
    compactionId: turn.compaction?.entry.id ?? null,
    warnings: [],
  };
}

export function buildKimiTurnRequest(session: Session, options: PipelineOptions, turnNumber: number): BuiltRequest {
  const { request, turn } = turnRequest(session, options, turnNumber);
  return { api: API, body: request.body, messages: request.messages, dropped: [], model: resolveModel(turnModel(turn), API, options.modelOverrides), notRecorded: request.notRecorded };
}

/** What one `llm.request` record says of its request, and what the rebuilt request says. */
function fingerprintDifference(turn: KimiTurn, request: KimiRequest): { path: string; detail: string } | null {
  const record = turn.request.raw;
  const system = turn.systemPrompt;
  const systemHash = system === null ? null : sha256Hex(system);
  if (systemHash !== record.systemPromptHash) return { path: "messages[0]", detail: `system prompt SHA-256 rebuilt ${systemHash ?? "(not recorded)"} / recorded ${String(record.systemPromptHash)}` };
  const toolsHash = turn.tools === null ? null : sha256Hex(JSON.stringify(turn.tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }))));
  if (toolsHash !== record.toolsHash) return { path: "tools", detail: `tool list SHA-256 rebuilt ${toolsHash ?? "(not recorded)"} / recorded ${String(record.toolsHash)}` };
  if (request.projectedCount !== record.messageCount) return { path: "messages", detail: `messages after the system prompt: rebuilt ${request.projectedCount} / recorded ${String(record.messageCount)}` };
  if (request.body.model !== record.model) return { path: "model", detail: `rebuilt ${JSON.stringify(request.body.model)} / recorded ${JSON.stringify(record.model)}` };
  return null;
}

/** Each `llm.request` record of the main conversation against the rebuilt request of its turn. */
export function checkRequestRecords(session: Session, options: PipelineOptions): RequestDumpCheck[] {
  return getKimiIndex(session).turns.map((turn) => {
    const { request } = turnRequest(session, options, turn.turn);
    const difference = fingerprintDifference(turn, request);
    const step = typeof turn.request.raw.turnStep === "string" ? ` (turn.step ${turn.request.raw.turnStep})` : "";
    return {
      fileName: `${session.fileName} line ${turn.request.line}`,
      reason: `llm.request${step}`,
      turn: turn.turn,
      equal: difference === null,
      firstDifference: difference?.path ?? null,
      detail: difference?.detail ?? null,
      notRebuilt: ["the message contents (the record holds their number only)"],
      notRecorded: request.notRecorded,
      unmatched: null,
    };
  });
}

export function describeRequestRecord(check: RequestDumpCheck): string {
  const verdict = check.equal ? "system prompt, tools, message count and model equal the rebuilt request" : `differs at ${check.firstDifference}: ${check.detail}`;
  return `${check.fileName}, ${check.reason}, turn ${check.turn}: ${verdict}`;
}
