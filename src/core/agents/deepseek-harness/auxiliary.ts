// The provider calls a deepseek-harness session makes besides its conversation requests:
// - the session title (`session/title-llm-request` logs it whole: system, messages, route,
//   maxTokens; sent with thinking disabled and no tools);
// - each successful compaction's summarisation request: the latest header's system prompt and
//   tools (unchanged, for cache reuse) + the messages of the range it shadowed + one user message
//   holding the harness's compaction instruction, `max_tokens` from `compaction/summary`, and no
//   effort, temperature or stop from the header (the adapter's default effort applies). The
//   instruction is a constant of the harness's code, not logged: it is filled from a captured
//   summarisation request, else described (marked) in our words.
// A failed compaction's call is not logged at all (only its error): it has no request here and
// is shown as a failed compaction in the timeline.
import type { AuxiliaryRequestEvent, BuiltRequest, LearntCapture, ContextMessage, PipelineOptions, Session } from "../../model";
import type { InstructionSlotValues } from "../../simulate/types";
import { fillSlot, mergeSlotValues } from "../../simulate/instruction-slots";
import { isObject } from "../../util/is-object";
import { dataOf, num, seqOf, str } from "./events";
import { buildHarnessRequest, headerAt, modelInfoOf, surfaceMessages } from "./pipeline";
import { capturedInstruction, deepseekInstructionSlot, type InstructionVersion } from "./policy/instruction";
import { entriesBySeq, harnessIndex, type CompactionRecord, type HarnessIndex } from "./sessionIndex";
import { deepseekBody } from "./wire";

/** The instruction text changed on 2026-07-31 (the English-prose rule): older logs used the first version. */
const INSTRUCTION_V2_SINCE = Date.UTC(2026, 6, 31);

type Auxiliary = { kind: "title"; entry: number; afterRequests: number } | { kind: "summary"; record: CompactionRecord; afterRequests: number };

function auxiliaries(index: HarnessIndex): Auxiliary[] {
  const list: Auxiliary[] = [
    ...index.titles.map((title): Auxiliary => ({ kind: "title", entry: title.entry, afterRequests: title.afterRequests })),
    ...index.compactions.filter((record) => record.summary !== null && record.checkpoint !== null).map((record): Auxiliary => ({ kind: "summary", record, afterRequests: record.afterRequests })),
  ];
  const position = (item: Auxiliary) => (item.kind === "title" ? item.entry : item.record.start);
  return list.sort((a, b) => position(a) - position(b));
}

export function auxiliaryEvents(session: Session): AuxiliaryRequestEvent[] {
  const index = harnessIndex(session);
  const count = index.requests.length;
  return auxiliaries(index).map((item, i): AuxiliaryRequestEvent => {
    const entry = session.entries[item.kind === "title" ? item.entry : item.record.summary!]!;
    const beforeTurn = item.afterRequests < count ? item.afterRequests + 1 : null;
    return item.kind === "title"
      ? {
          kind: "auxiliary",
          index: i,
          purpose: "title",
          entryId: entry.id,
          beforeTurn,
          timestamp: entry.timestamp,
          rule: "synth:title",
          ruleId: "DH-37",
          label: "Session title request",
          explanation: "deepseek-harness asks the model for a session title after the first prompt. The session logs the request whole (session/title-llm-request): it is rebuilt exactly.",
        }
      : {
          kind: "auxiliary",
          index: i,
          purpose: "summary",
          entryId: entry.id,
          beforeTurn,
          timestamp: entry.timestamp,
          rule: "synth:compaction-summary",
          ruleId: "DH-53",
          label: item.record.manual ? "Compaction request (/compact)" : "Compaction request",
          explanation:
            "deepseek-harness's summarisation request: the system prompt and tools of the request header in force, the messages of the range the checkpoint replaced (compaction/summary's shadowed events) and the harness's compaction instruction, which is a constant of its code and not in the log.",
        };
  });
}

/** The instruction version a session's harness sent, by the session's creation date. */
function instructionVersionOf(session: Session): InstructionVersion {
  const created = session.header ? num(session.header.createdAt) : null;
  return created !== null && created < INSTRUCTION_V2_SINCE ? "v0" : "v2";
}

function titleRequest(session: Session, options: PipelineOptions, entry: number): BuiltRequest {
  const data = dataOf(session.entries[entry]!);
  const route = isObject(data.route) ? data.route : {};
  const messages: ContextMessage[] = (Array.isArray(data.messages) ? data.messages.filter(isObject) : []).map((message) => ({
    message: { role: "user", content: (Array.isArray(message.content) ? message.content.filter(isObject) : []).flatMap((block) => (block.type === "text" && typeof block.text === "string" ? [{ type: "text" as const, text: block.text }] : [])) },
    provenance: { rule: "synth:title", entryId: session.entries[entry]!.id, ruleId: "DH-37", explanation: "The title plugin's request, as the session logged it (session/title-llm-request)." },
  }));
  const model = str(route.model) ?? "unknown";
  const body = deepseekBody({ model, system: str(data.system), messages, tools: null, effort: { kind: "disabled" }, maxTokens: data.maxTokens });
  const ref = str(route.provider) !== null ? { provider: str(route.provider)!, modelId: model } : null;
  return { api: "openai-completions", body, messages, dropped: [], model: modelInfoOf(ref, headerAt(session, null), null, options), notRecorded: [] };
}

/**
 * The summarisation request of a successful compaction. `instructions` fill the instruction slot
 * (a captured summarisation request of the harness); without them the slot is described.
 */
export function compactionRequest(session: Session, options: PipelineOptions, record: CompactionRecord, instructions?: InstructionSlotValues): BuiltRequest {
  const index = harnessIndex(session);
  const summary = dataOf(session.entries[record.summary!]!);
  const header = headerAt(session, record.header);
  const bySeq = entriesBySeq(session);
  const shadowedSeqs = Array.isArray(summary.shadowedSeqs) ? summary.shadowedSeqs.filter((seq): seq is number => typeof seq === "number") : [];
  const nodes = shadowedSeqs.flatMap((seq) => {
    const at = bySeq.get(seq);
    return at === undefined ? [] : [at];
  });
  const slot = fillSlot(deepseekInstructionSlot(instructionVersionOf(session)), instructions);
  const instruction: ContextMessage = {
    message: { role: "user", content: [{ type: "text", text: slot.text }] },
    provenance: {
      rule: "synth:compaction-instruction",
      entryId: null,
      ruleId: "DH-53",
      explanation: slot.captured
        ? "The harness's compaction instruction, from a captured summarisation request (it is a constant of the harness's code, never logged)."
        : "The harness's compaction instruction is a constant of its code, not in the log: described here; attach a captured summarisation request to see its text.",
    },
  };
  const ref = str(summary.provider) !== null && str(summary.model) !== null ? { provider: str(summary.provider)!, modelId: str(summary.model)! } : null;
  const built = buildHarnessRequest(
    {
      header,
      messages: [...surfaceMessages(session, index, nodes), instruction],
      model: modelInfoOf(ref, header, null, options),
      modelRef: ref,
      effortFromHeader: false,
      maxTokens: summary.maxTokens,
      sendSampling: false,
      notRecorded: slot.captured ? [] : ["compaction instruction"],
    },
    options,
  );
  if (shadowedSeqs.length !== nodes.length) {
    const missing = shadowedSeqs.filter((seq) => !bySeq.has(seq));
    built.notRecorded.push(`shadowed events not in the log (seq ${missing.join(", ")})`);
  }
  return built;
}

/**
 * Auxiliary request `position`. `learnt`, captured requests of the row's purpose, fill the
 * compaction instruction the log does not hold (from the first that holds it); the title request
 * is logged whole.
 */
export function buildAuxiliaryRequest(session: Session, options: PipelineOptions, position: number, learnt: readonly LearntCapture[] = []): { request: BuiltRequest; taughtBy?: string[] } {
  const item = auxiliaries(harnessIndex(session))[position];
  if (!item) throw new RangeError(`auxiliary request ${position} does not exist`);
  if (item.kind === "title") return { request: titleRequest(session, options, item.entry) };
  const instructions = learnt.length > 0 ? mergeSlotValues(...learnt.map((capture) => capturedInstruction(capture.body, capture.source))) : undefined;
  const taughtBy = [...new Set(Object.values(instructions?.sources ?? {}))];
  return { request: compactionRequest(session, options, item.record, instructions), ...(taughtBy.length > 0 ? { taughtBy } : {}) };
}

/** The compaction record whose checkpoint (or summary) is the entry `entryId`. */
export function compactionOfEntry(session: Session, entryId: string): CompactionRecord | null {
  const index = harnessIndex(session);
  return (
    index.compactions.find((record) =>
      [record.checkpoint, record.summary, record.start, record.end].some((position) => position !== null && session.entries[position]!.id === entryId),
    ) ?? null
  );
}

/** Seqs of the events a successful compaction shadowed, as `compaction/summary` lists them. */
export function shadowedSeqsOf(session: Session, record: CompactionRecord): number[] {
  if (record.summary === null) return [];
  const summary = dataOf(session.entries[record.summary]!);
  return Array.isArray(summary.shadowedSeqs) ? summary.shadowedSeqs.filter((seq): seq is number => typeof seq === "number") : record.nodesBefore.map((node) => seqOf(session.entries[node]!));
}
