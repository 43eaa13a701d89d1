// The deepseek-harness policy (compaction-policies.md §3): ratio trigger, retain-walk range with
// tool-pairing balance, a summariser request that replays the routed request's head byte for byte
// and appends the compaction instruction as a trailing user message (no focus input), checkpoint
// framing, the shrink guard, retries and the durable events; the model-free tool-result prune
// before the range is chosen (CP-DH-3) and the provider-overflow recovery (CP-DH-4).
import type { ContextMessage, LlmMessage } from "../../../model";
import { isText, textString } from "../../../text/text";
import { resolveModel } from "../../../models/catalogue";
import { getSerializer } from "../../../providers";
import { estimateMessageTokens } from "../../pi/estimate";
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
import type {
  CompactionPolicy,
  Finding,
  PolicyParameterSpec,
  SimulatedSummariserRequest,
  SimulationContext,
  SimulationInput,
  SimulationResult,
  TriggerDecision,
} from "../../../simulate/types";
import { frameCheckpoint, outputError, shrinkGuard, type DeepseekFinish } from "./checkpoint";
import { DEEPSEEK_DEFAULTS, deepseekBudget, type DeepseekConfig } from "./config";
import { CHECKPOINT_PREAMBLE_SLOT, classifyDeepseekRequest, DEEPSEEK_SECTIONS, DEEPSEEK_SLOTS, deepseekInstructionSlot, type InstructionVersion } from "./instruction";
import { selectRange, type SurfaceNode } from "./range";
import { deepseekInference } from "./inference";
import { DEEPSEEK_PRUNE_DEFAULTS, deepseekPruneConfigError, pruneSurface, type DeepseekPruneConfig } from "./prune";
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
    tokens: estimateMessageTokens(message),
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

function simulateDeepseek(input: SimulationInput, given: SimulationContext): SimulationResult {
  // On a harness session the route's window is logged (request/context): it wins over the catalogue, not over the user.
  const loggedWindow = recordedContextWindow(input);
  const context: SimulationContext =
    loggedWindow !== null && given.limits.contextWindowSource !== "override"
      ? { ...given, limits: { ...given.limits, contextWindow: loggedWindow, contextWindowSource: "session" } }
      : given;
  const params = context.parameters;
  const cfg = config(params);
  const window = context.limits.contextWindow;
  const budget = deepseekBudget(window, cfg);
  // Re-running a recorded compaction of a harness session starts from the surface just before it.
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
  const base = emptyResultParts(deepseekHarnessPolicy, input, context, trigger);
  if (input.triggerOnly === true) return base;
  if (!budget.ok) return { ...base, verdict: makeVerdict(deepseekHarnessPolicy, "failed", "CP-DH-1", budget.error, "CONFIG") };
  if (overflow && !(cfg.maxOverflowRetries >= 1)) {
    return { ...base, verdict: makeVerdict(deepseekHarnessPolicy, "failed", "CP-DH-4", `context window exceeded and no overflow recovery left (maxOverflowRetries ${cfg.maxOverflowRetries}): the error reaches the agent turn`) };
  }

  // CP-DH-3 / CP-DH-4: model-free tool-result prune, then re-measure on the pruned surface.
  const pcfg = pruneConfig(params);
  const pruneOn = params.pruneToolResults !== false;
  const pruneError = pruneOn ? deepseekPruneConfigError(pcfg) : null;
  if (pruneError) return { ...base, verdict: makeVerdict(deepseekHarnessPolicy, "failed", "CP-DH-3", pruneError, "CONFIG") };
  const pruning = pruneOn ? pruneSurface(routedSurface, pcfg) : { surface: [...routedSurface], pruned: [] };
  const surface = pruning.surface;
  const nodes = surface.map(nodeOf);
  const measurePruned = head + nodes.reduce((a, n) => a + n.tokens, 0);
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
  const api0 = input.api ?? input.options.api ?? context.turnRequest.api;
  const prunedOnly = (verdict: ReturnType<typeof makeVerdict>): SimulationResult => {
    const prunedModel = applyLimits(resolveModel(context.turnContext.model, context.turnContext.api, input.options.modelOverrides), context.limits);
    const body =
      harnessBody(input, surface.map((m) => m.message), "conversation", prunedModel.id) ??
      getSerializer(api0).serialize({ model: prunedModel, messages: surface.map((m) => m.message), header: input.options.header ?? null, thinkingLevel: context.turnContext.thinkingLevel }).body;
    return {
      ...base,
      partition: { ...base.partition, pruned: prunedRanges, details: { ...base.partition.details, prunedToolResults: pruning.pruned.length, measureAfterPrune: measurePruned } },
      after: { ...base.after, messages: surface, request: { api: api0, body }, prefixBreak: findPrefixBreak(context.turnRequest.body, body, "the tool-result pruner replaced a tool result (CP-DH-3)"), storedRecord: { events: pruning.pruned.map((p) => ({ type: "compaction/prune", shadowedRange: { start: p.index, end: p.index } })) } },
      verdict,
      tokens: { estimator: "chars/4 (CP-DH-5 [INF])", before: measure, after: measurePruned, saved: measure - measurePruned, summariserInput: 0 },
    };
  };
  if (!overflow && !manual && trigger.result && pruning.pruned.length > 0 && measurePruned < threshold) {
    return prunedOnly(makeVerdict(deepseekHarnessPolicy, "not-triggered", "CP-DH-3", `the tool-result prune brought the request to ${measurePruned} < threshold ${threshold}: no compaction`));
  }
  const retain = overflow ? 0 : budget.retainTokens;
  const selection = selectRange(nodes, retain);
  if (selection.kind === "nothing-to-compact") {
    if (overflow) {
      return pruning.pruned.length > 0
        ? prunedOnly(makeVerdict(deepseekHarnessPolicy, "nothing-to-compact", "CP-DH-4", `${selection.reason}; the prune changed the surface, so the request is retried once`))
        : { ...base, verdict: makeVerdict(deepseekHarnessPolicy, "failed", "CP-DH-4", `${selection.reason} and nothing was pruned: the surface did not change, the request is not retried`) };
    }
    return { ...base, verdict: makeVerdict(deepseekHarnessPolicy, !trigger.result && !manual ? "not-triggered" : "nothing-to-compact", "CP-DH-5", selection.reason) };
  }
  const boundary = selection.boundary;
  const shadowed = surface.slice(0, boundary);
  const kept = surface.slice(boundary);
  const shadowedTokens = nodes.slice(0, boundary).reduce((a, n) => a + n.tokens, 0);

  // CP-DH-9: target model.
  const routed = resolveModel(context.turnContext.model, context.turnContext.api, input.options.modelOverrides);
  const configured = typeof params.summarizationProvider === "string" && params.summarizationProvider && typeof params.summarizationModel === "string" && params.summarizationModel;
  const target = configured ? { provider: String(params.summarizationProvider), modelId: String(params.summarizationModel) } : { provider: routed.provider, modelId: routed.id };
  const forfeited = configured && (target.provider !== routed.provider || target.modelId !== routed.id);

  // CP-DH-7/CP-DH-8: routed header + shadowed messages + trailing user(INSTR).
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
  const request: SimulatedSummariserRequest = {
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
      ...(selection.movedForPairing ? [`boundary moved from node ${selection.retainStart} to ${boundary} to keep tool calls with their results (CP-DH-5)`] : []),
    ],
    findingInputs: {
      instructionTexts: [instruction.text],
      turnTexts: shadowed.map((m) => textOf(m.message)).filter((t) => t.length > 0),
      userControlledTexts: userTurnTexts(context),
      checkpointInstruction: true,
    },
  };

  const findings: Finding[] = [
    ...checkSummariserRequests([request]),
    ...checkToolPairsAcrossCut(surface, (i) => (i < boundary ? "summarised" : "kept")),
    ...unfinishedSummaryFindings(detectUnfinishedSummaries(surface), `turn ${input.turn}'s context`),
  ];
  if (forfeited) findings.push({ id: "cache-reuse-forfeited", severity: "info", message: `the configured summarisation model ${target.provider}/${target.modelId} differs from the routed ${routed.provider}/${routed.id}: cache reuse forfeited (CP-DH-9)`, location: { request: 0 }, ruleId: "CP-DH-9" });

  const partition = {
    kept: [{ kind: "kept" as const, messageStart: boundary, messageEnd: surface.length, entryIds: ids(kept), lines: [], tokens: nodes.slice(boundary).reduce((a, n) => a + n.tokens, 0), label: "retained tail", ruleId: "CP-DH-5" }],
    summarised: [{ kind: "summarised" as const, messageStart: 0, messageEnd: boundary, entryIds: ids(shadowed), lines: [], tokens: shadowedTokens, label: "shadowed range", ruleId: "CP-DH-5" }],
    pruned: prunedRanges,
    droppedWithoutSummary: [],
    details: { boundary, firstKeptEntryId: ids(kept)[0] ?? null, retainStart: selection.retainStart, movedForPairing: selection.movedForPairing, thresholdTokens: threshold, retainTokens: retain, prunedToolResults: pruning.pruned.length, measureAfterPrune: measurePruned, overflowRecovery: overflow },
  };
  const events: Record<string, unknown>[] = [
    ...pruning.pruned.map((p) => ({ type: "compaction/prune", shadowedRange: { start: p.index, end: p.index } })),
    { type: "compaction/start" },
  ];
  const error = outputError(String(params.finish ?? "stop") as DeepseekFinish);
  if (error) {
    events.push({ type: "compaction/end", error: { message: error.message, code: error.code } });
    return { ...base, partition, summariserRequests: [request], findings, after: { ...base.after, storedRecord: { events } }, verdict: makeVerdict(deepseekHarnessPolicy, "failed", "CP-DH-13", error.message, error.code) };
  }

  const summary = resolveSummary({ session: input.session, source: input.summary, recorded: recordedSummaryText(input), headings: DEEPSEEK_SECTIONS });
  // A harness session stores the preamble in its checkpoint: a re-run takes it from there unless a capture gives it.
  const storedPreamble = recordedPreamble(input);
  const preamble = fillSlot(CHECKPOINT_PREAMBLE_SLOT, storedPreamble === null ? input.instructions : mergeSlotValues(input.instructions, { slots: { [CHECKPOINT_PREAMBLE_SLOT.slot]: storedPreamble }, sources: { [CHECKPOINT_PREAMBLE_SLOT.slot]: "the session's checkpoint" } }));
  const checkpoint = frameCheckpoint(preamble.text, [summary.text]);
  const framedTokens = estimateTextTokens(textOf(checkpoint));
  const checkpointItem: ContextMessage = { message: checkpoint, provenance: { rule: "summary:compaction", entryId: null, ruleId: "CP-DH-14", explanation: "deepseek-harness checkpoint replacing the shadowed range" } };
  events.push({ type: "compaction/summary", summary: summary.text, shadowedRange: { start: 0, end: boundary }, shadowedTokenCount: shadowedTokens, provider: target.provider, model: target.modelId, maxTokens: cfg.maxTokens });
  const guard = shrinkGuard(framedTokens, shadowedTokens);
  if (guard) {
    events.push({ type: "compaction/end", error: { message: guard } });
    return { ...base, partition, summariserRequests: [request], findings, after: { ...base.after, summary, storedRecord: { events } }, verdict: makeVerdict(deepseekHarnessPolicy, "no-reduction", "CP-DH-15", guard) };
  }
  events.push({ type: "user/message", surfaceOp: { op: "replace", start: 0, end: boundary }, sourceEventSeqs: ids(shadowed) });

  // CP-DH-3: re-measure, more attempts while still at or above the threshold.
  let afterMessages: ContextMessage[] = [checkpointItem, ...kept];
  let total = head + framedTokens + nodes.slice(boundary).reduce((a, n) => a + n.tokens, 0);
  let attempts = 1;
  // The overflow path compacts once (CP-DH-4).
  while (!overflow && total >= threshold && attempts < cfg.compactionRetries + 1) {
    const again = selectRange(afterMessages.map(nodeOf), retain);
    if (again.kind !== "range") break;
    attempts++;
    afterMessages = [checkpointItem, ...afterMessages.slice(again.boundary)];
    total = head + afterMessages.map(nodeOf).reduce((a, n) => a + n.tokens, 0);
  }
  events.push({ type: "compaction/end" });
  const afterBody =
    harnessBody(input, afterMessages.map((m) => m.message), "conversation", routed.id) ??
    getSerializer(api).serialize({ model: applyLimits(routed, context.limits), messages: afterMessages.map((m) => m.message), header: input.options.header ?? null, thinkingLevel: context.turnContext.thinkingLevel }).body;
  const after = {
    summary,
    messages: afterMessages,
    request: { api, body: afterBody },
    prefixBreak: findPrefixBreak(context.turnRequest.body, afterBody, "the checkpoint replaced the shadowed range (CP-DH-14)"),
    followingTurns: followingTurnsFromPrefix(context.pipeline, input.session, input.options, input.turn, afterMessages, afterBody, input.followingTurns, api),
    storedRecord: { events },
  };
  const over = !overflow && total >= threshold;
  const verdict = overflow
    ? makeVerdict(deepseekHarnessPolicy, "compacted", "CP-DH-4", `overflow recovery: compacted with retain 0; the request is retried once (${total} estimated tokens)`)
    : over
    ? makeVerdict(deepseekHarnessPolicy, "post-compaction-over-budget", "CP-DH-3", `compaction still above threshold after ${attempts} compaction attempts (${total} estimated tokens >= threshold ${threshold})`)
    : !trigger.result && !manual
      ? makeVerdict(deepseekHarnessPolicy, "not-triggered", "CP-DH-3", trigger.expression)
      : makeVerdict(deepseekHarnessPolicy, "compacted", "CP-DH-14");
  return {
    ...base,
    partition,
    summariserRequests: [request],
    after,
    verdict,
    tokens: { estimator: "chars/4 (CP-DH-5 [INF])", before: measure, after: total, saved: measure - total, summariserInput: estimateJsonTokens(body) },
    findings,
    inferred: ["CP-0-1", "CP-0-2", "CP-0-3", "CP-0-4", "CP-DH-5", "CP-DH-12", "CP-DH-INF-1"],
  };
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
  extractInstructions(body, source) {
    const messages = (body as { messages?: unknown[] })?.messages;
    const last = Array.isArray(messages) ? (messages[messages.length - 1] as { role?: string; content?: unknown }) : null;
    if (!last || last.role !== "user") return null;
    const text = typeof last.content === "string" ? last.content : Array.isArray(last.content) ? last.content.map((b) => String((b as { text?: string }).text ?? "")).join("") : "";
    const kind = classifyDeepseekRequest(text);
    if (!kind.compaction || !kind.version) return null;
    const slot = `compactionInstruction.${kind.version}`;
    return { slots: { [slot]: text }, sources: { [slot]: source } };
  },
};
