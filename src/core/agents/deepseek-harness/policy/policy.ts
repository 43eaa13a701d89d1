// The deepseek-harness policy (compaction-policies.md §3): ratio trigger, retain-walk range with
// tool-pairing balance, a summariser request that replays the routed request's head byte for byte
// and appends the compaction instruction as a trailing user message (no focus input), checkpoint
// framing, the shrink guard, retries and the durable events; the model-free tool-result prune
// before the range is chosen (CP-DH-3) and the provider-overflow recovery (CP-DH-4).
import type { ApiId, ContextMessage, LlmMessage } from "../../../model";
import { isText, textString } from "../../../text/text";
import { resolveModel } from "../../../models/catalogue";
import { getSerializer } from "../../../providers";
import { messageTokens } from "../../../tokens/charEstimate";
import { checkSummariserRequests, checkToolPairsAcrossCut, detectUnfinishedSummaries, unfinishedSummaryFindings } from "../../../simulate/findings";
import { followingTurnsFromPrefix } from "../../../simulate/following";
import { fillSlot, mergeSlotValues } from "../../../simulate/instruction-slots";
import { applyLimits } from "../../../simulate/limits";
import { cacheEffect, findPrefixBreak, prefixText } from "../../../simulate/prefix";
import { userTurnTexts } from "../../pi/policies/result-parts";
import { emptyResultParts } from "../../../simulate/empty-result";
import { resolveSummary } from "../../../simulate/summary-text";
import { estimateJsonTokens, estimateTextTokens } from "../../../simulate/text-tokens";
import { makeVerdict } from "../../../simulate/verdict";
import { simulationResult, tokenSummary } from "../../../simulate/result";
import type {
  AfterCompaction,
  CompactionPolicy,
  Finding,
  Partition,
  PartitionRange,
  PolicyParameterSpec,
  SimulatedSummariserRequest,
  SimulationContext,
  SimulationInput,
  SimulationResult,
  TriggerDecision,
  VerdictResult,
} from "../../../simulate/types";
import { frameCheckpoint, outputError, shrinkGuard, type DeepseekFinish } from "./checkpoint";
import { DEEPSEEK_DEFAULTS, deepseekBudget, type DeepseekBudget, type DeepseekConfig } from "./config";
import { capturedInstruction, CHECKPOINT_PREAMBLE_SLOT, DEEPSEEK_SECTIONS, DEEPSEEK_SLOTS, deepseekInstructionSlot, type InstructionVersion } from "./instruction";
import { selectRange, type RangeSelection, type SurfaceNode } from "./range";
import { deepseekInference } from "./inference";
import { DEEPSEEK_PRUNE_DEFAULTS, deepseekPruneConfigError, pruneSurface, type DeepseekPruneConfig, type DeepseekPruneResult } from "./prune";
import { harnessBody, recordedContextWindow, recordedPreamble, recordedSummaryText, recordedSurface } from "./sessionReplay";

const DEEPSEEK_PARAMETERS: readonly PolicyParameterSpec[] = [
  { name: "thresholdRatio", label: "thresholdRatio", type: "number", default: 0.8, ruleId: "CP-DH-1", description: "thresholdTokens = floor(window × ratio)." },
  { name: "retainRatio", label: "retainRatio", type: "number", default: 0.16, ruleId: "CP-DH-1", description: "retainTokens = floor(window × ratio) unless retainTokens is set." },
  { name: "retainTokens", label: "retainTokens", type: "number", default: null, ruleId: "CP-DH-2", description: "Absolute retain budget (wins over the ratio)." },
  { name: "maxTokens", label: "maxTokens", type: "number", default: 8192, ruleId: "CP-DH-1", description: "Output cap of the summariser request." },
  { name: "compactionRetries", label: "compactionRetries", type: "number", default: 1, ruleId: "CP-DH-3", description: "Extra compaction attempts while still at or above the threshold." },
  { name: "instructionVersion", label: "instruction version", type: "enum", choices: ["v0", "v1", "v2"], default: "v2", ruleId: "CP-DH-11", description: "v0 before 2026-07-31, v1 the ADR, v2 current." },
  { name: "summarizationProvider", label: "summarisation provider", type: "string", default: null, ruleId: "CP-DH-9", description: "Configured summariser provider (with the model)." },
  { name: "summarizationModel", label: "summarisation model", type: "string", default: null, ruleId: "CP-DH-9", description: "Configured summariser model; a different route forfeits cache reuse." },
  { name: "pruneToolResults", label: "tool-result pruner mounted", type: "boolean", default: true, ruleId: "CP-DH-3", description: "dsh-compaction-tool-result-pruner (in the default presets): prune over-long tool results before compacting, then re-measure." },
  { name: "pruneThresholdChars", label: "pruner thresholdChars", type: "number", default: DEEPSEEK_PRUNE_DEFAULTS.thresholdChars, ruleId: "CP-DH-3", description: "Tool results with more text code points than this are pruned." },
  { name: "pruneHeadChars", label: "pruner headChars", type: "number", default: DEEPSEEK_PRUNE_DEFAULTS.headChars, ruleId: "CP-DH-3", description: "Code points kept from the start of a pruned tool result." },
  { name: "pruneTailChars", label: "pruner tailChars", type: "number", default: DEEPSEEK_PRUNE_DEFAULTS.tailChars, ruleId: "CP-DH-3", description: "Code points kept from the end of a pruned tool result." },
  { name: "providerOverflow", label: "provider \"context window exceeded\"", type: "boolean", default: false, ruleId: "CP-DH-4", description: "Simulate the overflow path: the routed request failed with a context-window error; prune, compact once with retain 0, retry only if the surface changed." },
  { name: "maxOverflowRetries", label: "maxOverflowRetries", type: "number", default: 1, ruleId: "CP-DH-4", description: "Overflow recoveries per agent turn; 0: the error reaches the turn." },
  { name: "finish", label: "summariser finish", type: "enum", choices: ["stop", "max-tokens", "error", "aborted", "image", "empty"], default: "stop", ruleId: "CP-DH-13", description: "Simulated finish of the summariser call." },
];

function config(params: Record<string, unknown>): DeepseekConfig {
  return {
    ...DEEPSEEK_DEFAULTS,
    thresholdRatio: Number(params.thresholdRatio ?? DEEPSEEK_DEFAULTS.thresholdRatio),
    retainRatio: Number(params.retainRatio ?? DEEPSEEK_DEFAULTS.retainRatio),
    retainTokens: typeof params.retainTokens === "number" ? params.retainTokens : null,
    maxTokens: Number(params.maxTokens ?? DEEPSEEK_DEFAULTS.maxTokens),
    compactionRetries: Number(params.compactionRetries ?? DEEPSEEK_DEFAULTS.compactionRetries),
    maxOverflowRetries: Number(params.maxOverflowRetries ?? DEEPSEEK_DEFAULTS.maxOverflowRetries),
  };
}

function pruneConfig(params: Record<string, unknown>): DeepseekPruneConfig {
  const n = (value: unknown, fallback: number) => (typeof value === "number" && Number.isFinite(value) ? value : fallback);
  return {
    thresholdChars: n(params.pruneThresholdChars, DEEPSEEK_PRUNE_DEFAULTS.thresholdChars),
    headChars: n(params.pruneHeadChars, DEEPSEEK_PRUNE_DEFAULTS.headChars),
    tailChars: n(params.pruneTailChars, DEEPSEEK_PRUNE_DEFAULTS.tailChars),
  };
}

/** Node price: chars/4 of the message (CP-DH-5 [INF], labelled "estimated"). */
function nodeOf(item: ContextMessage): SurfaceNode {
  const message = item.message;
  return {
    tokens: messageTokens(message),
    toolCallIds: message.role === "assistant" ? message.content.flatMap((b) => (b.type === "toolCall" ? [b.id] : [])) : [],
    toolResultFor: message.role === "toolResult" ? message.toolCallId : null,
  };
}

function textOf(message: LlmMessage): string {
  if (isText(message.content)) return textString(message.content);
  return message.content.map((b) => (b.type === "text" ? textString(b.text) : b.type === "toolCall" ? JSON.stringify(b.arguments) : "")).join("");
}

/** Header part of the measure: system prompt + tools of the routed request (chars/4). */
function headerTokens(body: Record<string, unknown>): number {
  return estimateTextTokens(prefixText({ ...body, messages: [], input: [], contents: [] }));
}

/** On a harness session the route's window is logged (request/context): it wins over the catalogue, not over the user or settings inference. */
function deepseekContext(input: SimulationInput, given: SimulationContext): SimulationContext {
  const loggedWindow = recordedContextWindow(input);
  const chosen = given.limits.contextWindowSource === "override" || given.limits.contextWindowSource === "inferred from this session's compactions";
  return loggedWindow !== null && !chosen
    ? { ...given, limits: { ...given.limits, contextWindow: loggedWindow, contextWindowSource: "session" } }
    : given;
}

/** What the trigger measured, shared by the later phases. */
interface DeepseekMeasure {
  cfg: DeepseekConfig;
  budget: DeepseekBudget;
  /** Re-running a recorded compaction of a harness session starts from the surface just before it. */
  routedSurface: readonly ContextMessage[];
  /** chars/4 of the routed request's system prompt and tools. */
  head: number;
  measure: number;
  threshold: number;
  overflow: boolean;
  manual: boolean;
}

/** (1) Trigger (CP-DH-3), or the provider's overflow error (CP-DH-4). */
function deepseekTrigger(input: SimulationInput, context: SimulationContext): { trigger: TriggerDecision; m: DeepseekMeasure } {
  const params = context.parameters;
  const cfg = config(params);
  const window = context.limits.contextWindow;
  const budget = deepseekBudget(window, cfg);
  const routedSurface = recordedSurface(input) ?? context.turnContext.messages;
  const head = headerTokens(context.turnRequest.body);
  const measure = head + routedSurface.map(nodeOf).reduce((a, n) => a + n.tokens, 0);
  const overflow = params.providerOverflow === true;
  const threshold = budget.thresholdTokens ?? 0;
  const manual = input.manual === true;
  const trigger: TriggerDecision = {
    evaluated: !manual && budget.ok,
    manual,
    operands: [
      { name: "requestTokens", value: measure, source: "chars/4 of the routed request: system + tools + surface nodes (estimated)" },
      { name: "contextWindow", value: window, source: context.limits.contextWindowSource },
      { name: "thresholdRatio", value: cfg.thresholdRatio, source: "parameter (CP-DH-1)" },
      { name: "retainTokens", value: budget.retainTokens ?? 0, source: cfg.retainTokens !== null ? "parameter retainTokens" : "floor(window × retainRatio) (CP-DH-2)" },
    ],
    operator: ">=",
    left: measure,
    right: threshold,
    result: budget.ok && measure >= threshold,
    expression: `${measure} >= floor(${window} × ${cfg.thresholdRatio}) = ${threshold} → ${budget.ok && measure >= threshold ? "compact" : "no"}`,
    ruleId: "CP-DH-3",
    estimator: "chars/4 per node and for system + tools (CP-DH-5 [INF])",
  };
  if (overflow) {
    // CP-DH-4: the provider rejected the routed request; the threshold is not consulted.
    trigger.evaluated = true;
    trigger.result = true;
    trigger.ruleId = "CP-DH-4";
    trigger.expression = `provider "context window exceeded" on the routed request (${measure} estimated tokens) → prune, compact once with retain 0, retry if the surface changed`;
  }
  return { trigger, m: { cfg, budget, routedSurface, head, measure, threshold, overflow, manual } };
}

/** The surface after the model-free tool-result prune (CP-DH-3 / CP-DH-4), re-measured. */
interface DeepseekPruned {
  pruning: DeepseekPruneResult;
  surface: ContextMessage[];
  nodes: SurfaceNode[];
  measurePruned: number;
  prunedRanges: PartitionRange[];
}

function deepseekPrune(routedSurface: readonly ContextMessage[], params: Record<string, unknown>, head: number): DeepseekPruned {
  const pruning = params.pruneToolResults !== false ? pruneSurface(routedSurface, pruneConfig(params)) : { surface: [...routedSurface], pruned: [] };
  const surface = pruning.surface;
  const nodes = surface.map(nodeOf);
  const prunedRanges = pruning.pruned.map((p) => ({
    kind: "pruned" as const,
    messageStart: p.index,
    messageEnd: p.index + 1,
    entryIds: ids([surface[p.index]!]),
    lines: [],
    tokens: nodes[p.index]!.tokens,
    label: `tool result middle pruned: ${p.charsBefore} → ${p.charsAfter} code points`,
    ruleId: "CP-DH-3",
  }));
  return { pruning, surface, nodes, measurePruned: head + nodes.reduce((a, n) => a + n.tokens, 0), prunedRanges };
}

/** The result when only the prune ran: the pruned surface is the next request. */
function prunedOnlyResult(input: SimulationInput, context: SimulationContext, base: SimulationResult, m: DeepseekMeasure, p: DeepseekPruned, verdict: VerdictResult): SimulationResult {
  const api0 = input.api ?? input.options.api ?? context.turnRequest.api;
  const prunedModel = applyLimits(resolveModel(context.turnContext.model, context.turnContext.api, input.options.modelOverrides), context.limits);
  const body =
    harnessBody(input, p.surface.map((item) => item.message), "conversation", prunedModel.id) ??
    getSerializer(api0).serialize({ model: prunedModel, messages: p.surface.map((item) => item.message), header: input.options.header ?? null, thinkingLevel: context.turnContext.thinkingLevel }).body;
  return {
    ...base,
    partition: { ...base.partition, pruned: p.prunedRanges, details: { ...base.partition.details, prunedToolResults: p.pruning.pruned.length, measureAfterPrune: p.measurePruned } },
    after: { ...base.after, messages: p.surface, request: { api: api0, body }, prefixBreak: findPrefixBreak(context.turnRequest.body, body, "the tool-result pruner replaced a tool result (CP-DH-3)"), storedRecord: { events: p.pruning.pruned.map((x) => ({ type: "compaction/prune", shadowedRange: { start: x.index, end: x.index } })) } },
    verdict,
    tokens: tokenSummary("chars/4 (CP-DH-5 [INF])", m.measure, p.measurePruned, 0),
  };
}

/**
 * The exits before a summary is asked for: a configuration error, no overflow recovery left, a
 * prune that was enough, nothing to compact. Null when a range is to be summarised.
 */
function deepseekEarlyExit(input: SimulationInput, context: SimulationContext, base: SimulationResult, trigger: TriggerDecision, m: DeepseekMeasure, pruned: () => DeepseekPruned): { result: SimulationResult } | { p: DeepseekPruned; selection: Extract<RangeSelection, { kind: "range" }>; retain: number } {
  const fail = (ruleId: string, message: string, code: string | null = null) => ({ result: { ...base, verdict: makeVerdict(deepseekHarnessPolicy, "failed", ruleId, message, code) } });
  if (!m.budget.ok) return fail("CP-DH-1", m.budget.error, "CONFIG");
  if (m.overflow && !(m.cfg.maxOverflowRetries >= 1)) return fail("CP-DH-4", `context window exceeded and no overflow recovery left (maxOverflowRetries ${m.cfg.maxOverflowRetries}): the error reaches the agent turn`);
  const pruneError = context.parameters.pruneToolResults !== false ? deepseekPruneConfigError(pruneConfig(context.parameters)) : null;
  if (pruneError) return fail("CP-DH-3", pruneError, "CONFIG");
  const p = pruned();
  const prunedOnly = (verdict: VerdictResult) => ({ result: prunedOnlyResult(input, context, base, m, p, verdict) });
  if (!m.overflow && !m.manual && trigger.result && p.pruning.pruned.length > 0 && p.measurePruned < m.threshold) {
    return prunedOnly(makeVerdict(deepseekHarnessPolicy, "not-triggered", "CP-DH-3", `the tool-result prune brought the request to ${p.measurePruned} < threshold ${m.threshold}: no compaction`));
  }
  const retain = m.overflow ? 0 : m.budget.retainTokens;
  const selection = selectRange(p.nodes, retain);
  if (selection.kind === "range") return { p, selection, retain };
  if (m.overflow) {
    return p.pruning.pruned.length > 0
      ? prunedOnly(makeVerdict(deepseekHarnessPolicy, "nothing-to-compact", "CP-DH-4", `${selection.reason}; the prune changed the surface, so the request is retried once`))
      : fail("CP-DH-4", `${selection.reason} and nothing was pruned: the surface did not change, the request is not retried`);
  }
  return { result: { ...base, verdict: makeVerdict(deepseekHarnessPolicy, !trigger.result && !m.manual ? "not-triggered" : "nothing-to-compact", "CP-DH-5", selection.reason) } };
}

/** CP-DH-9: the summarisation target, and whether it leaves the routed model (cache forfeited). */
function deepseekTarget(input: SimulationInput, context: SimulationContext): { routed: ReturnType<typeof resolveModel>; target: { provider: string; modelId: string }; forfeited: boolean } {
  const params = context.parameters;
  const routed = resolveModel(context.turnContext.model, context.turnContext.api, input.options.modelOverrides);
  const configured = typeof params.summarizationProvider === "string" && params.summarizationProvider && typeof params.summarizationModel === "string" && params.summarizationModel;
  const target = configured ? { provider: String(params.summarizationProvider), modelId: String(params.summarizationModel) } : { provider: routed.provider, modelId: routed.id };
  return { routed, target, forfeited: Boolean(configured && (target.provider !== routed.provider || target.modelId !== routed.id)) };
}

/** (3) CP-DH-7/CP-DH-8: routed header + shadowed messages + trailing user(INSTR). */
function deepseekSummariser(input: SimulationInput, context: SimulationContext, cfg: DeepseekConfig, shadowed: ContextMessage[], selection: Extract<RangeSelection, { kind: "range" }>, route: ReturnType<typeof deepseekTarget>): SimulatedSummariserRequest {
  const params = context.parameters;
  const { routed, target, forfeited } = route;
  const version = (["v0", "v1", "v2"].includes(String(params.instructionVersion)) ? params.instructionVersion : "v2") as InstructionVersion;
  const instruction = fillSlot(deepseekInstructionSlot(version), input.instructions);
  const api = input.api ?? input.options.api ?? context.turnRequest.api;
  const model = { ...applyLimits(routed, context.limits), id: target.modelId, maxTokens: cfg.maxTokens };
  const header = input.options.header ? { ...input.options.header, maxTokens: cfg.maxTokens } : null;
  const messages: LlmMessage[] = [...shadowed.map((m) => m.message), { role: "user", content: [{ type: "text", text: instruction.text }] }];
  const ownBody = harnessBody(input, messages, "summary", target.modelId, cfg.maxTokens);
  const body = ownBody ?? getSerializer(api).serialize({ model, messages, header, thinkingLevel: context.turnContext.thinkingLevel }).body;
  if (!ownBody && header && header.systemPrompt === undefined) dropSystem(body);
  if (!ownBody && header && header.tools === undefined) delete body.tools;
  return {
    role: "summary",
    api,
    form: "replay (routed request head + trailing instruction)",
    body,
    maxTokens: cfg.maxTokens,
    dataPart: (body.messages as unknown[] | undefined)?.slice(0, -1) ?? shadowed.map((m) => m.message),
    instructionSlots: [instruction.use],
    cache: forfeited
      ? { ...cacheEffect(`turn ${input.turn} routed request`, null, body), note: "cache reuse forfeited (different route, CP-DH-9)" }
      : cacheEffect(`turn ${input.turn} routed request`, context.turnRequest.body, body),
    focusPlacement: null,
    redaction: "none (CP-DH-17)",
    notes: [
      `harness request: {provider: ${target.provider}, model: ${target.modelId}, maxTokens: ${cfg.maxTokens}, sessionId, purpose: "compaction"}; instruction message source {kind: "plugin", plugin: "dsh-compaction-basic"} (CP-DH-8)`,
      "tools are sent although none may be called, to keep the prefix aligned (CP-DH-8)",
      ...(selection.movedForPairing ? [`boundary moved from node ${selection.retainStart} to ${selection.boundary} to keep tool calls with their results (CP-DH-5)`] : []),
    ],
    findingInputs: {
      instructionTexts: [instruction.text],
      turnTexts: shadowed.map((m) => textOf(m.message)).filter((t) => t.length > 0),
      userControlledTexts: userTurnTexts(context),
      checkpointInstruction: true,
    },
  };
}

/** (2) Partition: the shadowed range before the boundary, the retained tail, the pruned results. */
function deepseekPartition(m: DeepseekMeasure, p: DeepseekPruned, selection: Extract<RangeSelection, { kind: "range" }>, retain: number): Partition {
  const { boundary } = selection;
  const kept = p.surface.slice(boundary);
  return {
    kept: [{ kind: "kept" as const, messageStart: boundary, messageEnd: p.surface.length, entryIds: ids(kept), lines: [], tokens: p.nodes.slice(boundary).reduce((a, n) => a + n.tokens, 0), label: "retained tail", ruleId: "CP-DH-5" }],
    summarised: [{ kind: "summarised" as const, messageStart: 0, messageEnd: boundary, entryIds: ids(p.surface.slice(0, boundary)), lines: [], tokens: p.nodes.slice(0, boundary).reduce((a, n) => a + n.tokens, 0), label: "shadowed range", ruleId: "CP-DH-5" }],
    pruned: p.prunedRanges,
    droppedWithoutSummary: [],
    details: { boundary, firstKeptEntryId: ids(kept)[0] ?? null, retainStart: selection.retainStart, movedForPairing: selection.movedForPairing, thresholdTokens: m.threshold, retainTokens: retain, prunedToolResults: p.pruning.pruned.length, measureAfterPrune: p.measurePruned, overflowRecovery: m.overflow },
  };
}

/**
 * (4) After: the checkpoint replaces the shadowed range, re-measured and compacted again while
 * still at or above the threshold (CP-DH-3, CP-DH-14). An output error (CP-DH-13) or the shrink
 * guard (CP-DH-15) stops it with their verdict.
 */
function deepseekAfter(
  input: SimulationInput,
  context: SimulationContext,
  base: SimulationResult,
  parts: { m: DeepseekMeasure; p: DeepseekPruned; boundary: number; retain: number; route: ReturnType<typeof deepseekTarget>; api: ApiId },
): { stop: { after: AfterCompaction; verdict: VerdictResult } } | { after: AfterCompaction; total: number; attempts: number } {
  const { m, p, boundary, retain, route, api } = parts;
  const shadowed = p.surface.slice(0, boundary);
  const shadowedTokens = p.nodes.slice(0, boundary).reduce((a, n) => a + n.tokens, 0);
  const events: Record<string, unknown>[] = [...p.pruning.pruned.map((x) => ({ type: "compaction/prune", shadowedRange: { start: x.index, end: x.index } })), { type: "compaction/start" }];
  const error = outputError(String(context.parameters.finish ?? "stop") as DeepseekFinish);
  if (error) {
    events.push({ type: "compaction/end", error: { message: error.message, code: error.code } });
    return { stop: { after: { ...base.after, storedRecord: { events } }, verdict: makeVerdict(deepseekHarnessPolicy, "failed", "CP-DH-13", error.message, error.code) } };
  }
  const summary = resolveSummary({ session: input.session, source: input.summary, recorded: recordedSummaryText(input), headings: DEEPSEEK_SECTIONS });
  // A harness session stores the preamble in its checkpoint: a re-run takes it from there unless a capture gives it.
  const storedPreamble = recordedPreamble(input);
  const preamble = fillSlot(CHECKPOINT_PREAMBLE_SLOT, storedPreamble === null ? input.instructions : mergeSlotValues(input.instructions, { slots: { [CHECKPOINT_PREAMBLE_SLOT.slot]: storedPreamble }, sources: { [CHECKPOINT_PREAMBLE_SLOT.slot]: "the session's checkpoint" } }));
  const checkpoint = frameCheckpoint(preamble.text, [summary.text]);
  const framedTokens = estimateTextTokens(textOf(checkpoint));
  const checkpointItem: ContextMessage = { message: checkpoint, provenance: { rule: "summary:compaction", entryId: null, ruleId: "CP-DH-14", explanation: "deepseek-harness checkpoint replacing the shadowed range" } };
  events.push({ type: "compaction/summary", summary: summary.text, shadowedRange: { start: 0, end: boundary }, shadowedTokenCount: shadowedTokens, provider: route.target.provider, model: route.target.modelId, maxTokens: m.cfg.maxTokens });
  const guard = shrinkGuard(framedTokens, shadowedTokens);
  if (guard) {
    events.push({ type: "compaction/end", error: { message: guard } });
    return { stop: { after: { ...base.after, summary, storedRecord: { events } }, verdict: makeVerdict(deepseekHarnessPolicy, "no-reduction", "CP-DH-15", guard) } };
  }
  events.push({ type: "user/message", surfaceOp: { op: "replace", start: 0, end: boundary }, sourceEventSeqs: ids(shadowed) });
  // CP-DH-3: re-measure, more attempts while still at or above the threshold.
  let afterMessages: ContextMessage[] = [checkpointItem, ...p.surface.slice(boundary)];
  let total = m.head + framedTokens + p.nodes.slice(boundary).reduce((a, n) => a + n.tokens, 0);
  let attempts = 1;
  // The overflow path compacts once (CP-DH-4).
  while (!m.overflow && total >= m.threshold && attempts < m.cfg.compactionRetries + 1) {
    const again = selectRange(afterMessages.map(nodeOf), retain);
    if (again.kind !== "range") break;
    attempts++;
    afterMessages = [checkpointItem, ...afterMessages.slice(again.boundary)];
    total = m.head + afterMessages.map(nodeOf).reduce((a, n) => a + n.tokens, 0);
  }
  events.push({ type: "compaction/end" });
  const afterBody =
    harnessBody(input, afterMessages.map((item) => item.message), "conversation", route.routed.id) ??
    getSerializer(api).serialize({ model: applyLimits(route.routed, context.limits), messages: afterMessages.map((item) => item.message), header: input.options.header ?? null, thinkingLevel: context.turnContext.thinkingLevel }).body;
  const after = {
    summary,
    messages: afterMessages,
    request: { api, body: afterBody },
    prefixBreak: findPrefixBreak(context.turnRequest.body, afterBody, "the checkpoint replaced the shadowed range (CP-DH-14)"),
    followingTurns: followingTurnsFromPrefix(context.pipeline, input.session, input.options, input.turn, afterMessages, afterBody, input.followingTurns, api),
    storedRecord: { events },
  };
  return { after, total, attempts };
}

/** (5) Verdict of a compaction that ran: overflow recovery, still over budget, not triggered, compacted. */
function deepseekVerdict(trigger: TriggerDecision, m: DeepseekMeasure, total: number, attempts: number): VerdictResult {
  if (m.overflow) return makeVerdict(deepseekHarnessPolicy, "compacted", "CP-DH-4", `overflow recovery: compacted with retain 0; the request is retried once (${total} estimated tokens)`);
  if (total >= m.threshold) return makeVerdict(deepseekHarnessPolicy, "post-compaction-over-budget", "CP-DH-3", `compaction still above threshold after ${attempts} compaction attempts (${total} estimated tokens >= threshold ${m.threshold})`);
  if (!trigger.result && !m.manual) return makeVerdict(deepseekHarnessPolicy, "not-triggered", "CP-DH-3", trigger.expression);
  return makeVerdict(deepseekHarnessPolicy, "compacted", "CP-DH-14");
}

function simulateDeepseek(input: SimulationInput, given: SimulationContext): SimulationResult {
  const context = deepseekContext(input, given);
  const { trigger, m } = deepseekTrigger(input, context);
  const base = emptyResultParts(deepseekHarnessPolicy, input, context, trigger);
  if (input.triggerOnly === true) return base;
  const exit = deepseekEarlyExit(input, context, base, trigger, m, () => deepseekPrune(m.routedSurface, context.parameters, m.head));
  if ("result" in exit) return exit.result;
  const { p, selection, retain } = exit;
  const boundary = selection.boundary;
  const route = deepseekTarget(input, context);
  const request = deepseekSummariser(input, context, m.cfg, p.surface.slice(0, boundary), selection, route);
  const findings: Finding[] = [
    ...checkSummariserRequests([request]),
    ...checkToolPairsAcrossCut(p.surface, (i) => (i < boundary ? "summarised" : "kept")),
    ...unfinishedSummaryFindings(detectUnfinishedSummaries(p.surface), `turn ${input.turn}'s context`),
  ];
  const { routed, target } = route;
  if (route.forfeited) findings.push({ id: "cache-reuse-forfeited", severity: "info", message: `the configured summarisation model ${target.provider}/${target.modelId} differs from the routed ${routed.provider}/${routed.id}: cache reuse forfeited (CP-DH-9)`, location: { request: 0 }, ruleId: "CP-DH-9" });
  const partition = deepseekPartition(m, p, selection, retain);
  const done = deepseekAfter(input, context, base, { m, p, boundary, retain, route, api: request.api });
  if ("stop" in done) return { ...base, partition, summariserRequests: [request], findings, after: done.stop.after, verdict: done.stop.verdict };
  return simulationResult(deepseekHarnessPolicy, input, context, {
    trigger,
    partition,
    summariserRequests: [request],
    after: done.after,
    verdict: deepseekVerdict(trigger, m, done.total, done.attempts),
    tokens: tokenSummary("chars/4 (CP-DH-5 [INF])", m.measure, done.total, estimateJsonTokens(request.body)),
    findings,
    inferred: ["CP-0-1", "CP-0-2", "CP-0-3", "CP-0-4", "CP-DH-5", "CP-DH-12", "CP-DH-INF-1"],
  });
}

function ids(items: readonly ContextMessage[]): string[] {
  return items.flatMap((m) => (m.provenance.entryId ? [m.provenance.entryId] : []));
}

function dropSystem(body: Record<string, unknown>): void {
  delete body.system;
  delete body.instructions;
  delete body.systemInstruction;
  if (Array.isArray(body.messages)) body.messages = (body.messages as { role?: string }[]).filter((m) => m.role !== "system" && m.role !== "developer");
}

export const deepseekHarnessPolicy: CompactionPolicy = {
  id: "deepseek-harness",
  label: "deepseek-harness (cache-aware, English checkpoint)",
  rulePrefix: "CP-DH",
  parameters: DEEPSEEK_PARAMETERS,
  checkedVerdicts: ["not-triggered", "nothing-to-compact", "compacted", "no-reduction", "post-compaction-over-budget", "failed"],
  instructionSlots: DEEPSEEK_SLOTS,
  simulate: simulateDeepseek,
  inference: deepseekInference,
  extractInstructions: (body, source) => capturedInstruction(body, source),
};
