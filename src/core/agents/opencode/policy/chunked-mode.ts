// The opencode policy's "chunked" mode: the fork's `CompactionPlanner` + `CompactionExecutor`
// (compaction-policies.md CP-OC-31) run on the rows of the turn, instead of the single-call
// compaction of the live path. Neither stock opencode nor the fork's live path does this; the
// result says so. Input rows, as the live path's compaction process prepares them [INF:
// OC-INF-CHUNKED-INPUT]: the model scope, without completed compaction pairs, the newest one's
// summary as the prior rolling summary. Each call's output is the simulator's summary text (the
// last call) or a placeholder of `chunkRollingSummaryTokens` (the calls before) [INF:
// OC-INF-CHUNKED-OUTPUT].
import { notRecorded, type ContextMessage } from "../../../model";
import { checkSummariserRequests } from "../../../simulate/findings";
import { cacheEffect } from "../../../simulate/prefix";
import { findPrefixBreak } from "../../../simulate/prefix";
import { resolveSummary } from "../../../simulate/summary-text";
import { simulationResult, tokenSummary } from "../../../simulate/result";
import type {
  AfterCompaction,
  Finding,
  ParameterValue,
  Partition,
  PartitionRange,
  PolicyParameters,
  SimulatedSummariserRequest,
  SimulatedSummary,
  SimulationContext,
  SimulationInput,
  SimulationResult,
  TriggerDecision,
  Verdict,
  VerdictResult,
} from "../../../simulate/types";
import { rowToChat, rowToContext } from "./chat";
import { runExecutor, type ExecutorResult } from "./chunked-executor";
import { FORK_CHUNKED_LIMITS, planChunks, type ChunkedLimits, type PlannerOutcome, type PlannerPlan } from "./chunked-planner";
import type { OpencodeCompactionConfig, OpencodeModelLimits } from "./overflow";
import { buildOpencodeSummariserBody } from "./request";
import { compactionPart, isSummaryRow, type OcMessage } from "./rows";
import { filterCompacted, type ScopeOptions } from "./scope";
import { completedPredicateOf } from "./step";

export const CHUNKED_MODE = "chunked";
const SUMMARY_HEADINGS = ["## Objective", "## Important Details", "## Work State", "## Next Move", "## Relevant Files"];
export const CHUNKED_CHECKED: readonly Verdict[] = ["not-triggered", "compacted", "no-reduction", "post-compaction-over-budget", "mid-execution-over-budget", "failed"];
const NOT_LIVE = "chunked mode: the fork's CompactionPlanner/CompactionExecutor (Shodocan/opencode), not on its live path; stock opencode compacts in one summariser call";

function positive(value: ParameterValue | undefined): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}

/** The planner limits from the policy parameters (the fork's constants by default). */
function chunkedLimitsOf(p: PolicyParameters): ChunkedLimits {
  const summaryOutputTokens = positive(p.chunkSummaryOutputTokens) ?? FORK_CHUNKED_LIMITS.summaryOutputTokens;
  return {
    summaryOutputTokens,
    // The fork pins the reserve to the summary allowance in chars (4096 × 4).
    reserveChars: positive(p.chunkReserveChars) ?? summaryOutputTokens * 4,
    maxChunks: positive(p.chunkMaxChunks) ?? FORK_CHUNKED_LIMITS.maxChunks,
    envelopeChars: positive(p.chunkEnvelopeChars) ?? FORK_CHUNKED_LIMITS.envelopeChars,
    toolOutputChars: positive(p.chunkToolOutputChars) ?? FORK_CHUNKED_LIMITS.toolOutputChars,
  };
}

/** The rows handed to the planner and the prior rolling summary (see the header). */
function chunkedInput(rows: readonly OcMessage[], options: ScopeOptions): { indexes: number[]; hidden: number[]; outOfScope: number[]; previousSummary: string | null } {
  const scope = filterCompacted(rows, rows.length, options);
  const completed = completedPredicateOf(options);
  const pairs = new Set<number>();
  let previousSummary: string | null = null;
  for (const i of scope.indexes) {
    const row = rows[i] as OcMessage;
    if (!isSummaryRow(row) || !completed(row)) continue;
    const parent = scope.indexes.find((j) => (rows[j] as OcMessage).info.id === row.info.parentID && compactionPart(rows[j] as OcMessage));
    if (parent === undefined) continue;
    pairs.add(i).add(parent);
    // The fork's `summaryText`: text parts trimmed, blank ones dropped, joined by a blank line.
    const text = row.parts.filter((part) => part.type === "text" && typeof part.text === "string").map((part) => (part.text as string).trim()).filter(Boolean).join("\n\n").trim();
    previousSummary = text === "" ? null : text;
  }
  const inScope = new Set(scope.indexes);
  return {
    indexes: scope.indexes.filter((i) => !pairs.has(i)),
    hidden: scope.indexes.filter((i) => pairs.has(i)),
    outOfScope: rows.map((_, i) => i).filter((i) => !inScope.has(i)),
    previousSummary,
  };
}

export interface ChunkedModeArgs {
  input: SimulationInput;
  context: SimulationContext;
  rows: readonly OcMessage[];
  scopeOptions: ScopeOptions;
  trigger: TriggerDecision;
  manual: boolean;
  model: OpencodeModelLimits;
  cfg: OpencodeCompactionConfig;
  recordedSummary: string | null;
  findings: Finding[];
  inferred: string[];
  range(kind: PartitionRange["kind"], rowIndexes: readonly number[], label: string, ruleId: string): PartitionRange;
  verdict(verdict: Verdict, ruleId: string, message: string | null, code: string | null): VerdictResult;
}

function emptyAfter(summary: SimulatedSummary | null): AfterCompaction {
  return { summary, messages: [], request: null, prefixBreak: null, followingTurns: [], storedRecord: null };
}

function impossibleMessage(outcome: Extract<PlannerOutcome, { ok: false }>): string {
  const { reason, estimate, budget, chunkCount } = outcome.impossible;
  const detail = reason === "chunk-limit" ? `${chunkCount} chunks` : `estimate ${estimate} > budget ${budget}`;
  return `CompactionImpossibleError ${reason} (${detail}); no summariser call is made`;
}

/** The partition of a planned run: the latest turn kept, one summarised range per chunk (CP-OC-31). */
function chunkedPartition(args: ChunkedModeArgs, plan: PlannerPlan, run: ExecutorResult, dropped: PartitionRange[], priorSummary: boolean): Partition {
  const rowsOf = (chunk: { messages: { row: number }[] }) => [...new Set(chunk.messages.map((m) => m.row))];
  return {
    kept: plan.latestRows.length > 0 ? [args.range("kept", plan.latestRows, "latest user turn (kept intact, outside every chunk)", "CP-OC-31")] : [],
    summarised: plan.chunks.map((chunk) => args.range("summarised", rowsOf(chunk), `chunk ${chunk.index + 1} of ${plan.chunks.length} (${chunk.messages.length} message(s))`, "CP-OC-31")),
    pruned: [],
    droppedWithoutSummary: [...dropped, ...(plan.outsideRows.length > 0 ? [args.range("dropped-without-summary", plan.outsideRows, "before the first user message: in no turn, so in no chunk", "CP-OC-31")] : [])],
    details: {
      mode: CHUNKED_MODE,
      budget: plan.budget,
      chunkCount: plan.chunks.length,
      calls: run.calls,
      overheadEstimate: plan.overheadEstimate,
      latestEstimate: plan.latestEstimate,
      pieceLimitChars: plan.pieceLimitChars,
      executorStatus: run.status,
      priorSummary,
      chunkBoundaries: plan.chunks.map((chunk) => `${chunk.messages[0]?.id ?? "?"}…${chunk.messages[chunk.messages.length - 1]?.id ?? "?"}`).join(" | "),
    },
  };
}

const ESTIMATOR = "fork planner: ceil(chars / 4) of the canonical JSON of each request projection (+ the reserve in tokens when planning); round(chars / 4) for the rolling-summary gate";

export function simulateChunked(args: ChunkedModeArgs): SimulationResult {
  const { input, context, rows, trigger } = args;
  const p = context.parameters;
  const limits = chunkedLimitsOf(p);
  const findings: Finding[] = [...args.findings, { id: "chunked-planner-not-live", severity: "warning", message: NOT_LIVE, location: null, ruleId: "CP-OC-31" }];
  // The live path's tail and serialisation choices do not apply; the scope predicates do.
  const inferred = [...args.inferred.filter((rule) => rule.startsWith("CP-OC-")), "OC-INF-CHUNKED-INPUT", "OC-INF-CHUNKED-OUTPUT"];
  const modelId = context.turnContext.model?.modelId ?? "unknown";
  const prepared = chunkedInput(rows, args.scopeOptions);
  // The prompt without history, as `buildPrompt({ previousSummary, context: [] })`.
  const promptFor = (prior: string | null) =>
    buildOpencodeSummariserBody({ model: modelId, maxTokens: limits.summaryOutputTokens, conversation: "", priorSummary: prior, ...(input.instructions ? { instructions: input.instructions } : {}) });
  const firstPrompt = promptFor(null);
  // The planner measures the user prompt only; the system slot is not part of its requests.
  for (const use of firstPrompt.slots) {
    if (use.filledFrom === "description" && use.slot !== "system") findings.push({ id: "instruction-slot-described", severity: "info", message: `slot "${use.slot}" holds Contextscope's description, not opencode's text: the prompt's share of every estimate is approximate`, location: null, ruleId: "CP-OC-18" });
  }
  const outcome = planChunks({ rows, indexes: prepared.indexes, model: args.model, cfg: args.cfg, limits, promptText: firstPrompt.userText });
  const summary = resolveSummary({ session: input.session, source: input.summary, recorded: args.recordedSummary, headings: SUMMARY_HEADINGS });
  const dropped: PartitionRange[] = [
    ...(prepared.hidden.length > 0 ? [args.range("dropped-without-summary", prepared.hidden, "completed compaction pairs (the newest one's text is the prior rolling summary)", "CP-OC-13")] : []),
    ...(prepared.outOfScope.length > 0 ? [args.range("dropped-without-summary", prepared.outOfScope, "outside the model scope (filterCompacted)", "CP-OC-7")] : []),
  ];
  const nothing = (partition: Partition, verdict: VerdictResult) =>
    simulationResult({ id: "opencode" }, input, context, { trigger, partition, summariserRequests: [], after: emptyAfter(null), verdict, tokens: tokenSummary(ESTIMATOR, 0, 0, 0), findings, inferred });

  if (!args.manual && !trigger.result) {
    return nothing({ kept: [], summarised: [], pruned: [], droppedWithoutSummary: [], details: { mode: CHUNKED_MODE } }, args.verdict("not-triggered", trigger.ruleId, null, null));
  }
  if (!outcome.ok) {
    const partition = { kept: [], summarised: [], pruned: [], droppedWithoutSummary: dropped, details: { mode: CHUNKED_MODE, budget: outcome.budget, impossible: outcome.impossible.reason, chunkCount: outcome.impossible.chunkCount } };
    return nothing(partition, args.verdict("failed", "CP-OC-31", impossibleMessage(outcome), outcome.impossible.reason));
  }

  const plan = outcome.plan;
  const rolling = positive(p.chunkRollingSummaryTokens);
  const intermediate = rolling === null ? summary.text : resolveSummary({ session: input.session, source: { kind: "placeholder", tokens: rolling }, recorded: null, headings: SUMMARY_HEADINGS }).text;
  const last = plan.chunks.length - 1;
  const run = runExecutor({
    plan,
    rows,
    model: args.model,
    cfg: args.cfg,
    limits,
    previousSummary: prepared.previousSummary,
    promptFor: (prior) => promptFor(prior).userText,
    summarize: ({ chunk }) => (chunk.index === last ? summary.text : intermediate),
  });
  const requests = chunkRequests(run, plan, limits, context, input);
  const partition = chunkedPartition(args, plan, run, dropped, prepared.previousSummary !== null);
  findings.push(...checkSummariserRequests(requests));
  for (const proposal of plan.proposals) {
    if (!proposal.admitted) findings.push({ id: "chunk-not-admitted", severity: "warning", message: `the planner proposes chunk ${proposal.chunk.index + 1} with estimate ${proposal.requestEstimate} over the budget ${plan.budget} (a unit the fork packs without checking it alone)`, location: { request: proposal.chunk.index }, ruleId: "CP-OC-31" });
  }

  const verdictOf = verdictOfRun(run);
  const completed = run.status === "completed" && run.summary !== null;
  const finalSummary: SimulatedSummary = run.summary !== null ? { ...summary, text: run.summary } : summary;
  return simulationResult({ id: "opencode" }, input, context, {
    trigger,
    partition,
    summariserRequests: requests,
    after: completed ? afterState(args, finalSummary, plan.latestRows) : emptyAfter(run.summary !== null ? finalSummary : null),
    verdict: args.verdict(verdictOf.verdict, "CP-OC-31", verdictOf.message, run.status),
    tokens: tokenSummary(ESTIMATOR, run.before.estimate, run.after?.estimate ?? run.before.estimate, run.requests.reduce((sum, call) => sum + call.estimate, 0)),
    findings,
    inferred,
  });
}

function verdictOfRun(run: ExecutorResult): { verdict: Verdict; message: string } {
  const after = run.after ? `after ${run.after.estimate}` : "";
  switch (run.status) {
    case "completed":
      return { verdict: "compacted", message: `${run.calls} call(s); before ${run.before.estimate} > ${after}, within the budget ${run.before.budget}` };
    case "no-reduction":
      return { verdict: "no-reduction", message: `${after} ≥ before ${run.before.estimate}: nothing persisted` };
    case "post-compaction-over-budget":
      return { verdict: "post-compaction-over-budget", message: `${after} > budget ${run.before.budget} (before ${run.before.estimate}): nothing persisted` };
    default: {
      const stop = run.stop;
      const why =
        stop?.kind === "rolling-summary-over-allowance"
          ? `the rolling summary (${stop.tokens} tokens) is over the summary allowance before chunk ${stop.beforeChunk + 1}`
          : `the request of chunk ${(stop?.kind === "not-admitted" ? stop.chunk : 0) + 1} is not admitted (estimate ${run.requests[run.requests.length - 1]?.estimate} > budget ${run.before.budget})`;
      return { verdict: "mid-execution-over-budget", message: `${why}; stopped after ${run.calls} call(s), nothing persisted` };
    }
  }
}

/** The summariser requests: the executor's admitted projections, then the planned ones not reached. */
function chunkRequests(run: ExecutorResult, plan: { proposals: { chunk: { index: number; messages: { id: string }[] }; request: unknown; requestEstimate: number; requestHash: string; admitted: boolean }[] }, limits: ChunkedLimits, context: SimulationContext, input: SimulationInput): SimulatedSummariserRequest[] {
  const common = {
    api: "openai-completions" as const,
    maxTokens: limits.summaryOutputTokens,
    instructionSlots: [],
    focusPlacement: null,
    redaction: `none (CP-OC-34): tool output cut to ${limits.toolOutputChars} chars, media as [Attached …] text`,
  };
  return plan.proposals.map((proposal, k): SimulatedSummariserRequest => {
    const call = run.requests[k];
    const ids = proposal.chunk.messages.map((m) => m.id);
    const plannedNote = `planner estimate ${proposal.requestEstimate} (with the ${limits.reserveChars}-char reserve) vs budget ${run.before.budget}; requestHash ${proposal.requestHash.slice(0, 12)}…`;
    if (!call) {
      return {
        ...common,
        role: `chunk-${k + 1}`,
        form: "planned (not reached)",
        body: proposal.request as Record<string, unknown>,
        dataPart: { chunkIndex: k, messages: ids, previousSummary: null },
        cache: null,
        notes: [NOT_LIVE, plannedNote, `not sent: execution stopped (${run.status}) before chunk ${k + 1}`],
      };
    }
    const body = call.projection as unknown as Record<string, unknown>;
    return {
      ...common,
      role: `chunk-${k + 1}`,
      form: "executor projection",
      body,
      dataPart: { chunkIndex: k, messages: ids, previousSummary: call.previousSummary },
      cache: cacheEffect(`turn ${input.turn} main request`, context.turnRequest.body, body),
      notes: [
        NOT_LIVE,
        "the executor hands the summariser {previousSummary, chunk, latestTurn}; the provider request is its caller's, so the admitted projection is shown",
        `admission: estimate ${call.estimate} ${call.admitted ? "≤" : ">"} budget ${call.budget}${call.admitted ? "" : " → not admitted"}`,
        plannedNote,
        call.previousSummary !== null ? `prior rolling summary: ${call.previousSummary.length} chars` : "no prior rolling summary",
      ],
      findingInputs: {
        instructionTexts: [],
        turnTexts: [JSON.stringify(call.projection.messages), ...(call.previousSummary ? [call.previousSummary] : [])],
        userControlledTexts: [],
        checkpointInstruction: false,
      },
    };
  });
}

/** The state the executor measures after a completed run: the summary, then the latest turn. */
function afterState(args: ChunkedModeArgs, summary: SimulatedSummary, latestRows: readonly number[]): AfterCompaction {
  const { context, rows } = args;
  const provenance = { rule: "summary:compaction", ruleId: "CP-OC-31" };
  const messages: ContextMessage[] = [
    { message: { role: "assistant", content: [{ type: "text", text: summary.text }] }, provenance } as ContextMessage,
    ...latestRows.flatMap((i) => rowToContext(rows[i] as OcMessage)),
  ];
  const header = args.input.options.header ?? null;
  const body: Record<string, unknown> = {
    model: context.turnContext.model?.modelId ?? "unknown",
    max_tokens: context.limits.maxOutputTokens,
    messages: [
      { role: "system", content: header?.systemPrompt ?? notRecorded("system prompt (agent prompt, environment, skills)") },
      { role: "assistant", content: summary.text },
      ...latestRows.flatMap((i) => rowToChat(rows[i] as OcMessage)),
    ],
    tools: header?.tools ? header.tools.map((tool) => ({ type: "function", function: tool })) : notRecorded("tools"),
    tool_choice: "auto",
    stream: true,
    stream_options: { include_usage: true },
  };
  return {
    summary,
    messages,
    request: { api: "openai-completions", body },
    prefixBreak: findPrefixBreak(context.turnRequest.body, body, "chunked compaction: the rolling summary replaces every chunk"),
    followingTurns: [],
    // The executor's `persist` is the caller's: what it would store is not defined.
    storedRecord: { persisted: true, rows: "defined by the caller's persist (not wired in the fork)" },
  };
}
