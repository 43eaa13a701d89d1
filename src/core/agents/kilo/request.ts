// Kilo's main request (docs/formats/kilo.md): opencode's Chat Completions body through
// @ai-sdk/openai-compatible — `model`, `max_tokens`, `messages`, `tools`, `tool_choice`, `stream`,
// `stream_options` — built by opencode's body builder, with Kilo's own messages (./messages.ts).
// The system prompt ("You are Kilo, …" with its environment) and the 16 tool definitions are not
// stored: they come from an attached capture, else they are marked "not recorded".
import type { BuiltRequest, PipelineOptions, Session } from "../../model";
import { buildOpencodeTurnRequest } from "../opencode/index";
import { buildChatBody, headerSystem, headerTools, opencodeMaxTokens } from "../opencode/request";
import { kiloTurnChatMessages } from "./messages";

/** Main request `turn` as Kilo sent it; another wire than Chat Completions gets opencode's generic mapping. */
export function buildKiloTurnRequest(session: Session, options: PipelineOptions, turn: number): BuiltRequest {
  const opencode = buildOpencodeTurnRequest(session, options, turn);
  if (opencode.api !== "openai-completions") return opencode;
  const labels: string[] = [];
  const header = options.header ?? null;
  const maxTokens = opencodeMaxTokens(opencode.model, header);
  if (!maxTokens.recorded) labels.push("max_tokens");
  const body = buildChatBody({
    model: opencode.model,
    system: headerSystem(header, "system prompt (Kilo's agent prompt and environment)", labels),
    messages: [],
    tools: headerTools(header, labels),
    maxTokens: maxTokens.value,
  });
  // Kilo's messages after the system message (opencode's builder types its own message shape only).
  body.messages = [...(body.messages as unknown[]), ...kiloTurnChatMessages(session, turn)];
  return { ...opencode, body, notRecorded: labels };
}
