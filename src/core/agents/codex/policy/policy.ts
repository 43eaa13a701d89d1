// The Codex CLI compaction policy (local "memento" compaction with a custom provider), inferred from
// the recording (the spec has no policy section: formats.md FM-CX-14 … FM-CX-18 and fixture
// codex/exec-autocompact; every rule is documented in docs/compaction-policies/codex.md with its
// CP-CX-INF id). At turn N: trigger = the turn's recorded total tokens ≥ the auto-compact token
// limit; summariser request = turn N's main request + its output items + the compaction prompt,
// without tools (FM-CX-15); kept = the real user messages (within a token budget) placed with the
// re-injected initial context and the summary into the replacement history (FM-CX-17).
import { emptyResultParts } from "../../../simulate/empty-result";
import { codexInference } from "./inference";
import type { ContextMessage, Session } from "../../../model";
import { getCodexIndex, isOutputItem, type CodexRolloutIndex, type CodexTurn, type RolloutItem } from "../rollout-index";
import { itemContext } from "../context";
import { checkSummariserRequests } from "../../../simulate/findings";
import { cacheEffect } from "../../../simulate/prefix";
import { afterCompaction, capturedFieldUse, compactOrSkipVerdict, entryRange } from "../../../simulate/single-call-parts";
import { describedSlotText, fillSlot } from "../../../simulate/instruction-slots";
import { resolveSummary } from "../../../simulate/summary-text";
import { estimateJsonTokens, estimateTextTokens } from "../../../simulate/text-tokens";
import { makeVerdict } from "../../../simulate/verdict";
import { simulationResult, tokenSummary } from "../../../simulate/result";
import type {
  AfterCompaction,
  CompactionPolicy,
  Finding,
  Partition,
  PolicyParameterSpec,
  SimulatedSummariserRequest,
  SimulationContext,
  SimulationInput,
  SimulationResult,
  TriggerDecision,
  Verdict,
} from "../../../simulate/types";
import {
  CODEX_BASE_ITEM_ID_SLOT,
  CODEX_CLIENT_METADATA_SLOT,
  CODEX_COMPACT_PROMPT_SLOT,
  CODEX_SLOTS,
  CODEX_SUMMARY_PREFIX_SLOT,
  itemText,
  readCapturedCodexRequest,
  recordedSummaryItem,
  recordedSummaryPrefix,
} from "./slots";
import { isObject } from "../../../util/is-object";

const CODEX_PARAMETERS: readonly PolicyParameterSpec[] = [
  { name: "autoCompactTokenLimit", label: "model_auto_compact_token_limit", type: "number", default: null, ruleId: "CP-CX-INF-1", inferred: "CP-CX-INF-1", description: "The configured limit (config.toml; not in the rollout — the fixture used 13500). null: autoCompactRatio × the context window." },
  { name: "autoCompactRatio", label: "default limit ratio", type: "number", default: 0.9, ruleId: "CP-CX-INF-1", inferred: "CP-CX-INF-1", description: "Without a configured limit: floor(ratio × model_context_window)." },
  { name: "userMessageTokenBudget", label: "retained user messages budget", type: "number", default: 20000, ruleId: "CP-CX-INF-3", inferred: "CP-CX-INF-3", description: "The newest real user messages kept verbatim, up to this many chars/4 tokens." },
];

const CHECKED: readonly Verdict[] = ["not-triggered", "nothing-to-compact", "compacted"];

function notRecordedText(what: string): string {
  return `[not recorded: ${what}]`;
}

/**
 * CP-CX-INF-2: the summarised history ends after turn N's output items and the tool outputs that
 * answer them; for a recorded compaction it is the length its summariser saw.
 */
function summarisedEnd(index: CodexRolloutIndex, turn: CodexTurn, recordedEntryId: string | undefined): number {
  const recorded = recordedEntryId ? index.compactions.find((c) => c.entry.id === recordedEntryId) : undefined;
  if (recorded && recorded.fromWindow === turn.window) return recorded.historyLength;
  const window = index.windows[turn.window] ?? [];
  const stops = new Set(index.compactions.filter((c) => c.fromWindow === turn.window).map((c) => c.historyLength));
  let end = turn.historyLength;
  while (end < window.length && !stops.has(end)) {
    const item = window[end]!;
    if (!isOutputItem(item) && item.type !== "function_call_output" && item.type !== "custom_tool_call_output") break;
    end++;
  }
  return end;
}

/** A context wrapper such as `<environment_context>…</environment_context>`, not a user's words. */
function isContextWrapper(text: string): boolean {
  const trimmed = text.trim();
  const open = /^<([a-z_]+)>/.exec(trimmed);
  return open !== null && trimmed.endsWith(`</${open[1]}>`);
}

/** CP-CX-INF-3: real user messages (no context wrappers, no earlier summaries), newest within the budget. */
export function retainedUserMessages(history: readonly RolloutItem[], budget: number, summaryPrefix: string | null): RolloutItem[] {
  const users = history.filter((item) => {
    if (item.type !== "message" || item.role !== "user") return false;
    const text = itemText(item);
    if (isContextWrapper(text)) return false;
    return summaryPrefix === null || !text.startsWith(summaryPrefix);
  });
  const kept: RolloutItem[] = [];
  let used = 0;
  for (let i = users.length - 1; i >= 0; i--) {
    const tokens = estimateTextTokens(itemText(users[i]));
    if (used + tokens > budget && kept.length > 0) break;
    used += tokens;
    kept.unshift(users[i]!);
  }
  return kept;
}

/** The initial context Codex re-injects (FM-CX-11, FM-CX-17): the newest developer message and environment context. */
function initialContext(history: readonly RolloutItem[]): RolloutItem[] {
  let developer: RolloutItem | null = null;
  let environment: RolloutItem | null = null;
  for (const item of history) {
    if (item.type !== "message") continue;
    if (item.role === "developer") developer = item;
    else if (item.role === "user" && itemText(item).trim().startsWith("<environment_context>")) environment = item;
  }
  return [developer, environment].filter((i): i is RolloutItem => i !== null);
}

function contextWindowOf(input: SimulationInput, context: SimulationContext, index: CodexRolloutIndex, turn: CodexTurn): { value: number; source: string } {
  if (input.limits?.contextWindow !== undefined) return { value: input.limits.contextWindow, source: context.limits.contextWindowSource };
  const next = index.turns[turn.turn] ?? turn;
  const recorded = next.task?.model_context_window ?? turn.task?.model_context_window;
  if (typeof recorded === "number") return { value: recorded, source: "task_started.model_context_window" };
  return { value: context.limits.contextWindow, source: context.limits.contextWindowSource };
}

function codexTrigger(input: SimulationInput, context: SimulationContext, index: CodexRolloutIndex, turn: CodexTurn): TriggerDecision {
  const p = context.parameters;
  const total = turn.usage && typeof turn.usage.total_tokens === "number" ? turn.usage.total_tokens : 0;
  const window = contextWindowOf(input, context, index, turn);
  const ratio = typeof p.autoCompactRatio === "number" ? p.autoCompactRatio : 0.9;
  const configured = typeof p.autoCompactTokenLimit === "number";
  const limit = configured ? (p.autoCompactTokenLimit as number) : Math.floor(window.value * ratio);
  const manual = input.manual === true;
  const result = total >= limit;
  return {
    evaluated: !manual,
    manual,
    operands: [
      { name: "totalTokens", value: total, source: "token_usage_record of turn N (FM-CX-9)" },
      configured
        ? { name: "autoCompactTokenLimit", value: limit, source: "parameter autoCompactTokenLimit (model_auto_compact_token_limit)" }
        : { name: "contextWindow", value: window.value, source: `${window.source}; limit = floor(${ratio} × window) [INF CP-CX-INF-1]` },
    ],
    operator: ">=",
    left: total,
    right: limit,
    result,
    expression: `${total} ≥ ${configured ? limit : `floor(${ratio} × ${window.value}) = ${limit}`} → ${result ? "compact" : "no"}${manual ? " (manual /compact: trigger skipped)" : ""}`,
    ruleId: "FM-CX-14",
    estimator: "recorded total tokens of the last response (FM-CX-14)",
  };
}

/** client_metadata of the summariser request: the main request's, re-labelled (FM-CX-15). */
function summariserClientMetadata(main: unknown, nextTask: Record<string, unknown> | null, manual: boolean, phase: string): Record<string, unknown> {
  if (!isObject(main)) return { $notRecorded: "client_metadata" };
  const turnId = nextTask && typeof nextTask.turn_id === "string" ? nextTask.turn_id : null;
  const rootTurnId = nextTask && typeof nextTask.root_turn_id === "string" ? nextTask.root_turn_id : turnId;
  let metadata: Record<string, unknown> = {};
  try {
    metadata = typeof main["x-codex-turn-metadata"] === "string" ? (JSON.parse(main["x-codex-turn-metadata"]) as Record<string, unknown>) : {};
  } catch {
    metadata = {};
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (key === "model") continue;
    if (key === "turn_id") out[key] = turnId ?? notRecordedText("turn id");
    else if (key === "root_turn_id") out[key] = rootTurnId ?? notRecordedText("root turn id");
    else if (key === "request_kind") out[key] = "compaction";
    else out[key] = value;
  }
  out.compaction = { trigger: manual ? "manual" : "auto", reason: "context_limit", implementation: "responses", phase, strategy: "memento" };
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(main)) {
    if (key === "x-codex-turn-metadata") result[key] = JSON.stringify(out);
    else if (key === "turn_id") result[key] = turnId ?? notRecordedText("turn id");
    else if (key === "root_turn_id") result[key] = rootTurnId ?? notRecordedText("root turn id");
    else result[key] = value;
  }
  return result;
}

function userMessageItem(text: string, id: string | null): RolloutItem {
  return { type: "message", ...(id !== null ? { id } : {}), role: "user", content: [{ type: "input_text", text }] };
}

/** What every phase of one Codex simulation reads: turn N's window, its outputs and the next task. */
interface CodexScene {
  session: Session;
  turn: CodexTurn;
  manual: boolean;
  window: RolloutItem[];
  entryIds: string[];
  end: number;
  outputs: RolloutItem[];
  mainBody: Record<string, unknown>;
  mainInput: RolloutItem[];
  nextTask: Record<string, unknown> | null;
  phase: "mid_turn" | "pre_turn";
}

function codexScene(input: SimulationInput, context: SimulationContext, index: CodexRolloutIndex, turn: CodexTurn): CodexScene {
  const window = index.windows[turn.window] ?? [];
  const end = summarisedEnd(index, turn, input.recordedCompactionEntryId);
  const mainBody = context.turnRequest.body;
  const nextTurn = index.turns[turn.turn];
  return {
    session: input.session,
    turn,
    manual: input.manual === true,
    window,
    entryIds: index.windowEntryIds[turn.window] ?? [],
    end,
    outputs: window.slice(turn.historyLength, end),
    mainBody,
    mainInput: Array.isArray(mainBody.input) ? (mainBody.input as RolloutItem[]) : [],
    nextTask: nextTurn && nextTurn.taskIndex > turn.taskIndex ? nextTurn.task : null,
    phase: nextTurn && nextTurn.taskIndex === turn.taskIndex ? "mid_turn" : "pre_turn",
  };
}

/** (3) The summariser request (FM-CX-15): the main request's input, turn N's outputs and the prompt. */
function codexSummariser(input: SimulationInput, scene: CodexScene): { request: SimulatedSummariserRequest; captured: boolean } {
  const { mainBody, mainInput, outputs, nextTask, manual, phase } = scene;
  const filled = fillSlot(CODEX_SLOTS[0]!, input.instructions);
  const baseItemId = input.instructions?.slots[CODEX_BASE_ITEM_ID_SLOT] ?? null;
  const capturedMetadata = input.instructions?.slots[CODEX_CLIENT_METADATA_SLOT] ?? null;
  const sentInput: RolloutItem[] = [...mainInput, ...outputs, userMessageItem(filled.text, null)];
  if (baseItemId !== null && isObject(sentInput[0])) sentInput[0] = { ...sentInput[0], id: baseItemId };
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(mainBody)) {
    if (key === "input") body.input = sentInput;
    else if (key === "tools") body.tools = [];
    else if (key === "parallel_tool_calls") body.parallel_tool_calls = false;
    else if (key === "client_metadata") body.client_metadata = capturedMetadata !== null ? (JSON.parse(capturedMetadata) as unknown) : summariserClientMetadata(value, nextTask, manual, phase);
    else body[key] = value;
  }
  const request: SimulatedSummariserRequest = {
    role: "summary",
    api: "openai-responses",
    form: "replay",
    body,
    maxTokens: null,
    dataPart: sentInput.slice(1, -1),
    instructionSlots: [filled.use, capturedFieldUse(input.instructions, CODEX_BASE_ITEM_ID_SLOT, baseItemId), capturedFieldUse(input.instructions, CODEX_CLIENT_METADATA_SLOT, capturedMetadata)],
    cache: cacheEffect(`turn ${input.turn} main request`, mainBody, body),
    focusPlacement: input.focus ? "none: Codex's compaction takes no focus text (not used)" : null,
    redaction: "none",
    notes: [
      "the main request's input + turn N's output items + the prompt as a user message without id; tools [], parallel_tool_calls false (FM-CX-15)",
      `client_metadata: request_kind compaction, phase ${phase} [INF CP-CX-INF-4]`,
      "with OpenAI's own provider Codex may compact server-side instead: then no local summariser request exists (FM-CX-15)",
    ],
    findingInputs: { instructionTexts: [filled.text], turnTexts: sentInput.slice(1, -1).map(itemText).filter((t) => t.length > 0), userControlledTexts: [], checkpointInstruction: false },
  };
  return { request, captured: filled.captured };
}

/** (2) Partition: the whole history is summarised; real user messages are also kept (CP-CX-INF-3). */
function codexPartition(input: SimulationInput, context: SimulationContext, scene: CodexScene): { partition: Partition; history: RolloutItem[]; kept: RolloutItem[]; prefixSlot: string | null } {
  const { window, end, entryIds, mainInput, turn } = scene;
  const p = context.parameters;
  const history = window.slice(0, end);
  const recordedPrefix = recordedSummaryPrefix(scene.session);
  const prefixSlot = input.instructions?.slots[CODEX_SUMMARY_PREFIX_SLOT] ?? recordedPrefix;
  const budget = typeof p.userMessageTokenBudget === "number" ? p.userMessageTokenBudget : 20000;
  const kept = retainedUserMessages(history, budget, prefixSlot);
  const keptIds = kept.map((item) => (typeof item.id === "string" ? item.id : "")).filter((id) => id.length > 0);
  const positionOf = (item: RolloutItem) => history.indexOf(item);
  const partition = {
    kept: [entryRange("kept", null, null, kept.map((item) => entryIds[positionOf(item)] ?? "").filter((id) => id.length > 0), kept.reduce((a, item) => a + estimateJsonTokens(item), 0), "real user messages (retained)", "CP-CX-INF-3")],
    summarised: [entryRange("summarised", 1, mainInput.length, entryIds.slice(0, end), estimateJsonTokens(history), "the whole history and turn N's output", "FM-CX-15")],
    pruned: [],
    droppedWithoutSummary: [],
    keptIds,
    details: { summarisedItems: end, retainedUserMessages: kept.length, phase: scene.phase, window: turn.window },
  };
  return { partition, history, kept, prefixSlot };
}

/** (4) After: base + replacement history (FM-CX-17). */
function codexAfter(input: SimulationInput, scene: CodexScene, history: RolloutItem[], kept: RolloutItem[], prefixSlot: string | null): AfterCompaction {
  const { session, mainBody, mainInput, turn } = scene;
  const recordedItem = input.recordedCompactionEntryId ? recordedSummaryItem(session, input.recordedCompactionEntryId) : null;
  const summary = resolveSummary({ session, source: input.summary, recorded: recordedItem ? itemText(recordedItem) : null, headings: ["## Progress and decisions", "## Context and preferences", "## Next steps", "## Critical data"] });
  const prefix = prefixSlot ?? `${describedSlotText(CODEX_SLOTS[1]!)}\n`;
  const summaryItem = userMessageItem(`${prefix}${summary.text}`, notRecordedText("summary item id"));
  const injected = initialContext(history).map((item) => ({ ...item, id: notRecordedText("re-injected item id") }));
  const lastKept = kept[kept.length - 1];
  const replacement = lastKept ? [...kept.slice(0, -1), ...injected, lastKept, summaryItem] : [...injected, summaryItem];
  const afterBody: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(mainBody)) afterBody[key] = key === "input" ? [mainInput[0], ...replacement] : value;
  const afterMessages: ContextMessage[] = [mainInput[0], ...replacement].filter(isObject).map((item) => itemContext(item as RolloutItem, null));
  return afterCompaction({
    summary,
    messages: afterMessages,
    api: "openai-responses",
    turnBody: mainBody,
    body: afterBody,
    breakReason: "Codex compaction: the replacement history replaces the conversation",
    storedRecord: { type: "compacted", message: `${prefix}${summary.text}`, replacement_history: replacement, window_number: turn.window + 1 },
  });
}

function simulateCodex(input: SimulationInput, context: SimulationContext): SimulationResult {
  if (input.session.formatId !== "codex") throw new Error(`the codex policy needs a Codex rollout (got ${input.session.formatLabel})`);
  const index = getCodexIndex(input.session);
  const turn = index.turns[input.turn - 1];
  if (!turn) throw new RangeError(`turn ${input.turn} does not exist: the rollout has ${index.turns.length} turns`);
  const trigger = codexTrigger(input, context, index, turn);
  if (input.triggerOnly === true) return emptyResultParts(codexPolicy, input, context, trigger);
  const scene = codexScene(input, context, index, turn);
  const { request, captured } = codexSummariser(input, scene);
  const { partition, history, kept, prefixSlot } = codexPartition(input, context, scene);
  const after = codexAfter(input, scene, history, kept, prefixSlot);

  const findings: Finding[] = [...checkSummariserRequests([request])];
  if (!captured) findings.push({ id: "instruction-slot-described", severity: "info", message: `slot "${CODEX_COMPACT_PROMPT_SLOT}" holds Contextscope's description, not Codex's text`, location: { request: 0 }, ruleId: "FM-CX-15" });
  const { verdict, ruleId } = compactOrSkipVerdict(history.length === 0, scene.manual, trigger, { compacted: "FM-CX-16", nothingToCompact: "FM-CX-15" });
  return simulationResult(codexPolicy, input, context, {
    trigger,
    partition,
    summariserRequests: [request],
    after,
    verdict: makeVerdict(codexPolicy, verdict, ruleId, verdict === "not-triggered" ? trigger.expression : null),
    tokens: tokenSummary("chars/4 of the input items (JSON)", estimateJsonTokens(scene.mainInput), estimateJsonTokens(after.request?.body.input), estimateJsonTokens(request.body)),
    findings,
    inferred: ["CP-0-1", "CP-0-2", "CP-0-3", "CP-CX-INF-1", "CP-CX-INF-2", "CP-CX-INF-3", "CP-CX-INF-4", "CP-CX-INF-5"],
  });
}

export const codexPolicy: CompactionPolicy = {
  id: "codex",
  label: "Codex CLI (inferred from recordings)",
  rulePrefix: "CP-CX",
  parameters: CODEX_PARAMETERS,
  notApplicable: (session) =>
    session.formatId === "codex"
      ? null
      : `Codex's compaction works on a Codex rollout (its response items, token_count events and the user messages it carries over); this ${session.formatLabel} has none of them. The opencode, hermes and deepseek-harness policies run on any session.`,
  checkedVerdicts: CHECKED,
  instructionSlots: CODEX_SLOTS,
  simulate: simulateCodex,
  extractInstructions(body, source) {
    return readCapturedCodexRequest(body, source)?.values ?? null;
  },
  readCaptured: readCapturedCodexRequest,
  inference: codexInference,
};
