// The calls an agent makes beside its turns — a compaction's summariser request, a title
// request — as inference spans of their thread. Each is rebuilt by the agent (its descriptor's
// `auxiliary.build`) for the request model and, opt-in, its contents; its usage and time are the
// ones the file records for it (opencode's summary message, Kimi Code's summariser record).
import type { AuxiliaryRequestEvent, BuiltRequest, PipelineOptions, RecordedUsage, Session } from "../../model";
import type { RedactionFinding } from "../../redact/types";
import { findAgent } from "../../session/agents";
import { requestContents } from "./content";
import { providerName, spanIdOf } from "./names";
import type { TraceAttributes, TraceSpan } from "./types";

export interface AuxiliarySpanInput {
  session: Session;
  pipeline: PipelineOptions;
  events: readonly AuxiliaryRequestEvent[];
  traceId: string;
  agentSpanId: string;
  conversationId: string;
  threadKey: string;
  contents: { redact: boolean; unmasked: string[] } | null;
  /** When the file gives a call no time: the start of the main call it came before (null: at the end). */
  timeBefore(turn: number | null): number;
}

/** The convention's usage attributes of a recorded usage (input counts cached and written tokens too). */
function recordedUsageAttributes(usage: RecordedUsage): TraceAttributes {
  return {
    "gen_ai.usage.input_tokens": usage.input + usage.cacheRead + usage.cacheWrite,
    "gen_ai.usage.output_tokens": usage.output,
    "gen_ai.usage.cache_read.input_tokens": usage.cacheRead,
    "gen_ai.usage.cache_write.input_tokens": usage.cacheWrite,
    "gen_ai.usage.cache_creation.input_tokens": usage.cacheWrite,
  };
}

/** The agent's rebuild of auxiliary call `index`, or null when it cannot be rebuilt (the span still says what the file holds). */
function rebuilt(session: Session, pipeline: PipelineOptions, index: number): BuiltRequest | null {
  try {
    return findAgent(session.formatId)?.auxiliary?.build(session, pipeline, index).request ?? null;
  } catch {
    return null;
  }
}

/** One `chat` span per auxiliary call of the thread, in the order the analysis lists them. */
export function auxiliarySpans(input: AuxiliarySpanInput, findings: RedactionFinding[]): TraceSpan[] {
  return input.events.map((event, index) => {
    const request = rebuilt(input.session, input.pipeline, index);
    // A rebuild that could not know the model (opencode's title request: the small_model setting) says so among what it lacks.
    const modelKnown = !(request?.notRecorded.some((label) => label.startsWith("model")) ?? false);
    const bodyModel = modelKnown && typeof request?.body.model === "string" ? request.body.model : null;
    // The convention asks for the request model only when it is known: a title request's small model may not be in the file.
    const model = bodyModel ?? event.model?.modelId ?? null;
    const attributes: TraceAttributes = {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": providerName(event.model ?? null, request?.api ?? "openai-completions"),
      "gen_ai.conversation.id": input.conversationId,
      "contextscope.call.purpose": event.purpose,
    };
    if (model !== null) attributes["gen_ai.request.model"] = model;
    if (event.model) attributes["gen_ai.response.model"] = event.model.modelId;
    if (event.beforeTurn !== null) attributes["contextscope.before_turn"] = event.beforeTurn;
    if (event.usage) Object.assign(attributes, recordedUsageAttributes(event.usage));
    if (input.contents && request) {
      const contents = requestContents(request, `${input.threadKey}.${event.purpose}${index + 1}`, input.contents);
      Object.assign(attributes, contents.attributes);
      findings.push(...contents.findings);
    }
    const at = event.timestamp ? Date.parse(event.timestamp) : Number.NaN;
    const time = Number.isFinite(at) ? at : input.timeBefore(event.beforeTurn);
    return {
      spanId: spanIdOf(input.traceId, `auxiliary ${input.threadKey} ${index}`),
      parentSpanId: input.agentSpanId,
      name: model !== null ? `chat ${model}` : "chat",
      kind: "client",
      startMs: time,
      endMs: time,
      attributes,
      events: [],
      error: null,
    };
  });
}
