// The senpi policy (compaction-policies.md §2, pi-senpi.md §5.10): pi's cut and preparation with
// senpi's rules, and the cache-friendly replay request — the agent's own system prompt, tools and
// context messages up to the summarised boundary, byte-identical to the head of the last main
// request, followed by one trailing user message with the instruction (CP-SE-1 … CP-SE-3). Falls
// back to pi's standalone form when the replay does not fit (CP-SE-5, pi-senpi.md §6 row 27).
import { senpiInference } from "./inference";
import { sessionWithSimulatedCompaction } from "./compaction-point";
import type { ContextMessage, LlmMessage, UserMessage } from "../../../model";
import { isText, textString } from "../../../text/text";
import { estimateContextTokens, type CompactionRebuild } from "../compaction";
import { projectPath } from "../projection";
import { resolveModel } from "../../../models/catalogue";
import { getSerializer } from "../../../providers";
import { checkSummariserRequests } from "../../../simulate/findings";
import { applyLimits } from "../../../simulate/limits";
import { cacheEffect, prefixText } from "../../../simulate/prefix";
import { fillSlot } from "../../../simulate/instruction-slots";
import { estimateJsonTokens, estimateTextTokens } from "../../../simulate/text-tokens";
import { makeVerdict } from "../../../simulate/verdict";
import { simulationResult, tokenSummary } from "../../../simulate/result";
import type {
  AfterCompaction,
  CompactionPolicy,
  Finding,
  PolicyParameterSpec,
  SimulatedSummariserRequest,
  SimulationContext,
  SimulationInput,
  SimulationResult,
  TriggerDecision,
} from "../../../simulate/types";
import { piAfter, piCutFindings, piFamilyNotApplicable, piPartition, piStoredRecord, piSummary, preparePiFamily, type PiFamilyParameters, type PiFamilyPreparation } from "./family";
import { contextOfPath } from "./path-context";
import { PI_PARAMETERS, piParameters, toSimulatedRequest } from "./pi-policy";
import { lintFindings, sumMessageTokens, userTurnTexts } from "./result-parts";
import { emptyResultParts } from "../../../simulate/empty-result";
import { readCapturedSenpiRequest, SENPI_REPLAY_SLOTS, SENPI_SLOTS, withFocusBlock } from "./senpi-slots";
import { effectiveKeepRecentTokens, effectiveThresholdRatio, findSpeculativeStart, recordedSpeculativeStart, type SpeculativeSearch } from "./senpi-speculative";

/** CP-SE-5 safety margin. */
const REPLAY_FIT_MARGIN = 4096;

const SENPI_PARAMETERS: readonly PolicyParameterSpec[] = [
  // senpi's own summariser outcomes are `summaryOutcome` (CP-SE-8).
  ...PI_PARAMETERS.filter((p) => p.name !== "boundaryRule" && p.name !== "turnPrefixForm" && p.name !== "summaryError" && p.name !== "turnPrefixError"),
  { name: "cacheFriendly", label: "cache-friendly replay", type: "boolean", default: true, ruleId: "CP-SE-1", description: "Replay the agent's context (on) or send pi's standalone form (off)." },
  { name: "thresholdRatio", label: "threshold ratio", type: "number", default: 0.5, ruleId: "CP-SE-INF-1", inferred: "CP-SE-INF-1", description: "senpi's adaptive trigger: compact when context tokens > ratio × window (fixture senpi/print-openai-autocompact: 0.5). null: pi's window − reserve." },
  { name: "splitTurnRequests", label: "split-turn requests", type: "enum", choices: ["single", "history-and-prefix"], default: "single", ruleId: "CP-SE-INF-2", inferred: "CP-SE-INF-2", description: "single: one turn-prefix replay request over the whole source up to the cut (senpi 2026.8.22-2, fixture request 009); history-and-prefix: CP-SE-2's pair." },
  { name: "replayMaxTokens", label: "replay output cap", type: "enum", choices: ["model", "reserve-cap"], default: "model", ruleId: "CP-SE-INF-3", inferred: "CP-SE-INF-3", description: "model: the request keeps the main request's output cap (fixture: 4000); reserve-cap: CP-SE-7's min(0.8/0.5 × reserve, model)." },
  { name: "focusFormat", label: "focus format", type: "enum", choices: ["custom-instructions", "additional-focus"], default: "custom-instructions", ruleId: "CP-SE-INF-4", inferred: "CP-SE-INF-4", description: "custom-instructions: `\\n\\n<custom-instructions>\\n…\\n</custom-instructions>` (fixture); additional-focus: CP-SE-4's `\\n\\nAdditional focus: `." },
  { name: "cut", label: "cut point", type: "enum", choices: ["computed", "recorded"], default: "computed", ruleId: "PI-R12", description: "computed: pi's cut with the given settings; recorded: at a recorded compaction, its firstKeptEntryId (rebuilding a recording whose settings the session does not hold)." },
  { name: "speculative", label: "speculative compaction", type: "boolean", default: false, ruleId: "SP-K6", description: "senpi's warm job (settings speculativeEnabled, default on in senpi; off in the fixture): the compaction applies the cut and summariser request prepared at the first earlier prompt start past speculativeFraction × threshold." },
  { name: "speculativeFraction", label: "speculative fraction", type: "number", default: 0.75, ruleId: "SP-K6", description: "settings speculativeFraction: the warm job starts at usage + pending prompt ≥ window × threshold ratio × this." },
  { name: "summaryOutcome", label: "summariser outcome", type: "enum", choices: ["ok", "error", "length", "tool-call"], default: "ok", ruleId: "CP-SE-8", description: "Simulated outcome of the summariser call (CP-SE-8 errors)." },
];

interface ReplaySpec {
  role: "history" | "turn-prefix";
  /** Path index limit: source = previous summary + entries [boundaryStart, limit). */
  limit: number;
  slot: string;
  focus: string | null;
}

/** CP-SE-1/CP-SE-2: the context messages of the path up to `limit` (previous summary first). */
function replaySource(prep: PiFamilyPreparation, limit: number): ContextMessage[] {
  const rebuild = prep.rebuild!;
  const indexOf = new Map(prep.point.path.map((e, i) => [e.id, i] as const));
  const all = contextOfPath(prep.point.path, "senpi").messages;
  return all.filter((m) => {
    const id = m.provenance.entryId;
    if (id === null) return false;
    if (id === rebuild.preparation.previousCompactionId) return true;
    const index = indexOf.get(id);
    return index !== undefined && index >= rebuild.preparation.boundaryStart && index < limit;
  });
}

/** SP-K2: max(usage, estimate), except estimate ≥ 50000 and usage > 8 × estimate → estimate. */
function senpiTrigger(prep: PiFamilyPreparation, input: SimulationInput, context: SimulationContext, reserve: number, ratio: number | null): TriggerDecision {
  const projected = projectPath(prep.point.path, "senpi").messages.map((m) => m.message);
  const anchored = estimateContextTokens(projected, "senpi");
  const usage = Math.max(0, anchored.usageIndex >= 0 ? anchored.usageTokens : 0);
  const estimate = Math.max(0, sumMessageTokens(projected, "senpi"));
  const tokens = estimate >= 50000 && usage > 8 * estimate ? estimate : Math.max(usage, estimate);
  const window = context.limits.contextWindow;
  const threshold = ratio !== null ? window * ratio : window - reserve;
  const manual = input.manual === true;
  const result = tokens > threshold;
  return {
    evaluated: !manual,
    manual,
    operands: [
      { name: "usageTokens", value: usage, source: "last successful usage (PI-K3)" },
      { name: "estimateTokens", value: estimate, source: "senpi chars/4 of every message (PI-K2, SP-K1)" },
      { name: "contextTokens", value: tokens, source: "SP-K2 max(usage, estimate)" },
      { name: "contextWindow", value: window, source: context.limits.contextWindowSource },
      ratio !== null ? { name: "thresholdRatio", value: ratio, source: "parameter thresholdRatio [INF CP-SE-INF-1]" } : { name: "reserveTokens", value: reserve, source: "parameter reserveTokens" },
    ],
    operator: ">",
    left: tokens,
    right: threshold,
    result,
    expression: ratio !== null ? `${tokens} > ${window} × ${ratio} = ${threshold} → ${result ? "compact" : "no"}` : `${tokens} > ${window} − ${reserve} = ${threshold} → ${result ? "compact" : "no"}`,
    ruleId: ratio !== null ? "CP-SE-INF-1" : "PI-K5",
    estimator: "senpi chars/4 (PI-K2, SP-K1) and recorded usage (SP-K2)",
  };
}

function instructionMessage(text: string, timestamp: number): UserMessage {
  return { role: "user", content: [{ type: "text", text }], timestamp };
}

/** The preparations of one senpi simulation: where the compaction cuts, and where its requests were built. */
interface SenpiPreparations {
  prep: PiFamilyPreparation;
  /** The preparation the summariser requests come from (a warm job's snapshot, SP-K8). */
  requestPrep: PiFamilyPreparation;
  speculative: SpeculativeSearch | null;
}

/** A compaction point at a prompt start on the path (where a warm job took its snapshot). */
function snapshotPoint(start: { sentBeforeTurn: number; path: PiFamilyPreparation["point"]["path"] }): PiFamilyPreparation["point"] {
  return { turn: start.sentBeforeTurn - 1, path: start.path, parent: start.path[start.path.length - 1]!, recorded: null };
}

/**
 * SP-K6/SP-K8: with a warm job, the requests come from the branch at its prompt start and the
 * compaction at the point takes that snapshot's cut. On a recording, a compaction senpi stored
 * with origin "speculative" was summarised at an earlier prompt start; its request is the same
 * (the recorded cut), sent before that prompt.
 */
function senpiSpeculative(input: SimulationInput, context: SimulationContext, first: PiFamilyPreparation, piParams: PiFamilyParameters, ratio: number | null): SenpiPreparations {
  const params = context.parameters;
  const window = context.limits.contextWindow;
  let prep = first;
  let speculative: SpeculativeSearch | null = null;
  let requestPrep = prep;
  if (params.speculative === true && !input.manual && params.cut !== "recorded") {
    const fraction = typeof params.speculativeFraction === "number" ? params.speculativeFraction : 0.75;
    speculative = findSpeculativeStart(prep.point.path, window, ratio ?? effectiveThresholdRatio(window), fraction, piParams.reserveTokens);
    const start = speculative.start;
    if (start) {
      const snapshot = preparePiFamily(input, "senpi", piParams, snapshotPoint(start));
      if (snapshot.rebuild?.firstKeptEntryId) {
        requestPrep = snapshot;
        prep = preparePiFamily(input, "senpi", { ...piParams, forcedCut: snapshot.rebuild.firstKeptEntryId });
      } else {
        speculative = { start: null, note: `${speculative.note}; nothing to compact on that branch, so no warm result` };
      }
    }
  }
  const recordedDetails = prep.point.recorded?.raw.details as { origin?: unknown } | undefined;
  if (params.cut === "recorded" && recordedDetails?.origin === "speculative" && typeof prep.point.recorded?.raw.tokensBefore === "number") {
    const start = recordedSpeculativeStart(prep.point.path, prep.point.recorded.raw.tokensBefore);
    if (start) {
      const cut = prep.point.recorded.raw.firstKeptEntryId;
      const snapshot = preparePiFamily(input, "senpi", { ...piParams, ...(typeof cut === "string" ? { forcedCut: cut } : {}) }, snapshotPoint(start));
      if (snapshot.rebuild) {
        requestPrep = snapshot;
        speculative = { start: { path: start.path, promptEntryId: start.promptEntryId, sentBeforeTurn: start.sentBeforeTurn, tokens: prep.point.recorded.raw.tokensBefore, startThreshold: 0, blockingThreshold: 0 }, note: `recorded origin "speculative": the warm job prepared the branch at prompt ${start.promptEntryId}, whose context estimate equals the recorded tokensBefore ${prep.point.recorded.raw.tokensBefore}` };
      }
    } else {
      speculative = { start: null, note: `recorded origin "speculative", but no prompt start has the recorded tokensBefore ${prep.point.recorded.raw.tokensBefore}: request placed at the compaction` };
    }
  }
  return { prep, requestPrep, speculative };
}

/** The replay requests senpi makes: history (or its update), turn prefix, or both (CP-SE-1 … CP-SE-3). */
function replaySpecs(rebuild: CompactionRebuild, splitTurnRequests: unknown, focus: string | null): ReplaySpec[] {
  const p = rebuild.preparation;
  const specs: ReplaySpec[] = [];
  const historySlot = p.previousSummary ? "historyUpdateReplayPrompt" : "historyReplayPrompt";
  if (p.isSplitTurn && splitTurnRequests !== "history-and-prefix") {
    specs.push({ role: "turn-prefix", limit: p.firstKeptEntryIndex, slot: "turnPrefixReplayPrompt", focus });
  } else {
    if (!p.isSplitTurn || rebuild.requests.some((r) => r.role === "history")) specs.push({ role: "history", limit: p.historyEnd, slot: historySlot, focus });
    if (p.isSplitTurn) specs.push({ role: "turn-prefix", limit: p.firstKeptEntryIndex, slot: "turnPrefixReplayPrompt", focus: null });
  }
  return specs;
}

/**
 * The cache-friendly replay requests, each checked to fit the window (CP-SE-5); null when one
 * does not fit, so the standalone form is sent instead.
 */
function replayRequests(input: SimulationInput, context: SimulationContext, requestPrep: PiFamilyPreparation, specs: readonly ReplaySpec[], reserveTokens: number, notes: string[]): SimulatedSummariserRequest[] | null {
  const params = context.parameters;
  const model = applyLimits(resolveModel(context.turnContext.model, context.turnContext.api, input.options.modelOverrides), context.limits);
  const api = input.api ?? input.options.api ?? context.turnRequest.api;
  const focusFormat = String(params.focusFormat ?? "custom-instructions");
  const automaticFocus = input.manual ? null : (input.instructions?.slots.automaticFocus ?? null);
  const timestamp = requestPrep.point.parent.timestamp ? Date.parse(requestPrep.point.parent.timestamp) : 0;
  const requests: SimulatedSummariserRequest[] = [];
  for (const spec of specs) {
    const filled = fillSlot(SENPI_REPLAY_SLOTS.find((s) => s.slot === spec.slot)!, input.instructions);
    const instruction = withFocusBlock(filled.text, spec.focus, focusFormat);
    const source = replaySource(requestPrep, spec.limit);
    const cap = spec.role === "history" ? Math.floor(0.8 * reserveTokens) : Math.floor(0.5 * reserveTokens);
    // CP-SE-INF-3 "model": the main request's output cap (an attached header's, else the model's).
    const mainCap = input.options.header?.maxTokens ?? model.maxTokens;
    const maxTokens = params.replayMaxTokens === "reserve-cap" ? (model.maxTokens > 0 ? Math.min(cap, model.maxTokens) : cap) : mainCap;
    const messages: LlmMessage[] = [...source.map((m) => m.message), instructionMessage(instruction, timestamp)];
    const header = input.options.header ? { ...input.options.header, maxTokens } : null;
    const body = getSerializer(api).serialize({ model: { ...model, maxTokens }, messages, header, thinkingLevel: context.turnContext.thinkingLevel }).body;
    // CP-SE-5: estimate(source + instruction) + maxTokens + 4096 ≤ window (estimated).
    const estimate = estimateTextTokens(prefixText(body));
    const fits = model.contextWindow <= 0 || estimate + maxTokens + REPLAY_FIT_MARGIN <= model.contextWindow;
    notes.push(`${spec.role}: replay fit check (estimated) ${estimate} + ${maxTokens} + ${REPLAY_FIT_MARGIN} ${fits ? "≤" : ">"} ${model.contextWindow} → ${fits ? "replay" : "standalone"} (CP-SE-5)`);
    if (!fits) return null;
    requests.push({
      role: spec.role,
      api,
      form: "replay",
      body,
      maxTokens,
      dataPart: replayDataPart(body),
      instructionSlots: [filled.use, ...(spec.focus && spec.focus === automaticFocus ? [fillSlot(SENPI_REPLAY_SLOTS[3]!, input.instructions).use] : [])],
      cache: cacheEffect(`turn ${context.turnContext.turn} main request`, context.turnRequest.body, body),
      focusPlacement: spec.focus ? `trailing user message, after the instruction (${focusFormat})` : null,
      redaction: "none (CP-SE-12)",
      notes: [
        "cacheRetention short, the active path's routing session, toolChoice none (CP-SE-6)",
        ...(header ? [] : ["system prompt and tools not recorded: attach a request header (a captured main request)"]),
      ],
      findingInputs: {
        instructionTexts: [filled.text],
        turnTexts: source.map((m) => textOf(m.message)).filter((t) => t.length > 0),
        userControlledTexts: [...(spec.focus ? [spec.focus] : []), ...userTurnTexts(context)],
        checkpointInstruction: true,
      },
    });
  }
  return requests;
}

/** (3) The summariser requests: replayed when they fit and cacheFriendly is on, else standalone (SP-K3). */
function senpiSummariser(input: SimulationInput, context: SimulationContext, preps: SenpiPreparations, rebuild: CompactionRebuild, reserveTokens: number): SimulatedSummariserRequest[] {
  const params = context.parameters;
  const { requestPrep, speculative } = preps;
  const automaticFocus = input.manual ? null : (input.instructions?.slots.automaticFocus ?? null);
  const specs = replaySpecs(rebuild, params.splitTurnRequests, input.focus ?? automaticFocus);
  const notes: string[] = [];
  const replayed = params.cacheFriendly === false ? [] : replayRequests(input, context, requestPrep, specs, reserveTokens, notes);
  // Standalone form (pi-senpi.md §5.6) with senpi's deltas (SP-K3): cacheRetention "none", no cache markers.
  const requests =
    params.cacheFriendly === false || replayed === null
      ? rebuild.requests.map((r) => {
          const simulated = toSimulatedRequest(r, requestPrep, input, context, "standalone");
          simulated.body = withoutCacheMarkers(simulated.body) as Record<string, unknown>;
          simulated.notes.push("cacheRetention none, a fresh request identity, toolChoice none, no tools (CP-SE-6, SP-K3)");
          return simulated;
        })
      : replayed;
  for (const r of requests) r.notes.push(...notes);
  if (speculative?.start) {
    for (const r of requests) {
      r.sentBeforeTurn = speculative.start.sentBeforeTurn;
      r.notes.push(`sent speculatively alongside turn ${speculative.start.sentBeforeTurn}'s first request (${speculative.note}); applied at this point because the summarised prefix is unchanged (SP-K8)`);
    }
  }
  return requests;
}

/** CP-SE-8: the message of a summary call that did not return a summary, or null when it did. */
function summaryFailure(outcome: string, requests: readonly SimulatedSummariserRequest[]): string | null {
  if (outcome === "ok") return null;
  const prefix = requests[0]?.role === "turn-prefix" ? "Turn prefix summarization" : "Summarization";
  return outcome === "tool-call" ? `${prefix} attempted to call a tool` : outcome === "length" ? `${prefix} failed: generation hit the token cap and the summary is incomplete` : `${prefix} failed: Unknown error`;
}

/** (4) After: the stored compaction with senpi's details and the next request on top of it. */
function senpiAfter(input: SimulationInput, context: SimulationContext, preps: SenpiPreparations, rebuild: CompactionRebuild, requests: readonly SimulatedSummariserRequest[]): AfterCompaction {
  const { prep, speculative } = preps;
  const summary = piSummary(prep, input, "raw");
  const variant = requests[0]?.role === "turn-prefix" ? "turn_prefix" : rebuild.preparation.previousSummary ? "update" : "initial";
  const stored = piStoredRecord(prep, summary, true, { schema: "senpi.compaction.summary.v1", promptVariant: variant, origin: speculative?.start ? "speculative" : "core-route" });
  // SP-K8: a warm result keeps the snapshot's tokensBefore (speculative.ts:614).
  if (speculative?.start) stored.tokensBefore = rebuild.tokensBefore.computed;
  return piAfter(prep, input, context, "senpi", summary, stored);
}

function simulateSenpi(input: SimulationInput, context: SimulationContext): SimulationResult {
  const params = context.parameters;
  const ratio = typeof params.thresholdRatio === "number" ? params.thresholdRatio : null;
  const window = context.limits.contextWindow;
  const basePi = piParameters(params);
  // SP-K7: the extension's snapshots cap keepRecentTokens below the threshold; the core route
  // (pi's window − reserve trigger, thresholdRatio null) prepares with the setting as is.
  const keepRecentTokens = ratio !== null ? effectiveKeepRecentTokens(basePi.keepRecentTokens, window, effectiveThresholdRatio(window)) : basePi.keepRecentTokens;
  const piParams = { ...basePi, keepRecentTokens, boundaryRule: "G2" as const, turnPrefixForm: "serialized" as const, useRecordedCut: params.cut === "recorded" };
  const first = preparePiFamily(input, "senpi", piParams);
  const trigger = senpiTrigger(first, input, context, piParams.reserveTokens, ratio);
  const base = emptyResultParts(senpiPolicy, input, context, trigger);
  if (input.triggerOnly === true) return base;
  const preps = senpiSpeculative(input, context, first, piParams, ratio);
  const { prep, speculative } = preps;
  const rebuild = preps.requestPrep.rebuild;
  if (!rebuild) return { ...base, verdict: makeVerdict(senpiPolicy, "nothing-to-compact", "PI-K13", "the last path entry is already a compaction") };
  const p = rebuild.preparation;
  if (p.summarized.end <= p.summarized.start && p.turnPrefix === null && !p.previousSummary) {
    return { ...base, verdict: makeVerdict(senpiPolicy, "nothing-to-compact", "PI-K18", "nothing to summarise") };
  }
  const requests = senpiSummariser(input, context, preps, rebuild, piParams.reserveTokens);
  const partition = piPartition(prep, context, "senpi");
  const findings: Finding[] = [...checkSummariserRequests(requests), ...piCutFindings(prep, context), ...lintFindings(rebuild.lints.filter((l) => !l.startsWith("previous summary discarded") || params.splitTurnRequests === "history-and-prefix"))];
  const failure = summaryFailure(String(params.summaryOutcome ?? "ok"), requests);
  if (failure !== null) return { ...base, partition, summariserRequests: requests, findings, verdict: makeVerdict(senpiPolicy, "failed", "CP-SE-8", failure) };
  const after = senpiAfter(input, context, preps, rebuild, requests);
  const speculativeFindings: Finding[] = speculative ? [{ id: "senpi-speculative", severity: "info", ruleId: "SP-K6", message: speculative.note, location: speculative.start ? { entryId: speculative.start.promptEntryId } : null }] : [];
  return simulationResult(senpiPolicy, input, context, {
    trigger,
    partition,
    summariserRequests: requests,
    after,
    verdict: !trigger.result && !trigger.manual ? makeVerdict(senpiPolicy, "not-triggered", trigger.ruleId, trigger.expression) : makeVerdict(senpiPolicy, "compacted", "CP-PI-5"),
    tokens: tokenSummary(
      "senpi chars/4 per message (PI-K2, SP-K1)",
      sumMessageTokens(context.turnContext.messages.map((m) => m.message), "senpi"),
      sumMessageTokens(after.messages.map((m) => m.message), "senpi"),
      requests.reduce((a, r) => a + estimateJsonTokens(r.body), 0),
    ),
    findings: [...findings, ...speculativeFindings],
    inferred: ["CP-0-1", "CP-0-2", "CP-0-3", "CP-0-4", "CP-SE-5", "CP-SE-10", "CP-SE-INF-1", "CP-SE-INF-2", "CP-SE-INF-3", "CP-SE-INF-4", "CP-SE-INF-5", "CP-SE-INF-6"],
  });
}

function withoutCacheMarkers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheMarkers);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (key !== "cache_control") out[key] = withoutCacheMarkers(item);
  return out;
}

/** Data part of a replay request: its messages without system/developer ones and the trailing instruction. */
function replayDataPart(body: Record<string, unknown>): unknown[] {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: string }[]) : [];
  return messages.slice(0, -1).filter((m) => m.role !== "system" && m.role !== "developer");
}

function textOf(message: LlmMessage): string {
  if (isText(message.content)) return textString(message.content);
  return message.content
    .map((b) => (b.type === "text" ? textString(b.text) : b.type === "toolCall" ? JSON.stringify(b.arguments) : ""))
    .join("");
}

export const senpiPolicy: CompactionPolicy = {
  id: "senpi",
  label: "senpi (cache-friendly replay)",
  rulePrefix: "CP-SE",
  parameters: SENPI_PARAMETERS,
  notApplicable: piFamilyNotApplicable,
  checkedVerdicts: ["not-triggered", "nothing-to-compact", "compacted", "failed"],
  instructionSlots: SENPI_SLOTS,
  simulate: simulateSenpi,
  extractInstructions(body, source) {
    return readCapturedSenpiRequest(body, source)?.values ?? null;
  },
  readCaptured: readCapturedSenpiRequest,
  reserveParameter: "reserveTokens",
  inference: senpiInference,
  sessionAfter: (input, result, id) => sessionWithSimulatedCompaction(input, result.after.storedRecord, id),
  usesAttachedSummariserCaptures: true,
  pipelineProfile: "senpi",
  recordedRebuildParameters: { cut: "recorded" },
};
