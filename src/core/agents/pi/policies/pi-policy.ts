// The pi policy (compaction-policies.md §1, pi-senpi.md §5): pi's trigger, cut point, standalone
// summariser request(s) built by src/core/agents/pi/compaction, the compaction entry and the requests
// after it. Verdicts: not-triggered, nothing-to-compact, compacted (CP-PI-5).
import { piInference } from "./inference";
import { sessionWithSimulatedCompaction } from "./compaction-point";
import type { SummariserRequest } from "../compaction";
import { DEFAULT_BOUNDARY_RULE } from "../compaction";
import { checkSummariserRequests } from "../../../simulate/findings";
import { cacheEffect } from "../../../simulate/prefix";
import { estimateJsonTokens } from "../../../simulate/text-tokens";
import { makeVerdict } from "../../../simulate/verdict";
import { simulationResult, tokenSummary } from "../../../simulate/result";
import type {
  CompactionPolicy,
  Finding,
  InstructionSlotUse,
  PolicyParameterSpec,
  SimulatedSummariserRequest,
  SimulationContext,
  SimulationInput,
  SimulationResult,
} from "../../../simulate/types";
import {
  piAfter,
  piFamilyNotApplicable,
  piCutFindings,
  piPartition,
  piStoredRecord,
  piSummary,
  piTrigger,
  preparePiFamily,
  type PiFamilyParameters,
  type PiFamilyPreparation,
} from "./family";
import { PI_SLOTS, readCapturedPiRequest } from "./pi-slots";
import { userTurnTexts, lintFindings, sumMessageTokens } from "./result-parts";
import { emptyResultParts } from "../../../simulate/empty-result";

export const PI_PARAMETERS: readonly PolicyParameterSpec[] = [
  { name: "reserveTokens", label: "reserveTokens", type: "number", default: 16384, ruleId: "PI-K1", description: "Tokens kept free for the answer; threshold = window − reserve; caps 0.8× / 0.5×." },
  { name: "keepRecentTokens", label: "keepRecentTokens", type: "number", default: 20000, ruleId: "PI-K1", description: "Budget of recent messages kept verbatim (cut point walk)." },
  { name: "boundaryRule", label: "boundary generation", type: "enum", choices: ["G1", "G2"], default: DEFAULT_BOUNDARY_RULE, ruleId: "PI-K15", description: "G1: after the previous compaction entry (old pi-mono); G2: the previous firstKeptEntryId." },
  { name: "turnPrefixForm", label: "turn-prefix request form", type: "enum", choices: ["serialized", "replay"], default: "serialized", ruleId: "PI-K27", description: "serialized (pi 0.73.1) or the older replay form." },
  { name: "summaryError", label: "history summariser error", type: "string", default: null, ruleId: "CP-PI-7", description: "Simulate an error stop of the history request with this errorMessage (empty: none given → \"Unknown error\"); null: it succeeds." },
  { name: "turnPrefixError", label: "turn-prefix summariser error", type: "string", default: null, ruleId: "CP-PI-7", description: "The same for the turn-prefix request of a split turn." },
];

export function piParameters(parameters: Record<string, unknown>): PiFamilyParameters {
  return {
    reserveTokens: Number(parameters.reserveTokens ?? 16384),
    keepRecentTokens: Number(parameters.keepRecentTokens ?? 20000),
    boundaryRule: parameters.boundaryRule === "G1" ? "G1" : "G2",
    turnPrefixForm: parameters.turnPrefixForm === "replay" ? "replay" : "serialized",
  };
}

/** A pi standalone summariser request (rebuild form) in the simulator's shape. */
export function toSimulatedRequest(
  request: SummariserRequest,
  prep: PiFamilyPreparation,
  input: SimulationInput,
  context: SimulationContext,
  form: string,
): SimulatedSummariserRequest {
  const rebuild = prep.rebuild!;
  const slotUses: InstructionSlotUse[] = [prep.slots.uses.summarizationSystemPrompt!, prep.slots.uses[request.instructionSlot]!];
  const instruction = prep.slots.instructions[request.instructionSlot] ?? "";
  const dataPart = request.role === "history" ? userTextHeadOf(request.userText, instruction, request.role === "history" ? input.focus ?? null : null) : userTextHeadOf(request.userText, instruction, null);
  const focus = request.role === "history" && input.focus ? input.focus : null;
  return {
    role: request.role,
    api: request.api,
    form,
    body: request.body,
    maxTokens: request.maxTokens,
    dataPart,
    instructionSlots: slotUses,
    cache: cacheEffect(`turn ${context.turnContext.turn} main request`, context.turnRequest.body, request.body),
    focusPlacement: focus ? "user message, after the instruction (`\\n\\nAdditional focus: …`, CP-PI-3)" : null,
    redaction: "none (CP-PI-4)",
    notes: request.notRecorded.map((label) => `${label} not recorded`),
    findingInputs: {
      instructionTexts: [instruction],
      turnTexts: [request.role === "history" ? rebuild.serializedConversation : (rebuild.turnPrefixConversation ?? ""), request.role === "history" ? (rebuild.previousSummary ?? "") : ""],
      userControlledTexts: [...(focus ? [focus] : []), ...userTurnTexts(context)],
      checkpointInstruction: true,
    },
  };
}

/** The user text without the instruction and focus: the data part (PI-K21). */
function userTextHeadOf(userText: string, instruction: string, focus: string | null): string {
  const tail = instruction + (focus ? `\n\nAdditional focus: ${focus}` : "");
  return userText.endsWith(tail) ? userText.slice(0, userText.length - tail.length) : userText;
}

/**
 * CP-PI-7 / PI-K26: an error stop of a summariser request throws `Summarization failed: <message>`
 * (history) or `Turn prefix summarization failed: <message>` (turn prefix), the message defaulting
 * to `Unknown error`. The history request is awaited first (badlogic/pi-mono
 * packages/coding-agent/src/core/compaction/compaction.ts `compact`), so its error wins.
 */
export function summariserFailure(roles: readonly string[], parameters: Record<string, unknown>): string | null {
  const text = (value: unknown) => (typeof value === "string" && value.length > 0 ? value : "Unknown error");
  if (roles.includes("history") && typeof parameters.summaryError === "string") return `Summarization failed: ${text(parameters.summaryError)}`;
  if (roles.includes("turn-prefix") && typeof parameters.turnPrefixError === "string") return `Turn prefix summarization failed: ${text(parameters.turnPrefixError)}`;
  return null;
}

function simulatePi(input: SimulationInput, context: SimulationContext): SimulationResult {
  const params = piParameters(context.parameters);
  const prep = preparePiFamily(input, "pi", params);
  const trigger = piTrigger(prep, input, context, "pi", params.reserveTokens);
  const base = emptyResultParts(piPolicy, input, context, trigger);
  if (input.triggerOnly === true) return base;
  if (!prep.rebuild) {
    return { ...base, verdict: makeVerdict(piPolicy, "nothing-to-compact", "PI-K13", "the last path entry is already a compaction") };
  }
  const rebuild = prep.rebuild;
  const requests = rebuild.requests.map((r) => toSimulatedRequest(r, prep, input, context, params.turnPrefixForm === "replay" && r.role === "turn-prefix" ? "replay (PI-K27 older form)" : "standalone"));
  const partition = piPartition(prep, context, "pi");
  const summary = piSummary(prep, input, "pi");
  const stored = piStoredRecord(prep, summary);
  const after = piAfter(prep, input, context, "pi", summary, stored);
  const findings: Finding[] = [...checkSummariserRequests(requests), ...piCutFindings(prep, context), ...lintFindings(rebuild.lints)];
  if (input.focus && !requests.some((r) => r.focusPlacement !== null)) {
    findings.push({ id: "focus-dropped", severity: "warning", message: "the focus / custom instructions are not sent: only the turn-prefix request is made, and it takes no custom instructions (PI-K27, PI-K29)", location: null, ruleId: "PI-K29" });
  }
  const summarisedTokens = partition.summarised.reduce((a, r) => a + r.tokens, 0);
  if (summary.tokens > summarisedTokens && summarisedTokens > 0) {
    findings.push({ id: "summary-larger-than-range", severity: "info", message: `the summary (${summary.tokens} tokens) is larger than the summarised range (${summarisedTokens} tokens); pi does not check this (CP-PI-5)`, location: null, ruleId: "CP-PI-5" });
  }
  const tokensBefore = sumMessageTokens(context.turnContext.messages.map((m) => m.message), "pi");
  const tokensAfter = sumMessageTokens(after.messages.map((m) => m.message), "pi");
  const failure = summariserFailure(requests.map((r) => r.role), context.parameters);
  const verdict = failure
    ? makeVerdict(piPolicy, "failed", "CP-PI-7", `${failure} — the compaction is not written`)
    : !trigger.result && !trigger.manual
      ? makeVerdict(piPolicy, "not-triggered", "CP-PI-1", trigger.expression)
      : makeVerdict(piPolicy, "compacted", "CP-PI-5");
  return simulationResult(piPolicy, input, context, {
    trigger,
    partition,
    summariserRequests: requests,
    after,
    verdict,
    tokens: tokenSummary("pi chars/4 per message (PI-K2): turn N's request before, the next request after", tokensBefore, tokensAfter, requests.reduce((a, r) => a + estimateJsonTokens(r.body), 0)),
    findings,
    inferred: ["CP-0-1", "CP-0-2", "CP-0-3", "CP-0-4", "CP-PI-5"],
  });
}

export const piPolicy: CompactionPolicy = {
  id: "pi",
  label: "pi",
  rulePrefix: "CP-PI",
  parameters: PI_PARAMETERS,
  checkedVerdicts: ["not-triggered", "nothing-to-compact", "compacted", "failed"],
  instructionSlots: PI_SLOTS,
  simulate: simulatePi,
  notApplicable: piFamilyNotApplicable,
  extractInstructions(body, source) {
    return readCapturedPiRequest(body, source)?.values ?? null;
  },
  readCaptured: readCapturedPiRequest,
  reserveParameter: "reserveTokens",
  inference: piInference,
  sessionAfter: (input, result, id) => sessionWithSimulatedCompaction(input, result.after.storedRecord, id),
  usesAttachedSummariserCaptures: true,
};

