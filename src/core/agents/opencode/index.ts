// Public entry of the opencode folder: the main request body (FM-OC-9, FM-OC-10),
// the auxiliary requests (title FM-OC-15, summariser CP-OC-17) and the readers' entry points
// (export JSON, database rows, WAL overlay). The agent itself is described in agent.ts.
import { notRecorded, type BuiltRequest, type LearntCapture, type PipelineOptions, type Session } from "../../model";
import { resolveModel } from "../../models/catalogue";
import { getSerializer } from "../../providers";
import { convertRecord, type ChatMessage } from "./convert";
import { compactionPartOf, type OpencodeMessageRecord } from "./records";
import { buildChatBody, headerSystem, headerTools, opencodeMaxTokens } from "./request";
import { summariserInput, type SummariserInput } from "./summariser";
import { buildOpencodeSummariserBody, extractOpencodeInstructions } from "./policy/request";
import { mergeSlotValues } from "../../simulate/instruction-slots";
import {
  analyzeOpencodeSession,
  buildOpencodeTurnContext,
  opencodeIndex,
  turnChatMessages,
} from "./turns";

export * from "./records";
export * from "./session";
export * from "./database";
export { modelScope } from "./scope";
export { convertRecord } from "./convert";
export { summariserInput } from "./summariser";

/** FM-OC-15: the fixed user text of the title request, before the first prompt. */
export const TITLE_REQUEST_PREFIX = "Generate a title for this conversation:\n";

function modelFor(session: Session, options: PipelineOptions, answer: OpencodeMessageRecord | null) {
  const ref =
    answer && typeof answer.info.providerID === "string" && typeof answer.info.modelID === "string"
      ? { provider: answer.info.providerID, modelId: answer.info.modelID }
      : null;
  return resolveModel(ref, "openai-completions", options.modelOverrides);
}

/** Main request `turn` as opencode sent it (Chat Completions), or a generic mapping for other shapes. */
export function buildOpencodeTurnRequest(session: Session, options: PipelineOptions, turn: number): BuiltRequest {
  const context = buildOpencodeTurnContext(session, options, turn);
  const index = opencodeIndex(session);
  const answer = index.records[index.answers[turn - 1] as number] as OpencodeMessageRecord;
  const model = modelFor(session, options, answer);
  if (options.api && options.api !== "openai-completions") {
    // opencode with another provider package: not pinned by a fixture, pi-ai's mapping is shown.
    const serialized = getSerializer(options.api).serialize({
      model: { ...model, api: options.api },
      messages: context.messages.map((item) => item.message),
      header: options.header ?? null,
      thinkingLevel: "off",
    });
    return { api: options.api, body: serialized.body, messages: context.messages, dropped: [], model, notRecorded: serialized.notRecorded };
  }
  const labels: string[] = [];
  const header = options.header ?? null;
  const maxTokens = opencodeMaxTokens(model, header);
  if (!maxTokens.recorded) labels.push("max_tokens");
  const body = buildChatBody({
    model,
    system: headerSystem(header, "system prompt (agent prompt, environment, skills)", labels),
    messages: turnChatMessages(session, turn),
    tools: headerTools(header, labels),
    maxTokens: maxTokens.value,
  });
  return { api: "openai-completions", body, messages: context.messages, dropped: [], model, notRecorded: labels };
}

/** The system prompt of a captured Chat Completions request (its first message, a string), or null. */
function learntSystem(learnt: LearntCapture | undefined): string | null {
  const first = (learnt?.body as { messages?: { role?: unknown; content?: unknown }[] } | undefined)?.messages?.[0];
  return first?.role === "system" && typeof first.content === "string" ? first.content : null;
}

export interface AuxiliaryRequest {
  request: BuiltRequest;
  /** The captures whose fixed texts the rebuild took (see `buildOpencodeAuxiliaryRequest`). */
  taughtBy?: string[];
  /** Summariser requests: the rebuilt `<conversation>` text and prior summary (CP-OC-16, CP-OC-20). */
  summariser?: SummariserInput;
}

/**
 * Auxiliary request `auxIndex` of `SessionAnalysis.auxiliary` (same order): the title request
 * (FM-OC-15) or a summariser request (CP-OC-17). The fixed prompts of opencode are not stored
 * in the session and are shown as "not recorded".
 */
export function buildOpencodeAuxiliaryRequest(session: Session, options: PipelineOptions, auxIndex: number, learnt: readonly LearntCapture[] = []): AuxiliaryRequest {
  const analysis = analyzeOpencodeSession(session, options);
  const event = analysis.auxiliary?.[auxIndex];
  if (!event) throw new RangeError(`auxiliary request ${auxIndex} does not exist`);
  const { records } = opencodeIndex(session);
  const position = records.findIndex((record) => record.info.id === event.entryId);
  const record = records[position] as OpencodeMessageRecord;
  const model = modelFor(session, options, event.purpose === "summary" ? record : null);
  const labels: string[] = [];
  const maxTokens = opencodeMaxTokens(model, options.header ?? null);
  if (!maxTokens.recorded) labels.push("max_tokens");
  if (event.purpose === "title") {
    const first = convertRecord(record).chat;
    const messages: ChatMessage[] = [{ role: "user", content: TITLE_REQUEST_PREFIX }, ...first];
    // The title-generator prompt is a constant of opencode: a captured title request teaches it.
    // So is the model it goes to (the `small_model` setting), which the session does not record.
    const teacher = learnt[0];
    const system = learntSystem(teacher);
    if (system === null) labels.push("system");
    const learntModel = (teacher?.body as { model?: unknown } | undefined)?.model;
    const titleModel = typeof learntModel === "string" ? { ...model, id: learntModel } : model;
    if (typeof learntModel !== "string") labels.push("model (the small_model setting)");
    const body = buildChatBody({ model: titleModel, system: system ?? notRecorded("title-generator prompt"), messages, tools: null, maxTokens: maxTokens.value });
    const request: BuiltRequest = { api: "openai-completions", body, messages: convertRecord(record).context, dropped: [], model: titleModel, notRecorded: labels };
    return { request, ...(teacher ? { taughtBy: [teacher.source] } : {}) };
  }
  const compactionIndex = records.findIndex((candidate) => candidate.info.id === record.info.parentID && compactionPartOf(candidate) !== null);
  const input = summariserInput(records, compactionIndex);
  // The summariser's fixed texts, each from the first captured summariser request holding it.
  const instructions = learnt.length > 0 ? mergeSlotValues(...learnt.map((capture) => extractOpencodeInstructions(capture.body, capture.source))) : null;
  if (instructions && Object.keys(instructions.slots).length > 0) {
    const built = buildOpencodeSummariserBody({ model: model.id, maxTokens: maxTokens.value, conversation: input.conversation, priorSummary: input.priorSummary, instructions });
    const missing = built.slots.filter((use) => use.filledFrom === "description").map((use) => use.slot);
    const request: BuiltRequest = { api: "openai-completions", body: built.body, messages: [], dropped: [], model, notRecorded: [...labels, ...missing] };
    return { request, summariser: input, taughtBy: [...new Set(Object.values(instructions.sources ?? {}))] };
  }
  labels.push("system", "summariser instructions");
  const body = buildChatBody({
    model,
    system: notRecorded("summariser system prompt"),
    messages: [],
    tools: null,
    maxTokens: maxTokens.value,
  });
  (body.messages as unknown[]).push({
    role: "user",
    content: notRecorded("summariser user message: the <conversation> block below wrapped in opencode's template"),
  });
  return { request: { api: "openai-completions", body, messages: [], dropped: [], model, notRecorded: labels }, summariser: input };
}

