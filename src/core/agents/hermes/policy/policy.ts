// The hermes-agent compaction policy (compaction-policies.md §4), before and after the role split:
// parameter `roleSplit` off (main before PR #124595) / pr (the PR as written) / fixed (the PR with
// the reviewer's correction; "on" means fixed). Trigger → partition → summariser request →
// compressed list and the next request → verdict → findings, in CP-0-2 order.
import { parseNestedJson } from "../../../util/json-depth";
import { emptyResultParts } from "../../../simulate/empty-result";
import type { ContextMessage, ImageBlock, LlmMessage, Session, TextBlock, ToolResultMessage } from "../../../model";
import { isText, textString } from "../../../text/text";
import { messageView } from "../pipeline";
import { hermesStorageHeaderOf } from "../storage/session";
import { resolveModel } from "../../../models/catalogue";
import { getSerializer } from "../../../providers";
import { checkSummariserRequests, checkToolPairsAcrossCut } from "../../../simulate/findings";
import { applyLimits } from "../../../simulate/limits";
import { cacheEffect, findPrefixBreak } from "../../../simulate/prefix";
import { resolveSummary } from "../../../simulate/summary-text";
import { estimateJsonTokens, estimateTextTokens } from "../../../simulate/text-tokens";
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
  Verdict,
  VerdictResult,
} from "../../../simulate/types";
import { makeVerdict } from "../../../simulate/verdict";
import { simulationResult, tokenSummary } from "../../../simulate/result";
import { assembleCompressed, processSummaryOutput, summaryMessageText } from "./assemble";
import { hermesContentText, hermesMessagesOf, isHandoffSummary, isRealUserTurn, type HermesMessage } from "./messages";
import { hermesMessageTokens, hermesPartition, type HermesPartition } from "./partition";
import { pruneToolOutputs } from "./prune";
import { automaticFocus, buildHermesPrompt, HERMES_SLOTS, hermesSlot, type HermesPrompt, type RoleSplit } from "./prompt";
import { hermesRedact } from "./redact";
import { serializeHermesTurns } from "./serialize";
import { HERMES_DEFAULTS, hermesShouldCompress, hermesSummaryBudget, hermesThresholds, type HermesThresholds, type ShouldCompressResult } from "./trigger";
import { HERMES_FAILURE_KINDS, hermesFailureOutcome, hermesFallbackSummary, type HermesFailureKind, type HermesFailureOutcome } from "./failure";
import { historyAfterTurn, recordedPromptTokens } from "../../../simulate/turn-history";
import { fillSlot } from "../../../simulate/instruction-slots";
import { hermesInference } from "./inference";

const PARAMETERS: readonly PolicyParameterSpec[] = [
  {
    name: "roleSplit",
    label: "Role split",
    type: "enum",
    default: "off",
    choices: ["off", "on", "pr", "fixed"],
    ruleId: "CP-HA-22",
    description: "off: one user message (main before the PR); pr: the PR as written (focus in the system message); fixed/on: the PR with the review's correction (focus in the user message).",
    presentation: {
      label: "Role split",
      choices: [
        { value: "off", label: "off (before the PR)" },
        { value: "pr", label: "pr (as written)" },
        { value: "fixed", label: "on (fixed)" },
      ],
    },
  },
  { name: "thresholdPercent", label: "threshold_percent", type: "number", default: HERMES_DEFAULTS.thresholdPercent, ruleId: "CP-HA-1", description: "Raised to at least 0.75 below 512000 tokens (CP-HA-2)." },
  { name: "maxTokens", label: "max_tokens", type: "number", default: null, ruleId: "CP-HA-3", description: "Configured output tokens subtracted from the context (None by default)." },
  { name: "tailTokenBudget", label: "tail_token_budget", type: "number", default: null, ruleId: "CP-HA-4", description: "The tail's token budget; null: int(threshold_tokens × summary_target_ratio) as hermes derives it. Set it (or let settings inference do) to try a tail without changing the trigger." },
  { name: "protectFirstN", label: "protect_first_n", type: "number", default: HERMES_DEFAULTS.protectFirstN, ruleId: "CP-HA-1", description: "Non-system head messages kept; decays to 0 after the first compaction." },
  { name: "protectLastN", label: "protect_last_n", type: "number", default: HERMES_DEFAULTS.protectLastN, ruleId: "CP-HA-1", description: "Tail floor is max(3, min(protect_last_n, 8))." },
  { name: "summaryTargetRatio", label: "summary_target_ratio", type: "number", default: HERMES_DEFAULTS.summaryTargetRatio, ruleId: "CP-HA-1", description: "Tail budget share of the threshold, clamped to [0.10, 0.80]." },
  { name: "promptTokens", label: "Prompt tokens", type: "number", default: null, ruleId: "CP-HA-5", description: "Prompt tokens for should_compress; default the provider's count recorded for the turn, else the CP-HA-10 estimate." },
  { name: "memoryContext", label: "Memory-provider context", type: "string", default: null, ruleId: "CP-HA-20", description: "Text the memory provider adds to the summariser input." },
  { name: "autoFocus", label: "Automatic focus", type: "boolean", default: true, ruleId: "CP-HA-21", description: "Without a manual focus, quote the last ≤ 3 real user turns of the summarised window.", inferred: "HA-INF-AUTOFOCUS" },
  { name: "summaryFails", label: "Summary call fails (auth/quota/network)", type: "boolean", default: false, ruleId: "CP-HA-30", description: "Simulate a summary failure that returns the input unchanged (same as summaryFailure network)." },
  { name: "summaryFailure", label: "Summary call failure", type: "enum", choices: [...HERMES_FAILURE_KINDS], default: "none", ruleId: "CP-HA-30", description: "auth / quota / network: input unchanged; timeout, json-decode, stream-closed, no-provider, other: deterministic fallback summary; each starts its CP-HA-6 cooldown." },
  { name: "abortOnSummaryFailure", label: "abort_on_summary_failure", type: "boolean", default: false, ruleId: "CP-HA-30", description: "Any summary failure returns the input unchanged." },
  { name: "summaryModel", label: "Summary model", type: "string", default: null, ruleId: "CP-HA-31", description: "A configured summary model; the call goes to it, and after a failure once more to the main model.", inferred: "CP-HA-31" },
  { name: "mainModelRetry", label: "Retry on the main model", type: "enum", choices: ["same", "ok"], default: "same", ruleId: "CP-HA-31", description: "same: the retry fails the same way; ok: it returns a summary.", inferred: "HA-INF-RETRY" },
  { name: "consecutiveTimeouts", label: "Consecutive timeouts", type: "number", default: 1, ruleId: "CP-HA-6", description: "Timeouts in a row, this one included: cooldown 60 → 300 → 900 s." },
];

const CHECKED: readonly Verdict[] = ["not-triggered", "nothing-to-compact", "compacted", "failed"];

export function roleSplitOf(value: unknown): RoleSplit {
  if (value === "pr") return "pr";
  if (value === "fixed" || value === "on" || value === true) return "fixed";
  return "off";
}

function numberParam(value: unknown, fallback: number | null): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

type Block = TextBlock | ImageBlock;

/**
 * The pi-shaped blocks of a hermes content list whose parts changed (pruned text, image parts
 * replaced by placeholders), or null when nothing changed. Parts map one to one onto the source
 * blocks; a string content is one text block.
 */
function rebuiltBlocks(content: HermesMessage["content"], source: readonly Block[]): Block[] | null {
  if (typeof content === "string") {
    const same = source.length === 1 && source[0]?.type === "text" && textString(source[0].text) === content;
    const joined = source.every((b) => b.type === "text") && source.map((b) => textString((b as TextBlock).text)).join("") === content;
    return same || joined ? null : [{ type: "text", text: content }];
  }
  let changed = content.length !== source.length;
  const blocks = content.map((part, i): Block => {
    const original = source[i];
    if (part.type === "image_url" && original?.type === "image") return original;
    const text = part.text ?? "";
    if (!original || original.type !== "text" || textString(original.text) !== text) changed = true;
    return { type: "text", text };
  });
  return changed ? blocks : null;
}

/** Back from hermes' list to pi-shaped context messages (for the provider serializers). */
function toContextMessage(message: HermesMessage, original: readonly ContextMessage[]): ContextMessage {
  const source = message.contextIndex !== null ? original[message.contextIndex] : undefined;
  const text = hermesContentText(message);
  if (message.compressedSummary) {
    const llm: LlmMessage =
      message.role === "assistant" ? { role: "assistant", content: [{ type: "text", text }] } : { role: "user", content: text };
    return { message: llm, provenance: { rule: "summary:compaction", entryId: null, ruleId: "CP-HA-29", explanation: "hermes-agent compaction summary message" } };
  }
  if (source && message.role === "tool" && source.message.role === "toolResult") {
    const blocks = rebuiltBlocks(message.content, source.message.content);
    if (blocks === null) return source;
    const pruned: ToolResultMessage = { ...source.message, content: blocks };
    return { message: pruned, provenance: { ...source.provenance, rule: "prune:tool-output", ruleId: "CP-HA-8" } };
  }
  if (source && message.role === "user" && source.message.role === "user" && !isText(source.message.content)) {
    const blocks = rebuiltBlocks(message.content, source.message.content);
    if (blocks === null) return source;
    return { message: { ...source.message, content: blocks }, provenance: { ...source.provenance, rule: "strip:historical-image", ruleId: "CP-HA-28" } };
  }
  if (source && message.role === "assistant" && source.message.role === "assistant") {
    const calls = new Map((message.toolCalls ?? []).map((call) => [call.id, call]));
    let shrunk = false;
    const blocks = source.message.content
      .filter((block) => block.type !== "toolCall" || calls.has(block.id))
      .map((block) => {
        if (block.type !== "toolCall") return block;
        const call = calls.get(block.id);
        if (!call || call.arguments === JSON.stringify(block.arguments ?? {})) return block;
        shrunk = true;
        return { ...block, arguments: parseNestedJson(call.arguments) as Record<string, unknown> };
      });
    if (blocks.length === source.message.content.length && !shrunk) return source;
    const content = blocks.length > 0 ? blocks : [{ type: "text" as const, text }];
    const stripped = blocks.length !== source.message.content.length;
    return {
      message: { ...source.message, content },
      provenance: { ...source.provenance, rule: stripped ? "strip:orphan-tool-call" : "prune:tool-arguments", ruleId: stripped ? "CP-HA-28" : "CP-HA-8" },
    };
  }
  if (source) return source;
  return { message: { role: "user", content: text }, provenance: { rule: "synth:hermes", entryId: null } };
}

function range(kind: PartitionRange["kind"], start: number, end: number, list: readonly HermesMessage[], estimates: readonly number[], context: readonly ContextMessage[], label?: string, ruleId?: string): PartitionRange {
  const entryIds: string[] = [];
  for (let i = start; i < end; i++) {
    const index = list[i]?.contextIndex;
    const entryId = index !== null && index !== undefined ? context[index]?.provenance.entryId : null;
    if (entryId && entryIds[entryIds.length - 1] !== entryId) entryIds.push(entryId);
  }
  const out: PartitionRange = {
    kind,
    messageStart: start < end ? start : null,
    messageEnd: start < end ? end : null,
    entryIds,
    lines: [],
    tokens: estimates.slice(start, end).reduce((a, b) => a + b, 0),
  };
  if (label) out.label = label;
  if (ruleId) out.ruleId = ruleId;
  return out;
}

/**
 * Turn N's context and its answer. A storage session's answer is the turn's own assistant entry
 * (OpenAI dict), which the generic helper does not read; message lists keep the generic form.
 */
function hermesHistoryAfterTurn(session: Session, context: SimulationContext): ContextMessage[] {
  const history = historyAfterTurn(session, context);
  if (!hermesStorageHeaderOf(session)) return history;
  const entry = session.entries.find((e) => e.id === context.turnContext.entryId);
  if (entry && entry.raw.role === "assistant" && history.length === context.turnContext.messages.length) {
    history.push({ message: messageView(entry.raw), provenance: { rule: "entry", entryId: entry.id } });
  }
  return history;
}

/** The summary message a re-simulated storage compaction recorded (CP-0-3), as its text. */
function recordedSummaryText(input: SimulationInput): string | null {
  const id = input.recordedCompactionEntryId;
  if (!id || (input.summary !== undefined && input.summary.kind !== "recorded") || !hermesStorageHeaderOf(input.session)) return null;
  const content = input.session.entries.find((e) => e.id === id)?.raw.content;
  return typeof content === "string" ? content : null;
}

/** What the phases of one hermes simulation share: turn N's list, its estimates and the model. */
interface HermesScene {
  original: ContextMessage[];
  list: HermesMessage[];
  estimates: number[];
  /** The CP-HA-10 estimate of the whole list. */
  estimated: number;
  model: ReturnType<typeof resolveModel>;
  manual: boolean;
  /** [INF] rule ids the phases depend on, added to as they run. */
  inferred: Set<string>;
}

/** (1) Trigger (CP-HA-2 … CP-HA-5). */
function hermesTrigger(input: SimulationInput, context: SimulationContext, scene: HermesScene): { trigger: TriggerDecision; thresholds: HermesThresholds; tailTokenBudget: number; decision: ShouldCompressResult } {
  const parameters = context.parameters;
  const thresholds = hermesThresholds({
    contextLength: context.limits.contextWindow,
    maxTokens: numberParam(parameters.maxTokens, null),
    thresholdPercent: numberParam(parameters.thresholdPercent, HERMES_DEFAULTS.thresholdPercent) ?? undefined,
    summaryTargetRatio: numberParam(parameters.summaryTargetRatio, HERMES_DEFAULTS.summaryTargetRatio) ?? undefined,
    modelName: scene.model.id,
  });
  // A given tail budget wins over the derived one (CP-HA-4): the keep setting inference bounds.
  const tailTokenBudget = numberParam(parameters.tailTokenBudget, null) ?? thresholds.tailTokenBudget;
  const given = numberParam(parameters.promptTokens, null);
  const recorded = recordedPromptTokens(input.session, context.turnContext.entryId);
  const promptTokens = given ?? recorded ?? scene.estimated;
  const promptSource = given !== null ? "parameter" : recorded !== null ? "provider prompt_tokens recorded for the turn" : "estimate (CP-HA-10)";
  const decision = hermesShouldCompress({ promptTokens, thresholdTokens: thresholds.thresholdTokens });
  const manual = scene.manual;
  const trigger: TriggerDecision = {
    evaluated: !manual,
    manual,
    operands: [
      { name: "prompt tokens", value: promptTokens, source: promptSource },
      { name: "threshold_tokens", value: thresholds.thresholdTokens, source: thresholds.steps.join("; ") },
      { name: "context_length", value: context.limits.contextWindow, source: context.limits.contextWindowSource },
      { name: "tail_token_budget", value: tailTokenBudget, source: tailTokenBudget === thresholds.tailTokenBudget ? "CP-HA-4" : "parameter tailTokenBudget" },
      { name: "max_summary_tokens", value: thresholds.maxSummaryTokens, source: "CP-HA-4" },
    ],
    operator: ">=",
    left: promptTokens,
    right: thresholds.thresholdTokens,
    result: decision.fire,
    expression: `${promptTokens} ≥ ${thresholds.thresholdTokens} → ${decision.fire ? "compress" : "not triggered"}${manual ? " (manual /compress: trigger skipped)" : ""}`,
    ruleId: "CP-HA-5",
    estimator: "hermes: content chars/4 + 10 per message (code points), tool envelopes, replay fields, images 1600 (CP-HA-10)",
  };
  return { trigger, thresholds, tailTokenBudget, decision };
}

/** (2) Partition (CP-HA-7 … CP-HA-11): tool outputs pruned, then head, middle and tail. */
function hermesPartitionPhase(context: SimulationContext, scene: HermesScene, tailTokenBudget: number): { pruned: HermesMessage[]; split: HermesPartition; middle: HermesMessage[]; partition: Partition } {
  const parameters = context.parameters;
  const { list, estimates, original } = scene;
  const compactedBefore = list.some(isHandoffSummary);
  // Phase 1 (CP-HA-8) runs on the whole list before the boundaries are chosen.
  const pruning = pruneToolOutputs(list, {
    protectLastN: numberParam(parameters.protectLastN, HERMES_DEFAULTS.protectLastN) ?? 20,
    tailTokenBudget,
  });
  const pruned = pruning.messages;
  const split = hermesPartition({
    messages: pruned,
    protectFirstN: numberParam(parameters.protectFirstN, HERMES_DEFAULTS.protectFirstN) ?? 3,
    protectLastN: numberParam(parameters.protectLastN, HERMES_DEFAULTS.protectLastN) ?? 20,
    tailTokenBudget,
    compactedBefore,
  });
  const { headEnd, tailStart } = split;
  const middle = pruned.slice(headEnd, tailStart).filter((_, i) => !split.handoffIndexes.includes(headEnd + i));
  const partition: Partition = {
    kept: [
      range("kept", 0, headEnd, list, estimates, original, "head (system + protect_first_n)", "CP-HA-9"),
      range("kept", tailStart, list.length, list, estimates, original, "tail (token budget)", "CP-HA-10"),
    ].filter((r) => r.messageStart !== null),
    summarised: split.refused ? [] : [range("summarised", headEnd, tailStart, list, estimates, original, "middle", "CP-HA-9")],
    pruned: pruning.pruned.map((span) => ({
      ...range("pruned", span.index, span.index + 1, list, estimates, original, `${span.reason}${span.pressure ? " (tail pressure pass)" : ""}: ${span.replacement.slice(0, 80)}`, "CP-HA-8"),
    })),
    droppedWithoutSummary: [],
    details: {
      headEnd,
      tailStart,
      // Where the kept tail starts, as an entry (compared with pi's firstKeptEntryId when hermes is run on a pi file).
      firstKeptEntryId: range("kept", tailStart, list.length, list, estimates, original).entryIds[0] ?? null,
      protectFirstN: split.protectFirstNUsed,
      tailTokens: split.tailTokens,
      middleTokens: split.middleTokens,
      refused: split.refused,
      previousSummary: split.previousSummary !== null,
      note: [...split.notes, ...(pruning.pressurePass ? ["tail over 1.5 × tail_token_budget: pressure pass demoted tool outputs inside it (CP-HA-8)"] : [])].join("; ") || null,
      pruneBoundary: pruning.boundary,
      answerIndex: original.length > context.turnContext.messages.length ? context.turnContext.messages.length : null,
    },
  };
  return { pruned, split, middle, partition };
}

/** (3) Summariser request (CP-HA-12 … CP-HA-24), before the failure outcome multiplies it. */
function hermesSummariser(input: SimulationInput, context: SimulationContext, scene: HermesScene, split: HermesPartition, middle: HermesMessage[], maxSummaryTokens: number): { requests: SimulatedSummariserRequest[]; prompt: HermesPrompt; realUsers: string[] } {
  const parameters = context.parameters;
  const roleSplit = roleSplitOf(parameters.roleSplit);
  const serialized = serializeHermesTurns(middle);
  const realUsers = middle.filter(isRealUserTurn).map(hermesContentText);
  const manualFocus = input.focus && input.focus.trim() !== "" ? hermesRedact(input.focus).text : null;
  const autoFocus = manualFocus === null && parameters.autoFocus !== false ? automaticFocus(realUsers.map((t) => hermesRedact(t).text)) : null;
  if (autoFocus !== null) scene.inferred.add("HA-INF-AUTOFOCUS");
  const focus = manualFocus ?? autoFocus;
  const budget = hermesSummaryBudget(split.middleTokens, maxSummaryTokens);
  const iterative = split.previousSummary !== null;
  const memory = typeof parameters.memoryContext === "string" && parameters.memoryContext !== "" ? hermesRedact(parameters.memoryContext).text : null;
  const previousSummary = split.previousSummary !== null ? hermesRedact(split.previousSummary).text : null;
  const prompt = buildHermesPrompt({
    roleSplit,
    iterative,
    previousSummary,
    turnsText: serialized.text,
    memory,
    focus,
    budget,
    model: scene.model.id,
    ...(input.instructions ? { instructions: input.instructions } : {}),
  });
  const userControlled = [...(manualFocus ? [manualFocus] : []), ...(autoFocus ? [autoFocus] : []), ...realUsers.filter((t) => t.trim().length >= 16)];
  const requests: SimulatedSummariserRequest[] = split.refused
    ? []
    : [
        {
          role: iterative ? "update" : "summary",
          api: "openai-completions",
          form: `standalone, roleSplit ${roleSplit}`,
          body: prompt.body,
          maxTokens: null,
          dataPart: { turns: serialized.text, previousSummary, memory, focus },
          instructionSlots: prompt.slots,
          cache: cacheEffect(`turn ${input.turn} main request`, context.turnRequest.body, prompt.body),
          focusPlacement: prompt.focusPlacement,
          redaction: `strict (CP-HA-27): ${serialized.redactions.length} value(s) masked in the turns${serialized.omitted > 0 ? `; aggregate cap omitted ${serialized.omitted} chars (CP-HA-14)` : ""}`,
          notes: [
            "auxiliary task `compression`: no max_tokens, no tools (CP-HA-22)",
            `summary budget (guidance only): ${budget} tokens (CP-HA-15)`,
            ...(autoFocus !== null ? ["automatic focus quoted from the last real user turns (CP-HA-21)"] : []),
          ],
          findingInputs: {
            instructionTexts: prompt.instructionTexts,
            turnTexts: [serialized.text, ...(previousSummary ? [previousSummary] : [])],
            userControlledTexts: userControlled,
            checkpointInstruction: true,
          },
        },
      ];
  return { requests, prompt, realUsers };
}

/**
 * CP-HA-6 / CP-HA-30 / CP-HA-31: the summary call's outcome. The request is repeated once per
 * attempt (a retry on the main model); its failure and cooldown become findings.
 */
function hermesSummaryOutcome(context: SimulationContext, scene: HermesScene, requests: SimulatedSummariserRequest[], findings: Finding[]): HermesFailureOutcome {
  const parameters = context.parameters;
  const failure = hermesFailureOutcome({
    failure: parameters.summaryFails === true ? "network" : ((HERMES_FAILURE_KINDS as readonly string[]).includes(String(parameters.summaryFailure)) ? (parameters.summaryFailure as HermesFailureKind) : "none"),
    abortOnSummaryFailure: parameters.abortOnSummaryFailure === true,
    summaryModel: typeof parameters.summaryModel === "string" && parameters.summaryModel.length > 0 ? parameters.summaryModel : null,
    mainModel: scene.model.id,
    mainModelRetry: parameters.mainModelRetry === "ok" ? "ok" : "same",
    consecutiveTimeouts: numberParam(parameters.consecutiveTimeouts, 1) ?? 1,
  });
  if (requests.length > 0) {
    const template = requests[0]!;
    requests.splice(0, 1, ...failure.attempts.map((attempt, i) => ({ ...template, role: i === 0 ? template.role : `${template.role} (retry on the main model)`, body: { ...template.body, model: attempt.model }, notes: [...template.notes, ...(attempt.failed ? [`this call fails (CP-HA-30)`] : [])] })));
  }
  if (failure.attempts.length > 1 || parameters.summaryModel) scene.inferred.add("HA-INF-RETRY");
  const fallback = failure.outcome === "fallback";
  if (fallback) scene.inferred.add("HA-INF-FALLBACK-TEXT");
  if (failure.message) findings.push({ id: fallback ? "deterministic-fallback-summary" : "summary-failed", severity: "warning", message: failure.message, location: null, ruleId: "CP-HA-30" });
  if (failure.cooldownSeconds !== null) findings.push({ id: "summary-cooldown", severity: "info", message: `automatic compression is blocked for ${failure.cooldownSeconds} s after this failure (CP-HA-6)`, location: null, ruleId: "CP-HA-6" });
  return failure;
}

/** (4) After the compaction (CP-HA-26 … CP-HA-29): the compressed list and the next request. */
function hermesAfter(
  input: SimulationInput,
  context: SimulationContext,
  scene: HermesScene,
  parts: { pruned: HermesMessage[]; split: HermesPartition; realUsers: string[]; failure: HermesFailureOutcome; compress: boolean },
): { after: AfterCompaction; summaryText: string; afterTokens: number } {
  const { pruned, split, realUsers, failure, compress } = parts;
  const summary = resolveSummary({
    session: input.session,
    source: input.summary,
    recorded: recordedSummaryText(input),
    headings: ["## Historical Task Snapshot", "## Goal", "## Constraints & Preferences", "## Completed Actions", "## Active State", "## Critical Context"],
  });
  const newestUser = realUsers.length > 0 ? (realUsers[realUsers.length - 1] as string) : null;
  const body = processSummaryOutput(summary.text, newestUser);
  const prefix = fillSlot(hermesSlot("summary-prefix"), input.instructions);
  const fallback = failure.outcome === "fallback";
  const summaryText = summaryMessageText(prefix.text, fallback ? processSummaryOutput(hermesFallbackSummary(context.parameters.summaryFailure as HermesFailureKind, []), newestUser) : body);
  const assembled = assembleCompressed(pruned.slice(0, split.headEnd), summaryText, pruned.slice(split.tailStart), realUsers.length > 0);
  const afterMessages = compress ? assembled.messages.map((m) => toContextMessage(m, scene.original)) : scene.original;
  const api = input.api ?? context.turnRequest.api;
  const serializedAfter = getSerializer(api).serialize({
    model: scene.model,
    messages: afterMessages.map((item) => item.message),
    header: input.options.header ?? null,
    thinkingLevel: context.turnContext.thinkingLevel,
  });
  const afterTokens = assembled.messages.reduce((sum, m) => sum + hermesMessageTokens(m), 0);
  const after: AfterCompaction = {
    summary,
    messages: afterMessages,
    request: { api, body: serializedAfter.body },
    prefixBreak: compress ? findPrefixBreak(context.turnRequest.body, serializedAfter.body, "hermes compaction replaced the middle with a summary message") : null,
    followingTurns: [],
    storedRecord: compress
      ? { role: assembled.placement.role, merged: assembled.placement.merged, reason: assembled.placement.reason, _compressed_summary: true, _compressed_summary_has_user_turn: realUsers.length > 0, droppedOrphanResults: assembled.droppedOrphanResults, strippedOrphanCalls: assembled.strippedOrphanCalls, imagesStripped: assembled.imagesStripped, systemNote: assembled.systemNote }
      : null,
  };
  return { after, summaryText, afterTokens };
}

/** (5) Verdict: refused, not triggered, failed or compacted. */
function hermesVerdict(scene: HermesScene, split: HermesPartition, decision: ShouldCompressResult, failure: HermesFailureOutcome): VerdictResult {
  if (split.refused) return makeVerdict(hermesPolicy, "nothing-to-compact", "CP-HA-7");
  if (!scene.manual && !decision.fire) return makeVerdict(hermesPolicy, "not-triggered", "CP-HA-5", decision.blockedBy ? `blocked by ${decision.blockedBy}` : null);
  if (failure.outcome === "unchanged") return makeVerdict(hermesPolicy, "failed", "CP-HA-30", failure.message);
  return makeVerdict(hermesPolicy, "compacted", "CP-HA-32");
}

/** (6) Findings of the requests, the cut and the compaction's effect. */
function hermesFindings(scene: HermesScene, requests: SimulatedSummariserRequest[], prompt: HermesPrompt, split: HermesPartition, outcome: { compacted: boolean; afterTokens: number; thresholdTokens: number; summaryText: string }): Finding[] {
  const findings: Finding[] = [...checkSummariserRequests(requests)];
  const sideOf = (index: number) => (index >= split.headEnd && index < split.tailStart ? "summarised" : "kept") as "summarised" | "kept";
  findings.push(...checkToolPairsAcrossCut(scene.original, sideOf));
  for (const use of prompt.slots) {
    if (use.filledFrom === "description") {
      findings.push({ id: "instruction-slot-described", severity: "info", message: `slot "${use.slot}" holds Contextscope's description, not hermes-agent's text`, location: { request: 0 }, ruleId: "CP-HA-16" });
    }
  }
  if (outcome.compacted && outcome.afterTokens >= outcome.thresholdTokens) {
    findings.push({
      id: "ineffective-compaction",
      severity: "warning",
      message: `after compaction the estimate is still ${outcome.afterTokens} ≥ threshold ${outcome.thresholdTokens}; two in a row block automatic compression (CP-HA-5)`,
      location: { request: "after" },
      ruleId: "CP-HA-32",
    });
  }
  if (outcome.compacted && estimateTextTokens(outcome.summaryText) > split.middleTokens) {
    findings.push({ id: "summary-larger-than-range", severity: "info", message: "the summary is larger than the range it replaces", location: null, ruleId: "CP-HA-29" });
  }
  return findings;
}

function hermesScene(input: SimulationInput, context: SimulationContext): HermesScene {
  const original = hermesHistoryAfterTurn(input.session, context);
  const list = hermesMessagesOf(original);
  const estimates = list.map(hermesMessageTokens);
  return {
    original,
    list,
    estimates,
    estimated: estimates.reduce((a, b) => a + b, 0),
    model: applyLimits(resolveModel(context.turnContext.model, context.turnContext.api, input.options.modelOverrides), context.limits),
    manual: input.manual === true,
    inferred: new Set<string>(["HA-INF-TAIL-GROUP", "HA-INF-TAIL-KEEP", "HA-INF-CAP-JOIN", "HA-INF-SUMMARY-BODY", "HA-INF-PRUNE-LINE", "CP-HA-27-mask"]),
  };
}

function simulateHermes(input: SimulationInput, context: SimulationContext): SimulationResult {
  const scene = hermesScene(input, context);
  const { trigger, thresholds, tailTokenBudget, decision } = hermesTrigger(input, context, scene);
  if (input.triggerOnly === true) return emptyResultParts(hermesPolicy, input, context, trigger);
  const { pruned, split, middle, partition } = hermesPartitionPhase(context, scene, tailTokenBudget);
  const { requests, prompt, realUsers } = hermesSummariser(input, context, scene, split, middle, thresholds.maxSummaryTokens);
  const findings: Finding[] = [];
  const failure = hermesSummaryOutcome(context, scene, requests, findings);
  const compress = !split.refused && failure.outcome !== "unchanged" && (scene.manual || decision.fire);
  const { after, summaryText, afterTokens } = hermesAfter(input, context, scene, { pruned, split, realUsers, failure, compress });
  const verdict = hermesVerdict(scene, split, decision, failure);
  findings.push(...hermesFindings(scene, requests, prompt, split, { compacted: verdict.verdict === "compacted", afterTokens, thresholdTokens: thresholds.thresholdTokens, summaryText }));
  return simulationResult(hermesPolicy, input, context, {
    trigger,
    partition,
    summariserRequests: requests,
    after,
    verdict,
    tokens: tokenSummary(trigger.estimator, scene.estimated, compress ? afterTokens : scene.estimated, requests[0] ? estimateJsonTokens(requests[0].body) : 0),
    findings,
    inferred: [...scene.inferred],
  });
}

export const hermesPolicy: CompactionPolicy = {
  id: "hermes",
  label: "hermes-agent context compressor",
  rulePrefix: "CP-HA",
  parameters: PARAMETERS,
  checkedVerdicts: CHECKED,
  instructionSlots: HERMES_SLOTS,
  simulate: simulateHermes,
  inference: hermesInference,
};
