// The pi-family simulation shared by the pi and senpi policies (CP-PI-1 … CP-PI-8, pi-senpi.md §5):
// find the compaction point after turn N, evaluate the trigger, prepare the cut with pi's own code
// (src/core/agents/pi/compaction), build the stored compaction entry with the simulated summary, and
// rebuild the requests after it on a session copy that holds the simulated entry.
import type { PiProfileId } from "../profile";
import type { AgentMessage, ContextMessage, Session, SessionEntry } from "../../../model";
import {
  assembleCompactionSummary,
  buildCompactionRequests,
  currentContextTokens,
  type CurrentContextEstimate,
  type CompactionRebuild,
  type CompactionRebuildOptions,
} from "../compaction";
import { messageOfEntry } from "../compaction/entry-messages";
import { PI_FORMAT_ID } from "../reader";
import { estimateMessageTokens } from "../estimate";
import { getSerializer } from "../../../providers";
import { resolveModel } from "../../../models/catalogue";
import { compareFollowingTurns } from "../../../simulate/following";
import { findPrefixBreak } from "../../../simulate/prefix";
import { resolveSummary } from "../../../simulate/summary-text";
import { checkToolPairsAcrossCut, detectUnfinishedSummaries, unfinishedSummaryFindings, type Side } from "../../../simulate/findings";
import type {
  AfterCompaction,
  Finding,
  Partition,
  PartitionRange,
  SimulatedSummary,
  SimulationContext,
  SimulationInput,
  TriggerDecision,
} from "../../../simulate/types";
import { findCompactionPoint, SIMULATED_COMPACTION_ID, withCompactionAt, type CompactionPoint } from "./compaction-point";
import { contextOfPath } from "./path-context";
import { projectPath } from "../projection";
import { fillPiSlots, PI_SUMMARY_HEADINGS, PI_TURN_PREFIX_HEADINGS, type FilledPiSlots } from "./pi-slots";
import { isText, textString } from "../../../text/text";

export interface PiFamilyParameters {
  reserveTokens: number;
  keepRecentTokens: number;
  boundaryRule: "G1" | "G2";
  turnPrefixForm: "serialized" | "replay";
  /**
   * At a recorded compaction, take its `firstKeptEntryId` as the cut instead of computing one (the
   * settings in force are not in the session; used to rebuild a recording's summariser request).
   */
  useRecordedCut?: boolean;
  /** Take this entry as the cut (senpi's warm job prepared it on an earlier branch, SP-K8). */
  forcedCut?: string;
}

export interface PiFamilyPreparation {
  point: CompactionPoint;
  rebuild: CompactionRebuild | null;
  rebuildOptions: CompactionRebuildOptions;
  slots: FilledPiSlots;
  /** Path messages as pi's compaction sees them (for token estimates). */
  pathMessages: AgentMessage[];
}

/** Path at the point, the bare compaction entry, and pi's rebuild of the summariser request(s). */
/**
 * pi and senpi compact pi's own session tree: they cut at its entries and write a compaction entry
 * into it, so they run on pi (and senpi) sessions only; other agents' files are named in words.
 */
export function piFamilyNotApplicable(session: Session): string | null {
  if (session.formatId === PI_FORMAT_ID) return null;
  return `pi's compaction cuts pi's own session tree (its entries and the compaction entry it writes into it); this ${session.formatLabel} is not a pi session. The opencode, hermes and deepseek-harness policies run on any session.`;
}

export function preparePiFamily(input: SimulationInput, profile: PiProfileId, params: PiFamilyParameters, pointOverride?: CompactionPoint): PiFamilyPreparation {
  const point = pointOverride ?? findCompactionPoint(input.session, input.options.leafId, input.turn, input.recordedCompactionEntryId);
  const slots = fillPiSlots(input.instructions);
  const bare: Record<string, unknown> = {
    type: "compaction",
    id: SIMULATED_COMPACTION_ID,
    parentId: point.parent.id,
    timestamp: point.recorded?.timestamp ?? point.parent.timestamp,
  };
  const recordedCut = point.recorded?.raw.firstKeptEntryId;
  if (params.useRecordedCut && typeof recordedCut === "string") bare.firstKeptEntryId = recordedCut;
  if (params.forcedCut !== undefined) bare.firstKeptEntryId = params.forcedCut;
  const rebuildOptions: CompactionRebuildOptions = {
    ...input.options,
    profile,
    api: input.api ?? input.options.api ?? null,
    instructions: slots.instructions,
    settings: { reserveTokens: params.reserveTokens, keepRecentTokens: params.keepRecentTokens },
    boundaryRule: params.boundaryRule,
    turnPrefixForm: params.turnPrefixForm,
    customInstructions: input.focus ? { [SIMULATED_COMPACTION_ID]: input.focus } : {},
  };
  const pathMessages: AgentMessage[] = [];
  for (const entry of point.path) {
    const message = messageOfEntry(entry, { includeCompactions: false });
    if (message) pathMessages.push(message);
  }
  // PI-K13: nothing to do when the path already ends with a compaction.
  const last = point.path[point.path.length - 1];
  // Only the trigger wanted (settings inference, a recorded compaction's trigger in words): the path
  // is enough, no request is rebuilt, and the session is not copied with a bare compaction entry in
  // it (a copy of every entry: the whole session's work for a question about one point).
  const rebuild =
    last && last.type !== "compaction" && input.triggerOnly !== true
      ? buildCompactionRequests(withCompactionAt(input.session, point, bare), rebuildOptions, SIMULATED_COMPACTION_ID)
      : null;
  return { point, rebuild, rebuildOptions, slots, pathMessages };
}

/** PI-K4 over the projected context at the compaction point, counting only a response given after the latest compaction. */
function pathContextTokens(prep: PiFamilyPreparation, profile: PiProfileId) {
  const projected = projectPath(prep.point.path, profile).messages.map((m) => m.message);
  return currentContextTokens(prep.point.path, projected, profile);
}

function contextTokensSource(estimate: CurrentContextEstimate): string {
  if (estimate.noResponseSinceCompaction) return "no response since the latest compaction: chars/4 estimate of every message (pi counts no usage from before a compaction and skips its check until the next response)";
  return estimate.usageIndex >= 0 ? `last usage ${estimate.usageTokens} + estimate ${estimate.trailingTokens} of later messages (PI-K4)` : "chars/4 estimate of every message (PI-K4)";
}

/** CP-PI-1 / PI-K5: `contextTokens > contextWindow − reserveTokens`. */
export function piTrigger(prep: PiFamilyPreparation, input: SimulationInput, context: SimulationContext, profile: PiProfileId, reserveTokens: number): TriggerDecision {
  const estimate = pathContextTokens(prep, profile);
  const window = context.limits.contextWindow;
  const threshold = window - reserveTokens;
  const tokens = estimate.tokens;
  const manual = input.manual === true;
  // pi checks the threshold only on a response given after the latest compaction.
  const result = !estimate.noResponseSinceCompaction && tokens > threshold;
  return {
    evaluated: !manual,
    manual,
    operands: [
      { name: "contextTokens", value: tokens, source: contextTokensSource(estimate) },
      { name: "contextWindow", value: window, source: context.limits.contextWindowSource },
      { name: "reserveTokens", value: reserveTokens, source: "parameter reserveTokens (PI-K1)" },
    ],
    operator: ">",
    left: tokens,
    right: threshold,
    result,
    expression: `${tokens} > ${window} − ${reserveTokens} = ${threshold} → ${result ? "compact" : "no"}${manual ? " (manual compaction: trigger skipped)" : estimate.noResponseSinceCompaction ? " (no response since the latest compaction: pi does not check)" : ""}`,
    ruleId: "CP-PI-1",
    estimator: `pi chars/4 per message, anchored on the last usage (PI-K2, PI-K4${profile === "senpi" ? ", SP-K1" : ""})`,
  };
}

function messageIndicesOf(messages: readonly ContextMessage[], entryIds: readonly string[]): number[] {
  const wanted = new Set(entryIds);
  const out: number[] = [];
  messages.forEach((m, i) => {
    if (m.provenance.entryId !== null && wanted.has(m.provenance.entryId)) out.push(i);
  });
  return out;
}

function entryTokens(entries: readonly SessionEntry[], profile: PiProfileId, includeCompactions = false): number {
  let total = 0;
  for (const entry of entries) {
    const message = messageOfEntry(entry, { includeCompactions });
    if (message) total += estimateMessageTokens(message, { profile });
  }
  return total;
}

function rangeOf(
  kind: PartitionRange["kind"],
  path: readonly SessionEntry[],
  start: number,
  end: number,
  turnMessages: readonly ContextMessage[],
  profile: PiProfileId,
  label?: string,
  ruleId?: string,
): PartitionRange {
  const entries = path.slice(start, Math.max(start, end));
  const indices = messageIndicesOf(turnMessages, entries.map((e) => e.id));
  const range: PartitionRange = {
    kind,
    messageStart: indices.length > 0 ? indices[0]! : null,
    messageEnd: indices.length > 0 ? indices[indices.length - 1]! + 1 : null,
    entryIds: entries.map((e) => e.id),
    lines: entries.map((e) => e.line),
    tokens: entryTokens(entries, profile),
  };
  if (label) range.label = label;
  if (ruleId) range.ruleId = ruleId;
  return range;
}

/** CP-PI-2: kept / summarised / dropped-without-summary ranges (message indices refer to turn N's request). */
export function piPartition(prep: PiFamilyPreparation, context: SimulationContext, profile: PiProfileId): Partition {
  const partition: Partition = { kept: [], summarised: [], pruned: [], droppedWithoutSummary: [], details: {} };
  const rebuild = prep.rebuild;
  if (!rebuild) return partition;
  // The rebuild's own path: its indices refer to it (on a damaged tree it can differ from the
  // point's path, which was walked from another leaf).
  const path = rebuild.path;
  const p = rebuild.preparation;
  const turnMessages = context.turnContext.messages;
  if (p.previousCompactionIndex >= 0) {
    const summaryIndex = turnMessages.findIndex((m) => m.provenance.entryId === p.previousCompactionId);
    partition.summarised.push({
      kind: "summarised",
      messageStart: summaryIndex >= 0 ? summaryIndex : null,
      messageEnd: summaryIndex >= 0 ? summaryIndex + 1 : null,
      entryIds: [p.previousCompactionId!],
      lines: [path[p.previousCompactionIndex]!.line],
      tokens: entryTokens([path[p.previousCompactionIndex]!], profile, true),
      label: "previous summary (sent as <previous-summary> / replayed)",
      ruleId: "PI-K14",
    });
  }
  partition.summarised.push(rangeOf("summarised", path, p.boundaryStart, p.historyEnd, turnMessages, profile, "history", "PI-K17"));
  if (p.isSplitTurn) partition.summarised.push(rangeOf("summarised", path, p.turnStartIndex, p.firstKeptEntryIndex, turnMessages, profile, "turn prefix (split turn)", "PI-K27"));
  partition.kept.push(rangeOf("kept", path, p.firstKeptEntryIndex, path.length, turnMessages, profile, "kept verbatim", "PI-K10"));
  if (p.droppedWithoutSummary) {
    partition.droppedWithoutSummary.push(
      rangeOf("dropped-without-summary", path, p.droppedWithoutSummary.start, p.droppedWithoutSummary.end, turnMessages, profile, "G1: kept by the previous compaction, now neither kept nor summarised", "PI-K15"),
    );
  }
  partition.details = {
    boundaryRule: rebuild.boundaryRule,
    boundaryStartEntryId: rebuild.boundaryStartEntryId,
    firstKeptEntryId: rebuild.firstKeptEntryId,
    isSplitTurn: rebuild.isSplitTurn,
    turnStartEntryId: rebuild.turnStartEntryId,
    budgetReachedAtEntryId: rebuild.computedCut.budgetReachedAt !== null ? (path[rebuild.computedCut.budgetReachedAt]?.id ?? null) : null,
    keepRecentTokens: rebuild.computedCut.keepRecentTokens,
    previousCompactionId: p.previousCompactionId,
  };
  return partition;
}

/** Findings about the cut itself: tool pairs across it, unfinished summaries in scope. */
export function piCutFindings(prep: PiFamilyPreparation, context: SimulationContext): Finding[] {
  const rebuild = prep.rebuild;
  const findings: Finding[] = [];
  const turnMessages = context.turnContext.messages;
  findings.push(...unfinishedSummaryFindings(detectUnfinishedSummaries(turnMessages), `turn ${context.turnContext.turn}'s context`));
  if (!rebuild) return findings;
  const p = rebuild.preparation;
  const side = new Map<string, Side>();
  prep.point.path.forEach((entry, index) => {
    if (index >= p.firstKeptEntryIndex) side.set(entry.id, "kept");
    else if (index >= p.boundaryStart) side.set(entry.id, "summarised");
  });
  findings.push(...checkToolPairsAcrossCut(turnMessages, (i) => side.get(turnMessages[i]!.provenance.entryId ?? "") ?? "other"));
  return findings;
}

/** The summary the simulated compaction stores (CP-0-3 + PI-K29/PI-K30 assembly). */
export function piSummary(prep: PiFamilyPreparation, input: SimulationInput, assemble: "pi" | "raw"): SimulatedSummary {
  const recorded = prep.point.recorded && isText(prep.point.recorded.raw.summary) ? textString(prep.point.recorded.raw.summary) : null;
  const rebuild = prep.rebuild;
  const summary = resolveSummary({ session: input.session, source: input.summary, recorded, headings: PI_SUMMARY_HEADINGS });
  if (summary.source === "recorded" || !rebuild || assemble === "raw") return summary;
  // A simulated summariser output: pi appends the split-turn part and the file lists (PI-K30).
  const hasHistory = rebuild.requests.some((r) => r.role === "history");
  let turnPrefixText: string | null = null;
  if (rebuild.isSplitTurn && rebuild.requests.some((r) => r.role === "turn-prefix")) {
    turnPrefixText = input.summary?.kind === "text" ? input.summary.text : resolveSummary({ session: input.session, source: { kind: "placeholder", chars: Math.max(200, Math.floor(summary.text.length / 2)) }, recorded: null, headings: PI_TURN_PREFIX_HEADINGS }).text;
  }
  const text = assembleCompactionSummary({ historyText: hasHistory ? summary.text : null, turnPrefixText, fileLists: rebuild.fileLists });
  return { ...summary, text, tokens: Math.ceil(text.length / 4) };
}

/** The compaction entry pi would append (PI-K31). */
export function piStoredRecord(prep: PiFamilyPreparation, summary: SimulatedSummary, fromHook = false, details?: Record<string, unknown>): Record<string, unknown> {
  const rebuild = prep.rebuild!;
  return {
    type: "compaction",
    id: SIMULATED_COMPACTION_ID,
    parentId: prep.point.parent.id,
    timestamp: prep.point.recorded?.timestamp ?? prep.point.parent.timestamp,
    summary: summary.text,
    firstKeptEntryId: rebuild.firstKeptEntryId,
    tokensBefore: rebuild.tokensBefore.computed,
    details: details ?? { readFiles: rebuild.fileLists.readFiles, modifiedFiles: rebuild.fileLists.modifiedFiles },
    fromHook,
  };
}

/** (4) The request after the compaction and the following turns, rebuilt on a session copy. */
export function piAfter(
  prep: PiFamilyPreparation,
  input: SimulationInput,
  context: SimulationContext,
  profile: PiProfileId,
  summary: SimulatedSummary,
  stored: Record<string, unknown>,
): AfterCompaction {
  const afterSession = withCompactionAt(input.session, prep.point, stored);
  const afterPath = [...prep.point.path, { id: SIMULATED_COMPACTION_ID, parentId: prep.point.parent.id, type: "compaction", timestamp: null, line: 0, raw: stored } as SessionEntry];
  const projected = contextOfPath(afterPath, profile);
  const options = { ...input.options, profile };
  const turnCount = context.pipeline.countTurns(input.session, options);
  const nextTurn = prep.point.turn + 1;
  let request: AfterCompaction["request"] = null;
  let messages: ContextMessage[] = projected.messages;
  if (nextTurn <= turnCount) {
    const built = context.pipeline.buildTurnRequest(afterSession, options, nextTurn);
    request = { api: built.api, body: built.body };
    messages = built.messages;
  } else {
    const model = resolveModel(projected.model ? { provider: projected.model.provider, modelId: projected.model.modelId } : null, context.turnRequest.api, input.options.modelOverrides);
    const body = getSerializer(context.turnRequest.api).serialize({ model, messages: messages.map((m) => m.message), header: input.options.header ?? null, thinkingLevel: projected.thinkingLevel }).body;
    request = { api: context.turnRequest.api, body };
  }
  const followingTurns = nextTurn <= turnCount ? compareFollowingTurns(context.pipeline, input.session, afterSession, options, nextTurn, input.followingTurns, context.turnRequest.body) : [];
  return {
    summary,
    messages,
    request,
    prefixBreak: request ? findPrefixBreak(context.turnRequest.body, request.body, "compaction replaced the summarised messages with the summary message (PI-P4)") : null,
    followingTurns,
    storedRecord: stored,
  };
}

