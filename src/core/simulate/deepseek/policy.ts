// The deepseek-harness policy (compaction-policies.md §3): ratio trigger, retain-walk range with
// tool-pairing balance, a summariser request that replays the routed request's head byte for byte
// and appends the compaction instruction as a trailing user message (no focus input), checkpoint
// framing, the shrink guard, retries and the durable events.
import type { ContextMessage, LlmMessage } from "../../model";
import { resolveModel } from "../../models/catalogue";
import { getSerializer } from "../../providers";
import { estimateMessageTokens } from "../../agents/pi/estimate";
import { checkSummariserRequests, checkToolPairsAcrossCut, detectUnfinishedSummaries, unfinishedSummaryFindings } from "../findings";
import { followingTurnsFromPrefix } from "../following";
import { fillSlot } from "../instruction-slots";
import { applyLimits } from "../limits";
import { cacheEffect, findPrefixBreak, prefixText } from "../prefix";
import { emptyResultParts, userTurnTexts } from "../../agents/pi/policies/result-parts";
import { resolveSummary } from "../summary-text";
import { estimateJsonTokens, estimateTextTokens } from "../text-tokens";
import { makeVerdict } from "../verdict";
import type {
  CompactionPolicy,
  Finding,
  PolicyParameterSpec,
  SimulatedSummariserRequest,
  SimulationContext,
  SimulationInput,
  SimulationResult,
  TriggerDecision,
} from "../types";
import { frameCheckpoint, outputError, shrinkGuard, type DeepseekFinish } from "./checkpoint";
import { DEEPSEEK_DEFAULTS, deepseekBudget, type DeepseekConfig } from "./config";
import { CHECKPOINT_PREAMBLE_SLOT, classifyDeepseekRequest, DEEPSEEK_SECTIONS, DEEPSEEK_SLOTS, deepseekInstructionSlot, type InstructionVersion } from "./instruction";
import { selectRange, type SurfaceNode } from "./range";

export const DEEPSEEK_PARAMETERS: readonly PolicyParameterSpec[] = [
  { name: "thresholdRatio", label: "thresholdRatio", type: "number", default: 0.8, ruleId: "CP-DH-1", description: "thresholdTokens = floor(window × ratio)." },
  { name: "retainRatio", label: "retainRatio", type: "number", default: 0.16, ruleId: "CP-DH-1", description: "retainTokens = floor(window × ratio) unless retainTokens is set." },
  { name: "retainTokens", label: "retainTokens", type: "number", default: null, ruleId: "CP-DH-2", description: "Absolute retain budget (wins over the ratio)." },
  { name: "maxTokens", label: "maxTokens", type: "number", default: 8192, ruleId: "CP-DH-1", description: "Output cap of the summariser request." },
  { name: "compactionRetries", label: "compactionRetries", type: "number", default: 1, ruleId: "CP-DH-3", description: "Extra compaction attempts while still at or above the threshold." },
  { name: "instructionVersion", label: "instruction version", type: "enum", choices: ["v0", "v1", "v2"], default: "v2", ruleId: "CP-DH-11", description: "v0 before 2026-07-31, v1 the ADR, v2 current." },
  { name: "summarizationProvider", label: "summarisation provider", type: "string", default: null, ruleId: "CP-DH-9", description: "Configured summariser provider (with the model)." },
  { name: "summarizationModel", label: "summarisation model", type: "string", default: null, ruleId: "CP-DH-9", description: "Configured summariser model; a different route forfeits cache reuse." },
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
  };
}

/** Node price: chars/4 of the message (CP-DH-5 [INF], labelled "estimated"). */
function nodeOf(item: ContextMessage): SurfaceNode {
  const message = item.message;
  return {
    tokens: estimateMessageTokens(message, { profile: "pi" }),
    toolCallIds: message.role === "assistant" ? message.content.flatMap((b) => (b.type === "toolCall" ? [b.id] : [])) : [],
    toolResultFor: message.role === "toolResult" ? message.toolCallId : null,
  };
}

function textOf(message: LlmMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content.map((b) => (b.type === "text" ? b.text : b.type === "toolCall" ? JSON.stringify(b.arguments) : "")).join("");
}

/** Header part of the measure: system prompt + tools of the routed request (chars/4). */
function headerTokens(body: Record<string, unknown>): number {
  return estimateTextTokens(prefixText({ ...body, messages: [], input: [], contents: [] }));
}

function simulateDeepseek(input: SimulationInput, context: SimulationContext): SimulationResult {
  const params = context.parameters;
  const cfg = config(params);
  const window = context.limits.contextWindow;
  const budget = deepseekBudget(window, cfg);
  const surface = context.turnContext.messages;
  const nodes = surface.map(nodeOf);
  const head = headerTokens(context.turnRequest.body);
  const measure = head + nodes.reduce((a, n) => a + n.tokens, 0);
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
  const base = emptyResultParts(deepseekHarnessPolicy, input, context, trigger);
  if (!budget.ok) return { ...base, verdict: makeVerdict(deepseekHarnessPolicy, "failed", "CP-DH-1", budget.error, "CONFIG") };
  const retain = manual ? budget.retainTokens : budget.retainTokens;
  const selection = selectRange(nodes, retain);
  if (selection.kind === "nothing-to-compact") {
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
  const body = getSerializer(api).serialize({ model, messages, header, thinkingLevel: context.turnContext.thinkingLevel }).body;
  if (header && header.systemPrompt === undefined) dropSystem(body);
  if (header && header.tools === undefined) delete body.tools;
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
    pruned: [],
    droppedWithoutSummary: [],
    details: { boundary, retainStart: selection.retainStart, movedForPairing: selection.movedForPairing, thresholdTokens: threshold, retainTokens: budget.retainTokens },
  };
  const events: Record<string, unknown>[] = [{ type: "compaction/start" }];
  const error = outputError(String(params.finish ?? "stop") as DeepseekFinish);
  if (error) {
    events.push({ type: "compaction/end", error: { message: error.message, code: error.code } });
    return { ...base, partition, summariserRequests: [request], findings, after: { ...base.after, storedRecord: { events } }, verdict: makeVerdict(deepseekHarnessPolicy, "failed", "CP-DH-13", error.message, error.code) };
  }

  const summary = resolveSummary({ session: input.session, source: input.summary, recorded: null, headings: DEEPSEEK_SECTIONS });
  const preamble = fillSlot(CHECKPOINT_PREAMBLE_SLOT, input.instructions);
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
  while (total >= threshold && attempts < cfg.compactionRetries + 1) {
    const again = selectRange(afterMessages.map(nodeOf), retain);
    if (again.kind !== "range") break;
    attempts++;
    afterMessages = [checkpointItem, ...afterMessages.slice(again.boundary)];
    total = head + afterMessages.map(nodeOf).reduce((a, n) => a + n.tokens, 0);
  }
  events.push({ type: "compaction/end" });
  const afterBody = getSerializer(api).serialize({ model: applyLimits(routed, context.limits), messages: afterMessages.map((m) => m.message), header: input.options.header ?? null, thinkingLevel: context.turnContext.thinkingLevel }).body;
  const after = {
    summary,
    messages: afterMessages,
    request: { api, body: afterBody },
    prefixBreak: findPrefixBreak(context.turnRequest.body, afterBody, "the checkpoint replaced the shadowed range (CP-DH-14)"),
    followingTurns: followingTurnsFromPrefix(context.pipeline, input.session, input.options, input.turn, afterMessages, afterBody, input.followingTurns, api),
    storedRecord: { events },
  };
  const over = total >= threshold;
  const verdict = over
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
