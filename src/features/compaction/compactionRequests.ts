// Reconstructed summariser requests of a recorded compaction (PI-R12, spec §5), shaped for the
// UI: each request as pretty JSON with its not-recorded highlights, the serialized conversation,
// previous summary and split-turn prefix transcript, the instruction slots (filled from captured
// summariser requests or not recorded), plus the facts and lints of the reconstruction.
import { formatRequestJson } from "../../core/export/request-json";
import { compactionInstructionLabels, type CompactionInstructions } from "../../core/session/index";
import { findAgent } from "../../core/session/agents";
import type { PipelineOptions, Session } from "../../core/model";
import { rebuildRecordedCompaction, timelineRebuildPolicy, type InstructionSlotValues } from "../../core/session/simulate/index";
import type { CompactionRequestsResult, InstructionSlotView } from "./protocol";
import { notRecordedHighlights } from "../request/requestModel";

const ROLE_LABELS: Record<string, string> = {
  history: "history summary",
  "turn-prefix": "turn prefix summary",
};

function yesNo(value: boolean): string {
  return value ? "yes" : "no";
}


/** Why a recorded compaction has no rebuild here: the agent's reason, or the timeline row that shows its request. */
function unavailableReason(session: Session, entryId: string): string {
  const recorded = findAgent(session.formatId)?.recorded;
  if (recorded && recorded.rebuildPolicy(session, entryId) !== null && !recorded.rebuildInTimeline) {
    return "Its summariser request is rebuilt from the session and shown as its own row of the timeline (the summariser request next to this compaction).";
  }
  return recorded?.noRebuildReason ?? `${session.formatLabel} files do not say enough to rebuild the summariser request.`;
}

export function compactionRequests(
  session: Session,
  options: PipelineOptions,
  entryId: string,
  instructions: CompactionInstructions | null = null,
): CompactionRequestsResult {
  // senpi (replay form), Claude Code and Codex recordings: the agent's policy rebuilds it.
  if (timelineRebuildPolicy(session, entryId) !== null) return policyCompactionRequests(session, options, entryId, instructions);
  const standaloneRebuild = findAgent(session.formatId)?.recorded?.standaloneRebuild;
  if (!standaloneRebuild) return { available: false, entryId, requests: [], facts: [], lints: [], reason: unavailableReason(session, entryId) };
  const rebuild = standaloneRebuild(session, instructions ? { ...options, instructions } : options, entryId);
  // The agent's slots in its order, the system prompt of every summariser request first.
  const labels = compactionInstructionLabels();
  const order = Object.keys(labels);
  const used = new Set<string>(rebuild.requests.map((request) => request.instructionSlot));
  if (rebuild.requests.length > 0 && order[0] !== undefined) used.add(order[0]);
  const filled = new Set(Object.entries(instructions ?? {}).flatMap(([slot, text]) => (typeof text === "string" ? [slot] : [])));
  const slots: InstructionSlotView[] = order.map((slot) => ({ slot, label: labels[slot] ?? slot, used: used.has(slot), filled: filled.has(slot) }));
  const requests = rebuild.requests.map((request, index) => {
    const jsonText = formatRequestJson(request.body);
    return {
      label: `${index + 1}. ${ROLE_LABELS[request.role] ?? request.role}`,
      jsonText,
      highlights: notRecordedHighlights(jsonText),
    };
  });
  const kept = rebuild.firstKeptEntryId ?? "nothing (everything summarised)";
  const recordedKept = rebuild.recordedFirstKeptEntryId ?? "not recorded";
  const facts = [
    { label: "requests", value: String(rebuild.requests.length) },
    { label: "api", value: rebuild.api },
    { label: "model", value: `${rebuild.model.provider}/${rebuild.model.id}` },
    { label: "boundary rule", value: rebuild.boundaryRule },
    { label: "first kept", value: kept === recordedKept ? kept : `${kept} (recorded ${recordedKept})` },
    { label: "computed cut", value: rebuild.computedCut.firstKeptEntryId ?? "nothing kept" },
    { label: "split turn", value: yesNo(rebuild.isSplitTurn) },
    {
      label: "tokens before",
      value: `${rebuild.tokensBefore.recorded === null ? "not recorded" : `${rebuild.tokensBefore.recorded} recorded`} · ${rebuild.tokensBefore.computed} computed`,
    },
    { label: "keep recent", value: String(rebuild.settings.keepRecentTokens) },
    { label: "reserve", value: String(rebuild.settings.reserveTokens) },
    { label: "files read", value: String(rebuild.fileLists.readFiles.length) },
    { label: "files modified", value: String(rebuild.fileLists.modifiedFiles.length) },
  ];
  const result: CompactionRequestsResult = {
    available: true,
    entryId,
    requests,
    serializedConversation: rebuild.serializedConversation,
    previousSummary: rebuild.previousSummary,
    slots,
    instructionSources: instructions?.sources ?? [],
    facts,
    lints: rebuild.lints,
  };
  if (rebuild.turnPrefixConversation !== undefined) result.turnPrefixConversation = rebuild.turnPrefixConversation;
  return result;
}

/** Captured slot texts as simulator slot values (the senpi policy shares pi's slot names), in the agent's slot order. */
function slotValuesOf(instructions: CompactionInstructions | null): InstructionSlotValues | undefined {
  if (!instructions) return undefined;
  const texts = new Map(Object.entries(instructions));
  const slots: Record<string, string> = {};
  for (const slot of Object.keys(compactionInstructionLabels())) {
    const text = texts.get(slot);
    if (typeof text === "string") slots[slot] = text;
  }
  return { slots };
}

/** A recorded compaction rebuilt by its agent's compaction policy (src/core/session/simulate/recorded-rebuild). */
function policyCompactionRequests(session: Session, options: PipelineOptions, entryId: string, instructions: CompactionInstructions | null): CompactionRequestsResult {
  const values = slotValuesOf(instructions);
  const rebuild = rebuildRecordedCompaction(session, options, entryId, values ? { instructions: values } : {});
  if (!rebuild.available) return { available: false, entryId, requests: [], facts: [], lints: [], ...(rebuild.reason ? { reason: rebuild.reason } : {}) };
  const requests = rebuild.requests.map((request, index) => {
    const jsonText = formatRequestJson(request.body);
    return { label: `${index + 1}. ${request.role} (${request.form})`, jsonText, highlights: notRecordedHighlights(jsonText) };
  });
  const slots: InstructionSlotView[] = [];
  for (const request of rebuild.requests) {
    for (const use of request.instructionSlots) {
      if (slots.some((s) => s.slot === use.slot)) continue;
      slots.push({ slot: use.slot, label: use.slot, used: true, filled: use.filledFrom === "captured" });
    }
  }
  return { available: true, entryId, requests, slots, instructionSources: instructions?.sources ?? [], facts: rebuild.facts, lints: rebuild.lints };
}
