// Crush's summariser request (`Summarize` in internal/agent/agent.go; docs/formats/crush.md): a
// fantasy agent with Crush's summary prompt (templates/summary.md) as its system prompt and no
// tools, sent the same messages as a main request — the todo reminder and every stored row since
// the previous summary — then the user prompt asking for the summary. No output cap is set. The
// summary prompt is not stored: it comes from a captured summariser request, else it is marked.
import type { AuxiliaryRequestEvent, BuiltRequest, ContextMessage, LearntCapture, PipelineOptions, Session } from "../../model";
import { notRecorded } from "../../model";
import { resolveModel } from "../../models/catalogue";
import { crushSummaryPositions, modelOf, summariserMessages } from "./pipeline";
import { crushRowOf } from "./session";

/** The user prompt of the summariser (`buildSummaryPrompt`) when the session has no todo list. */
export const CRUSH_SUMMARY_PROMPT = "Provide a detailed summary of our conversation above.";

/** The system prompt of a captured summariser request (its first message, a system one). */
function learntSystem(learnt: LearntCapture | undefined): string | null {
  const first = (learnt?.body as { messages?: { role?: unknown; content?: unknown }[] } | undefined)?.messages?.[0];
  return first?.role === "system" && typeof first.content === "string" ? first.content : null;
}

export function buildCrushAuxiliaryRequest(
  session: Session,
  options: PipelineOptions,
  index: number,
  learnt: readonly LearntCapture[] = [],
): { request: BuiltRequest; taughtBy?: string[] } {
  const position = crushSummaryPositions(session)[index];
  if (position === undefined) throw new RangeError(`auxiliary request ${index} does not exist`);
  const row = crushRowOf(session.entries[position]!.raw);
  const labels: string[] = [];
  const teacher = learnt.find((capture) => learntSystem(capture) !== null);
  const system = learntSystem(teacher) ?? notRecorded("Crush's summary prompt (templates/summary.md)");
  if (typeof system !== "string") labels.push("system");
  const sent = summariserMessages(session, position);
  const prompt: ContextMessage = {
    message: { role: "user", content: [{ type: "text", text: CRUSH_SUMMARY_PROMPT }] },
    provenance: { rule: "synth:compaction-summary", entryId: null, explanation: "Crush's request for the summary; with a todo list, the list follows it (not stored with the summary)." },
  };
  const body: Record<string, unknown> = {
    messages: [{ content: system, role: "system" }, ...sent.map((message) => message.wire), { content: CRUSH_SUMMARY_PROMPT, role: "user" }],
    model: row.model ?? notRecorded("model"),
    stream_options: { include_usage: true },
    stream: true,
  };
  const messages: ContextMessage[] = [
    { message: { role: "user", content: [{ type: "text", text: typeof system === "string" ? system : "" }] }, provenance: { rule: "header:system", entryId: null, sentAsSystem: true } },
    ...sent.map((message) => message.context),
    prompt,
  ];
  const request: BuiltRequest = { api: "openai-completions", body, messages, dropped: [], model: resolveModel(modelOf(row), "openai-completions", options.modelOverrides), notRecorded: labels };
  return { request, ...(teacher ? { taughtBy: [teacher.source] } : {}) };
}

/** The text Crush adds to the summariser request without storing it. */
export function crushSynthesizedTexts(event: AuxiliaryRequestEvent): { text: string; label: string }[] {
  return event.purpose === "summary" ? [{ text: CRUSH_SUMMARY_PROMPT, label: "Synthesised by Crush: its request for a detailed summary, sent after the conversation; not stored in crush.db." }] : [];
}
