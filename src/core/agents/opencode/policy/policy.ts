// The opencode compaction policy (compaction-policies.md §5), before and after PR #11's spiral
// brake (parameter `spiralBrake`, which also selects the model precedence). Works on opencode's
// stored rows: an opencode session's own records, or any turn context adapted to rows.
import { emptyResultParts } from "../../../simulate/empty-result";
import { opencodeInference } from "./inference";
import { notRecorded, type ContextMessage } from "../../../model";
import { checkSummariserRequests, checkToolPairsAcrossCut } from "../../../simulate/findings";
import { cacheEffect } from "../../../simulate/prefix";
import { afterCompaction } from "../../../simulate/single-call-parts";
import { resolveSummary } from "../../../simulate/summary-text";
import type {
  AfterCompaction,
  CompactionPolicy,
  Finding,
  Partition,
  PartitionRange,
  PolicyParameters,
  PolicyParameterSpec,
  SimulationContext,
  SimulationInput,
  SimulatedSummariserRequest,
  SimulationResult,
  TriggerDecision,
  Verdict,
  VerdictResult,
} from "../../../simulate/types";
import { makeVerdict } from "../../../simulate/verdict";
import { simulationResult, tokenSummary } from "../../../simulate/result";
import { historyAfterTurn } from "../../../simulate/turn-history";
import { canonicalJson } from "../../../util/canonical-json";
import { rowToContext } from "./chat";
import { resolveOpencodeModel, type ResolvedModel } from "./model-resolution";
import { admission, isOverflow, preserveBudget, usableTokens, type OpencodeCompactionConfig, type OpencodeModelLimits, type OverflowDecision } from "./overflow";
import { extractOpencodeInstructions, opencodeDataPart, OPENCODE_SLOTS } from "./request";
import { compactionPart, isSummaryRow, rowsFromContext, rowsOfOpencodeSession, rowText, type OcMessage } from "./rows";
import { pruneRows, type PruneResult } from "./prune";
import { rowTokens } from "./tail";
import { compactionStep, nextRequestMessages, storedCompactionRows, type CompactionStep } from "./step";
import { spiralRun, type SpiralRunResult } from "./spiral";
import type { CompletedPredicate, ScopeOptions } from "./scope";
import { CHUNKED_CHECKED, CHUNKED_MODE, simulateChunked } from "./chunked-mode";

const PARAMETERS: readonly PolicyParameterSpec[] = [
  {
    name: "spiralBrake",
    label: "Spiral brake",
    type: "boolean",
    default: false,
    ruleId: "CP-OC-10",
    description: "off: opencode before its spiral fix; on: failed summaries leave the scope, cycle guard after every compaction, recorded-model precedence.",
    presentation: { label: "Spiral brake" },
  },
  { name: "completedPredicate", label: "Completed summary", type: "enum", default: "strict", choices: ["strict", "any-finish"], ruleId: "CP-OC-11", inferred: "CP-OC-11", description: "strict: finish STOP, no error, non-blank text; any-finish: any finish." },
  { name: "dropOrphanCompactionUser", label: "Drop the compaction request of an excluded summary", type: "boolean", default: true, ruleId: "CP-OC-12", inferred: "CP-OC-12", description: "With the brake on." },
  { name: "autoCompaction", label: "compaction.auto", type: "boolean", default: true, ruleId: "CP-OC-3", description: "false: never overflow." },
  { name: "reserved", label: "compaction.reserved", type: "number", default: null, ruleId: "CP-OC-2", description: "Default min(20000, maxOutputTokens)." },
  { name: "preserveRecentTokens", label: "compaction.preserve_recent_tokens", type: "number", default: null, ruleId: "CP-OC-14", description: "Default min(15000, max(2000, floor(usable × 0.25)))." },
  { name: "tailTurns", label: "compaction.tail_turns", type: "number", default: null, ruleId: "CP-OC-14", description: "Limit on tail turns; ≤ 0 disables the tail." },
  { name: "promptCarriesModel", label: "Prompt carries a model", type: "boolean", default: true, ruleId: "CP-OC-27", description: "false: the model is resolved by precedence (CP-OC-27/28)." },
  { name: "agentDefaultContextWindow", label: "Agent default model's context window", type: "number", default: null, ruleId: "CP-OC-29", description: "Window of the agent's configured model, when it has one." },
  { name: "providerDefaultContextWindow", label: "Provider default model's context window", type: "number", default: null, ruleId: "CP-OC-29", description: "Window of provider.defaultModel()." },
  { name: "fallbackModel", label: "compaction.fallback_model configured", type: "boolean", default: false, ruleId: "CP-OC-30", description: "Arms the cycle guard of opencode before its spiral fix." },
  { name: "prune", label: "compaction.prune", type: "boolean", default: false, ruleId: "CP-OC-26", description: "Prune old tool outputs first: past the two newest turns and 40000 protected tokens, when more than 20000 tokens are freed." },
  {
    name: "compactionMode",
    label: "Compaction mode",
    type: "enum",
    default: "live",
    choices: ["live", "chunked"],
    ruleId: "CP-OC-31",
    description: "live: the single-call compaction opencode runs; chunked: the fork's CompactionPlanner/CompactionExecutor (Shodocan/opencode), not on its live path and not what stock opencode does.",
    presentation: {
      label: "Compaction",
      choices: [
        { value: "live", label: "live (what opencode runs)" },
        { value: "chunked", label: "chunked (fork's executor, not on the live path)" },
      ],
    },
  },
  { name: "chunkSummaryOutputTokens", label: "Chunked: summary output tokens", type: "number", default: 4096, ruleId: "CP-OC-31", description: "Summary output allowance of every chunk call (the budget's output term and the rolling-summary gate)." },
  { name: "chunkReserveChars", label: "Chunked: rolling-summary reserve (chars)", type: "number", default: null, ruleId: "CP-OC-31", description: "Worst-case prior rolling summary counted in every planned request; default 4 × the summary output tokens (16384)." },
  { name: "chunkMaxChunks", label: "Chunked: at most chunks", type: "number", default: 4, ruleId: "CP-OC-31", description: "More chunks fail with chunk-limit." },
  { name: "chunkEnvelopeChars", label: "Chunked: message envelope (chars)", type: "number", default: 1024, ruleId: "CP-OC-31", description: "Subtracted from the piece limit of an oversized text part." },
  { name: "chunkToolOutputChars", label: "Chunked: tool output cap (chars)", type: "number", default: 2000, ruleId: "CP-OC-31", description: "Historical tool output is cut to this inside chunks." },
  { name: "chunkRollingSummaryTokens", label: "Chunked: rolling summary of the earlier calls (tokens)", type: "number", default: null, ruleId: "CP-OC-31", inferred: "OC-INF-CHUNKED-OUTPUT", description: "Size of the placeholder each call before the last returns; default the summary text itself." },
  { name: "spiralAttempts", label: "Spiral run attempts", type: "number", default: 0, ruleId: "CP-OC-8", description: "> 0: repeat failed attempts and report whether the next request grows." },
];

const CHECKED: readonly Verdict[] = ["not-triggered", "compacted", "no-reduction", "post-compaction-over-budget", "cycle-guard-stop", "failed"];

interface OpencodeRowsView {
  rows: OcMessage[];
  /** For each row: the indices of turn N's context messages it produced. */
  contextIndexes: number[][];
  /** Summary recorded for the re-simulated compaction, if any. */
  recordedSummary: string | null;
  /** Prompt-token count of the turn (CP-OC-3 `tokens`), if recorded. */
  tokens: { total?: number; input?: number; output?: number; cache?: { read?: number; write?: number } } | null;
  /** True when the rows are the session's own records. */
  native: boolean;
}

/** The rows a simulation starts from (see OpencodeRowsView). */
function rowsForSimulation(input: SimulationInput, context: SimulationContext): OpencodeRowsView {
  const records = rowsOfOpencodeSession(input.session);
  if (records) {
    let end = records.findIndex((row) => row.info.id === context.turnContext.entryId) + 1;
    let recordedSummary: string | null = null;
    if (input.recordedCompactionEntryId) {
      let at = records.findIndex((row) => row.info.id === input.recordedCompactionEntryId);
      const row = records[at];
      if (row && isSummaryRow(row)) {
        recordedSummary = rowText(row);
        at = records.findIndex((r) => r.info.id === row.info.parentID);
      } else if (row) {
        const summary = records.find((r) => isSummaryRow(r) && r.info.parentID === row.info.id);
        recordedSummary = summary ? rowText(summary) : null;
      }
      if (at >= 0) end = at;
    }
    const rows = records.slice(0, Math.max(0, end));
    const byEntry = new Map<string, number[]>();
    context.turnContext.messages.forEach((item, index) => {
      const id = item.provenance.entryId;
      if (id) byEntry.set(id, [...(byEntry.get(id) ?? []), index]);
    });
    const answer = records[end - 1];
    return { rows, contextIndexes: rows.map((row) => byEntry.get(row.info.id) ?? []), recordedSummary, tokens: answer?.info.tokens ?? null, native: true };
  }
  const history = historyAfterTurn(input.session, context);
  const adapted = rowsFromContext(history);
  const contextIndexes = adapted.rows.map((_, i) => {
    const start = adapted.contextIndexOf[i] as number;
    const end = adapted.contextIndexOf[i + 1] ?? history.length;
    return Array.from({ length: end - start }, (_, k) => start + k);
  });
  const last = history[history.length - 1]?.message;
  const usage = last && last.role === "assistant" ? last.usage : undefined;
  return { rows: adapted.rows, contextIndexes, recordedSummary: null, tokens: usage ? { total: usage.totalTokens, input: usage.input, output: usage.output, cache: { read: usage.cacheRead, write: usage.cacheWrite } } : null, native: false };
}

/** `spiralBrake` as a boolean; the CLI's `on`/`off` strings are accepted too. */
function spiralBrakeOf(value: unknown): boolean {
  return value === true || value === "on";
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function rangeOf(kind: PartitionRange["kind"], view: OpencodeRowsView, rowIndexes: readonly number[], label: string, ruleId: string): PartitionRange {
  const indices = rowIndexes.flatMap((i) => view.contextIndexes[i] ?? []);
  const out: PartitionRange = {
    kind,
    messageStart: indices.length > 0 ? Math.min(...indices) : null,
    messageEnd: indices.length > 0 ? Math.max(...indices) + 1 : null,
    entryIds: rowIndexes.map((i) => (view.rows[i] as OcMessage).info.id),
    lines: [],
    tokens: rowIndexes.reduce((sum, i) => sum + rowTokens(view.rows[i] as OcMessage), 0),
    label,
    ruleId,
  };
  return out;
}

/** The spiral run of a simulation input (parameters as for `simulate`). */
function spiralRunForSimulation(input: SimulationInput, context: SimulationContext, attempts: number): SpiralRunResult {
  const view = rowsForSimulation(input, context);
  const p = context.parameters;
  const usable = usableTokens({ reserved: num(p.reserved) }, { context: context.limits.contextWindow, input: context.limits.inputLimit, output: context.limits.maxOutputTokens });
  return spiralRun(
    {
      rows: view.rows,
      spiralBrake: spiralBrakeOf(p.spiralBrake),
      completedPredicate: (p.completedPredicate as CompletedPredicate | undefined) ?? "strict",
      dropOrphanCompactionUser: p.dropOrphanCompactionUser !== false,
      preserveBudget: preserveBudget({ preserveRecentTokens: num(p.preserveRecentTokens) }, usable.usable),
      tailTurns: num(p.tailTurns),
      model: context.turnContext.model?.modelId ?? "unknown",
      maxTokens: context.limits.maxOutputTokens,
      ...(input.instructions ? { instructions: input.instructions } : {}),
    },
    attempts,
  );
}

/** What every phase of one opencode simulation reads: the rows, the gate's inputs and the model. */
interface OpencodeScene {
  view: OpencodeRowsView;
  prune: PruneResult | null;
  scopeOptions: ScopeOptions;
  spiralBrake: boolean;
  manual: boolean;
  recordedWindow: number;
  /** Where the turn's model window came from (catalogue, the session, an override, …). */
  recordedWindowSource: string;
  agentWindow: number | null;
  providerWindow: number;
  resolved: ResolvedModel<number>;
  limits: OpencodeModelLimits;
  cfg: OpencodeCompactionConfig;
}

/** The rows (pruned first when asked, CP-OC-26) and the model the overflow gate uses (CP-OC-27 … CP-OC-29). */
function opencodeScene(input: SimulationInput, context: SimulationContext): OpencodeScene {
  const p = context.parameters;
  const spiralBrake = spiralBrakeOf(p.spiralBrake);
  const scopeOptions = {
    spiralBrake,
    completedPredicate: ((p.completedPredicate as CompletedPredicate | undefined) ?? "strict") as CompletedPredicate,
    dropOrphanCompactionUser: p.dropOrphanCompactionUser !== false,
  };
  let view = rowsForSimulation(input, context);
  // CP-OC-26: pruning runs on the stored rows before the next request and the compaction.
  const prune = p.prune === true ? pruneRows(view.rows) : null;
  if (prune?.applied) view = { ...view, rows: prune.rows };
  const recordedWindow = context.limits.contextWindow;
  const recordedWindowSource = context.limits.contextWindowSource;
  const agentWindow = num(p.agentDefaultContextWindow);
  const providerWindow = num(p.providerDefaultContextWindow) ?? recordedWindow;
  const resolved = resolveOpencodeModel(
    p.promptCarriesModel === false
      ? { sessionRow: recordedWindow, agentDefault: agentWindow, providerDefault: providerWindow }
      : { explicit: recordedWindow, providerDefault: providerWindow },
    spiralBrake,
  );
  const limits = { context: resolved.model, input: context.limits.inputLimit, output: context.limits.maxOutputTokens };
  const cfg = { auto: p.autoCompaction !== false, reserved: num(p.reserved), preserveRecentTokens: num(p.preserveRecentTokens), tailTurns: num(p.tailTurns) };
  return { view, prune, scopeOptions, spiralBrake, manual: input.manual === true, recordedWindow, recordedWindowSource, agentWindow, providerWindow, resolved, limits, cfg };
}

/** The prune's own finding (CP-OC-26): what it cleared, or why it cleared nothing. */
function pruneFinding(prune: PruneResult): Finding {
  return {
    id: "tool-outputs-pruned",
    severity: "info",
    message: prune.applied
      ? `prune cleared ${prune.parts} tool output(s), ${prune.pruned} tokens (of ${prune.total} walked; 40000 protected, > 20000 required) → "[Old tool result content cleared]"`
      : `prune would free ${prune.pruned} tokens (of ${prune.total} walked), not more than 20000: nothing pruned`,
    location: null,
    ruleId: "CP-OC-26",
  };
}

/** Where the turn's model window came from, in words: a window the catalogue does not know is not the file's. */
function windowSourceWords(source: string): string {
  if (source === "catalogue-default") return "model not in the catalogue: its default window, not recorded in the file";
  if (source === "the price dataset's window for this model") return "model not in the catalogue: the price dataset's window, not recorded in the file";
  if (source === "override") return "your value";
  if (source === "inferred from this session's compactions") return source;
  if (source === "catalogue") return "from the model catalogue";
  return source;
}

/** (1) Trigger (CP-OC-1 … CP-OC-4). */
function opencodeTrigger(scene: OpencodeScene): { trigger: TriggerDecision; decision: OverflowDecision } {
  const { view, resolved, manual } = scene;
  // The estimate serializes the whole next request: made only where the turn recorded no tokens.
  const tokens = view.tokens ?? { total: Math.ceil(JSON.stringify(nextRequestMessages(view.rows, scene.scopeOptions).messages).length / 4) };
  const decision = isOverflow(scene.cfg, scene.limits, tokens);
  const trigger: TriggerDecision = {
    evaluated: !manual,
    manual,
    operands: [
      { name: "tokens", value: decision.count, source: view.tokens ? "recorded on the turn's answer (tokens.total || input + output + cache)" : "estimate chars/4 of the request messages" },
      { name: "usable", value: decision.usable, source: decision.steps.join("; ") },
      { name: "context window", value: resolved.model, source: `${resolved.source} (${resolved.ruleId}); the turn's model ${scene.recordedWindow} (${windowSourceWords(scene.recordedWindowSource)}), agent default ${scene.agentWindow ?? "none"}, provider default ${scene.providerWindow}` },
    ],
    operator: ">=",
    left: decision.count,
    right: decision.usable,
    result: decision.overflow,
    expression: decision.disabled ? `never overflows: ${decision.disabled}` : `${decision.count} ≥ ${decision.usable} → ${decision.overflow ? "compact" : "no overflow"}`,
    ruleId: "CP-OC-3",
    estimator: "opencode: recorded tokens for the gate; chars/4 (util/token.ts) for tails and requests",
  };
  return { trigger, decision };
}

/** (2) Partition: the tail kept, the summariser's input, pruned outputs, what drops without summary. */
function opencodePartition(scene: OpencodeScene, step: CompactionStep, budget: number): { partition: Partition; tailRows: number[] } {
  const { view, prune, resolved } = scene;
  const tailRows = step.tail.tailAt >= 0 ? step.scope.indexes.slice(step.tail.tailAt) : [];
  const hiddenPairs = step.scope.indexes.filter((i) => !step.input.rowIndexes.includes(i) && !tailRows.includes(i));
  const outOfScope = view.rows.map((_, i) => i).filter((i) => !step.scope.indexes.includes(i));
  const partition = {
    kept: tailRows.length > 0 ? [rangeOf("kept", view, tailRows, `tail from ${step.tail.tailStartId} (tail_start_id)`, "CP-OC-14")] : [],
    summarised: [rangeOf("summarised", view, step.input.rowIndexes, "summariser input", "CP-OC-16")],
    pruned: prune?.applied ? [rangeOf("pruned", view, prune.rowIndexes, "tool outputs cleared by prune", "CP-OC-26")] : [],
    droppedWithoutSummary: [
      ...(hiddenPairs.length > 0 ? [rangeOf("dropped-without-summary", view, hiddenPairs, "completed compaction pairs (their text is the prior summary)", "CP-OC-13")] : []),
      ...(outOfScope.length > 0 ? [rangeOf("dropped-without-summary", view, outOfScope, "outside the model scope (filterCompacted)", "CP-OC-7")] : []),
    ],
    details: {
      preserveBudget: budget,
      tailStartId: step.tail.tailStartId,
      splitTurn: step.tail.splitTurn,
      tailTokens: step.tail.tailTokens,
      priorSummary: step.input.priorSummary !== null,
      modelSource: resolved.source,
      modelPersisted: resolved.persisted,
      excludedByBrake: step.scope.excluded.length,
    },
  };
  return { partition, tailRows };
}

/** (3) The summariser request the step built (CP-OC-16, CP-OC-17). */
function opencodeRequest(input: SimulationInput, context: SimulationContext, view: OpencodeRowsView, step: CompactionStep): SimulatedSummariserRequest {
  return {
    role: step.input.priorSummary !== null ? "update" : "summary",
    api: "openai-completions" as const,
    form: "standalone",
    body: step.request.body,
    maxTokens: context.limits.maxOutputTokens,
    dataPart: { conversation: step.input.conversation, priorSummary: step.input.priorSummary },
    instructionSlots: step.request.slots,
    cache: cacheEffect(`turn ${input.turn} main request`, context.turnRequest.body, step.request.body),
    focusPlacement: null,
    redaction: "none (CP-OC-34): only pruning and the 2000-char tool-output cap",
    notes: ["no tools, no tool_choice (CP-OC-17)", ...(input.focus ? ["opencode has no focus topic: the focus text is not used"] : [])],
    findingInputs: {
      instructionTexts: step.request.instructionTexts,
      turnTexts: [step.input.conversation, ...(step.input.priorSummary ? [step.input.priorSummary] : [])],
      userControlledTexts: step.input.rowIndexes.filter((i) => (view.rows[i] as OcMessage).info.role === "user").map((i) => rowText(view.rows[i] as OcMessage)).filter((t) => t.length >= 16),
      checkpointInstruction: false,
    },
  };
}

/** (4) After the compaction (CP-OC-24, CP-OC-25): the stored pair and the next request. */
function opencodeAfter(input: SimulationInput, context: SimulationContext, scene: OpencodeScene, step: CompactionStep): { after: AfterCompaction; afterRows: OcMessage[]; next: ReturnType<typeof nextRequestMessages>; before: number; afterTokens: number } {
  const { view, scopeOptions } = scene;
  const summary = resolveSummary({
    session: input.session,
    source: input.summary,
    recorded: view.recordedSummary,
    headings: ["## Objective", "## Important Details", "## Work State", "## Next Move", "## Relevant Files"],
  });
  const stored = storedCompactionRows({ auto: !scene.manual, tailStartId: step.tail.tailStartId, summaryText: summary.text });
  const afterRows = [...view.rows, stored.compactionUser, stored.summary, ...(stored.continueMessage ? [stored.continueMessage] : [])];
  const next = nextRequestMessages(afterRows, scopeOptions);
  const header = input.options.header ?? null;
  const afterBody: Record<string, unknown> = {
    model: context.turnContext.model?.modelId ?? "unknown",
    max_tokens: context.limits.maxOutputTokens,
    messages: [{ role: "system", content: header?.systemPrompt ?? notRecorded("system prompt (agent prompt, environment, skills)") }, ...next.messages],
    tools: header?.tools ? header.tools.map((tool) => ({ type: "function", function: tool })) : notRecorded("tools"),
    tool_choice: "auto",
    stream: true,
    stream_options: { include_usage: true },
  };
  const afterMessages: ContextMessage[] = next.scope.indexes.flatMap((i) => rowToContext(afterRows[i] as OcMessage));
  const after = afterCompaction({
    summary,
    messages: afterMessages,
    api: "openai-completions",
    turnBody: context.turnRequest.body,
    body: afterBody,
    breakReason: "opencode compaction: the compaction pair replaces the history before the tail",
    storedRecord: { compaction: stored.compactionUser.parts[0] ?? null, summary: { summary: true, mode: "compaction", agent: "compaction" }, continueMessage: stored.continueMessage !== null },
  });
  // CP-OC-5: E = ceil(chars / 4) of the messages as canonical JSON (sorted keys, undefined dropped).
  const before = Math.ceil(canonicalJson(nextRequestMessages(view.rows, scopeOptions).messages).length / 4);
  return { after, afterRows, next, before, afterTokens: Math.ceil(canonicalJson(next.messages).length / 4) };
}

/** (5) Verdict (CP-OC-30 … CP-OC-33), with the finding of a compaction that did not bring the request under the gate. */
function opencodeVerdict(context: SimulationContext, scene: OpencodeScene, decision: OverflowDecision, before: number, after: number): { verdict: VerdictResult; finding: Finding | null } {
  const { manual, spiralBrake } = scene;
  const stillCompact = after >= decision.usable;
  const verdictOf = (verdict: Verdict, ruleId: string, message: string | null = null) => makeVerdict(opencodePolicy, verdict, ruleId, message);
  if (!manual && !decision.overflow) return { verdict: verdictOf("not-triggered", "CP-OC-3"), finding: null };
  if (spiralBrake && !manual && after >= before) return { verdict: verdictOf("no-reduction", "CP-OC-32", `no-reduction (${"message text not published"}, CP-OC-33)`), finding: null };
  if (spiralBrake && stillCompact) return { verdict: verdictOf("cycle-guard-stop", "CP-OC-30", `the request after compaction (${after} tokens) still overflows usable ${decision.usable}: stopped instead of compacting again`), finding: null };
  if (spiralBrake && !admission(scene.cfg, scene.limits, after).admitted) return { verdict: verdictOf("post-compaction-over-budget", "CP-OC-32", "post-compaction admission check failed (message text not published, CP-OC-33)"), finding: null };
  if (!stillCompact) return { verdict: verdictOf("compacted", "CP-OC-24"), finding: null };
  const fallback = context.parameters.fallbackModel === true;
  const guard = fallback ? "cycle guard armed by compaction.fallback_model: stop" : "another compaction would follow (no cycle guard before opencode's spiral fix)";
  const finding: Finding = { id: "ineffective-compaction", severity: "warning", message: `the request after compaction (${after} tokens) still overflows ${decision.usable}: ${guard}`, location: { request: "after" }, ruleId: "CP-OC-30" };
  return { verdict: verdictOf(fallback ? "cycle-guard-stop" : "compacted", "CP-OC-24"), finding };
}

/** (6) Findings of the request, the scope, the cut and a spiral run when asked for. */
function opencodeFindings(input: SimulationInput, context: SimulationContext, scene: OpencodeScene, parts: { request: SimulatedSummariserRequest; step: CompactionStep; tailRows: number[]; afterRows: OcMessage[]; next: ReturnType<typeof nextRequestMessages> }): Finding[] {
  const { view } = scene;
  const { step, tailRows, afterRows, next } = parts;
  const findings: Finding[] = [...checkSummariserRequests([parts.request])];
  for (const index of step.scope.failedInScope) {
    findings.push({ id: "unfinished-summary-in-scope", severity: "warning", message: `summary ${(view.rows[index] as OcMessage).info.id} failed or is unfinished but stays in the model scope (CP-OC-8)`, location: { entryId: (view.rows[index] as OcMessage).info.id }, ruleId: "CP-OC-8" });
  }
  const pairsInAfter = next.scope.indexes.filter((i) => compactionPart(afterRows[i] as OcMessage)).length;
  if (pairsInAfter > 1) {
    findings.push({ id: "stale-summary-resent", severity: "warning", message: `the request after compaction re-sends ${pairsInAfter - 1} older compaction pair(s) from the tail as ordinary messages (CP-OC-9)`, location: { request: "after" }, ruleId: "CP-OC-9" });
  }
  const sides = new Map<number, "summarised" | "kept">();
  for (const i of step.input.rowIndexes) for (const c of view.contextIndexes[i] ?? []) sides.set(c, "summarised");
  for (const i of tailRows) for (const c of view.contextIndexes[i] ?? []) sides.set(c, "kept");
  findings.push(...checkToolPairsAcrossCut(context.turnContext.messages, (index) => sides.get(index) ?? "other"));
  for (const use of step.request.slots) {
    if (use.filledFrom === "description") findings.push({ id: "instruction-slot-described", severity: "info", message: `slot "${use.slot}" holds Contextscope's description, not opencode's text`, location: { request: 0 }, ruleId: "CP-OC-18" });
  }
  const attempts = num(context.parameters.spiralAttempts) ?? 0;
  if (attempts > 0) {
    const run = spiralRunForSimulation(input, context, attempts);
    findings.push({ id: "spiral-run", severity: run.verdict === "failed" ? "error" : "info", message: `spiral run (${attempts} failed attempts): ${run.message}; next request tokens ${run.attempts.map((a) => a.nextMainRequestTokens).join(" → ")}`, location: null, ruleId: run.ruleId });
  }
  return findings;
}

function simulateOpencode(input: SimulationInput, context: SimulationContext): SimulationResult {
  const scene = opencodeScene(input, context);
  const { view, scopeOptions, cfg } = scene;
  const findings: Finding[] = scene.prune ? [pruneFinding(scene.prune)] : [];
  const inferred = ["OC-INF-TAIL-MEASURE", "OC-INF-TAIL-SPLIT", "OC-INF-COMPACTION-LINE", "CP-OC-11", "CP-OC-12"];
  const { trigger, decision } = opencodeTrigger(scene);
  if (input.triggerOnly === true) return emptyResultParts(opencodePolicy, input, context, trigger);

  // The fork's chunked planner and executor instead of the live single call (CP-OC-31).
  if (context.parameters.compactionMode === CHUNKED_MODE) {
    return simulateChunked({
      input,
      context,
      rows: view.rows,
      scopeOptions,
      trigger,
      manual: scene.manual,
      model: scene.limits,
      cfg,
      recordedSummary: view.recordedSummary,
      findings,
      inferred,
      range: (kind, rowIndexes, label, rule) => rangeOf(kind, view, rowIndexes, label, rule),
      verdict: (verdict, rule, text, code) => makeVerdict({ checkedVerdicts: CHUNKED_CHECKED }, verdict, rule, text, code),
    });
  }

  const budget = preserveBudget(cfg, decision.usable);
  const step = compactionStep(view.rows, {
    ...scopeOptions,
    preserveBudget: budget,
    tailTurns: cfg.tailTurns,
    model: context.turnContext.model?.modelId ?? "unknown",
    maxTokens: context.limits.maxOutputTokens,
    ...(input.instructions ? { instructions: input.instructions } : {}),
  });
  const { partition, tailRows } = opencodePartition(scene, step, budget);
  const request = opencodeRequest(input, context, view, step);
  const { after, afterRows, next, before, afterTokens } = opencodeAfter(input, context, scene, step);
  const { verdict, finding } = opencodeVerdict(context, scene, decision, before, afterTokens);
  if (finding) findings.push(finding);
  findings.push(...opencodeFindings(input, context, scene, { request, step, tailRows, afterRows, next }));
  return simulationResult(opencodePolicy, input, context, {
    trigger,
    partition,
    summariserRequests: [request],
    after,
    verdict,
    tokens: tokenSummary(trigger.estimator, before, afterTokens, step.requestTokens),
    findings,
    inferred,
  });
}

export const opencodePolicy: CompactionPolicy = {
  id: "opencode",
  label: "opencode compaction",
  rulePrefix: "CP-OC",
  parameters: PARAMETERS,
  checkedVerdicts: CHECKED,
  instructionSlots: OPENCODE_SLOTS,
  simulate: simulateOpencode,
  extractInstructions: extractOpencodeInstructions,
  // A captured summariser request: its slots and its data part (conversation, prior summary), so
  // `--replay-recorded` can tell which capture belongs to which compaction.
  readCaptured(body, source) {
    const values = extractOpencodeInstructions(body, source);
    return values ? { values, focus: null, dataPart: opencodeDataPart(body as { messages: { content: string }[] }) } : null;
  },
  reserveParameter: "reserved",
  inference: opencodeInference,
  // CP-OC-27 … CP-OC-29: the model-window candidates are the policy's own inputs.
  modelChoiceParameters(choice) {
    const parameters: PolicyParameters = {};
    if (choice.agentDefaultContextWindow !== null) parameters.agentDefaultContextWindow = choice.agentDefaultContextWindow;
    if (choice.providerDefaultContextWindow !== null) parameters.providerDefaultContextWindow = choice.providerDefaultContextWindow;
    if (!choice.promptCarriesModel) parameters.promptCarriesModel = false;
    return parameters;
  },
  modelResolution(result, candidates) {
    const operand = result.trigger.operands.find((o) => o.name === "context window");
    // A prompt without a model (CP-OC-27 before PR #11, CP-OC-28 after).
    const off = resolveOpencodeModel(candidates, false);
    const on = resolveOpencodeModel(candidates, true);
    return {
      used: operand ? { window: operand.value, from: operand.source } : null,
      variants: [
        { label: "prompt without model, brake off", window: off.model, source: `${off.source} (${off.ruleId})` },
        { label: "prompt without model, brake on", window: on.model, source: `${on.source} (${on.ruleId})` },
      ],
    };
  },
  spiral(input, context, attempts) {
    const run = (brake: boolean) => spiralRunForSimulation(input, { ...context, parameters: { ...context.parameters, spiralBrake: brake } }, attempts);
    return { off: run(false), on: run(true) };
  },
  spiralLabels: { title: "Spiral run (opencode, CP-OC-8 / CP-OC-10)", fixParameter: "spiralBrake", off: "Fix off (opencode before its spiral fix)", on: "Fix on (spiral brake)" },
};
