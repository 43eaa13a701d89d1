// How the scripted provider writes one answer in each provider's wire shape: Anthropic Messages,
// OpenAI Chat Completions, OpenAI Responses and the Gemini API, streamed as server-sent events
// (text in short chunks, tool calls whole) or as one JSON document when the request did not ask
// for a stream. The shapes follow each provider's public API reference; only the fields the
// agents read are written.

export type Wire = "anthropic-messages" | "openai-chat" | "openai-responses" | "gemini";

export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export interface Answer {
  model: string;
  /** The closing text; empty when the answer is tool calls only. */
  text: string;
  calls: ToolCall[];
  inputTokens: number;
  outputTokens: number;
  /** A unique id for the response (message, completion, response). */
  id: string;
}

/** The body of an HTTP answer and its content type. */
export interface EncodedAnswer {
  contentType: string;
  body: string;
}

const CHUNK = 40;

function chunks(text: string): string[] {
  const parts: string[] = [];
  for (let at = 0; at < text.length; at += CHUNK) parts.push(text.slice(at, at + CHUNK));
  return parts;
}

function sse(events: Array<{ event?: string; data: unknown }>, separator = "\n\n"): EncodedAnswer {
  const body = events.map(({ event, data }) => `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}${separator}`).join("");
  return { contentType: "text/event-stream", body };
}

function json(value: unknown): EncodedAnswer {
  return { contentType: "application/json", body: JSON.stringify(value) };
}

function anthropic(answer: Answer, stream: boolean): EncodedAnswer {
  type Block = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };
  const blocks: Block[] = [
    ...(answer.text ? [{ type: "text" as const, text: answer.text }] : []),
    ...answer.calls.map((call) => ({ type: "tool_use" as const, id: call.id, name: call.name, input: call.args })),
  ];
  const stopReason = answer.calls.length > 0 ? "tool_use" : "end_turn";
  const usage = { input_tokens: answer.inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: answer.outputTokens };
  if (!stream) return json({ id: answer.id, type: "message", role: "assistant", model: answer.model, content: blocks, stop_reason: stopReason, stop_sequence: null, usage });
  const events: Array<{ event: string; data: unknown }> = [
    { event: "message_start", data: { type: "message_start", message: { id: answer.id, type: "message", role: "assistant", model: answer.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } } },
  ];
  blocks.forEach((block, index) => {
    if (block.type === "text") {
      events.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "text", text: "" } } });
      for (const part of chunks(answer.text)) events.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta: { type: "text_delta", text: part } } });
    } else {
      events.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { ...block, input: {} } } });
      events.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } } });
    }
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  events.push({ event: "message_delta", data: { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: answer.outputTokens } } });
  events.push({ event: "message_stop", data: { type: "message_stop" } });
  return sse(events);
}

function openaiChat(answer: Answer, stream: boolean): EncodedAnswer {
  const created = Math.floor(Date.now() / 1000);
  const finish = answer.calls.length > 0 ? "tool_calls" : "stop";
  const usage = { prompt_tokens: answer.inputTokens, completion_tokens: answer.outputTokens, total_tokens: answer.inputTokens + answer.outputTokens };
  const toolCalls = answer.calls.map((call, index) => ({ index, id: call.id, type: "function", function: { name: call.name, arguments: JSON.stringify(call.args) } }));
  if (!stream) {
    const message = { role: "assistant", content: answer.text || null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls.map(({ index: _index, ...call }) => call) } : {}) };
    return json({ id: answer.id, object: "chat.completion", created, model: answer.model, choices: [{ index: 0, message, finish_reason: finish }], usage });
  }
  const chunk = (delta: unknown, finishReason: string | null) => ({ id: answer.id, object: "chat.completion.chunk", created, model: answer.model, choices: [{ index: 0, delta, finish_reason: finishReason }] });
  const events: Array<{ data: unknown }> = [{ data: chunk({ role: "assistant", content: "" }, null) }];
  for (const part of chunks(answer.text)) events.push({ data: chunk({ content: part }, null) });
  for (const call of toolCalls) events.push({ data: chunk({ tool_calls: [call] }, null) });
  events.push({ data: chunk({}, finish) });
  events.push({ data: { id: answer.id, object: "chat.completion.chunk", created, model: answer.model, choices: [], usage } });
  events.push({ data: "[DONE]" });
  return sse(events);
}

function openaiResponses(answer: Answer, stream: boolean): EncodedAnswer {
  const created = Math.floor(Date.now() / 1000);
  const items: Array<Record<string, unknown>> = [
    ...(answer.text ? [{ type: "message", id: `msg_${answer.id}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: answer.text, annotations: [] }] }] : []),
    ...answer.calls.map((call) => ({ type: "function_call", id: `fc_${call.id}`, call_id: call.id, name: call.name, arguments: JSON.stringify(call.args), status: "completed" })),
  ];
  const usage = { input_tokens: answer.inputTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: answer.outputTokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: answer.inputTokens + answer.outputTokens };
  const response = (status: string, output: unknown[]) => ({ id: answer.id, object: "response", created_at: created, model: answer.model, status, output, ...(status === "completed" ? { usage } : {}) });
  if (!stream) return json(response("completed", items));
  let sequence = 0;
  const events: Array<{ event: string; data: Record<string, unknown> }> = [];
  const push = (type: string, data: Record<string, unknown>) => events.push({ event: type, data: { type, sequence_number: sequence++, ...data } });
  push("response.created", { response: response("in_progress", []) });
  push("response.in_progress", { response: response("in_progress", []) });
  items.forEach((item, outputIndex) => {
    if (item.type === "message") {
      push("response.output_item.added", { output_index: outputIndex, item: { ...item, status: "in_progress", content: [] } });
      push("response.content_part.added", { item_id: item.id, output_index: outputIndex, content_index: 0, part: { type: "output_text", text: "", annotations: [] } });
      for (const part of chunks(answer.text)) push("response.output_text.delta", { item_id: item.id, output_index: outputIndex, content_index: 0, delta: part });
      push("response.output_text.done", { item_id: item.id, output_index: outputIndex, content_index: 0, text: answer.text });
      push("response.content_part.done", { item_id: item.id, output_index: outputIndex, content_index: 0, part: { type: "output_text", text: answer.text, annotations: [] } });
    } else {
      push("response.output_item.added", { output_index: outputIndex, item: { ...item, arguments: "", status: "in_progress" } });
      push("response.function_call_arguments.delta", { item_id: item.id, output_index: outputIndex, delta: item.arguments });
      push("response.function_call_arguments.done", { item_id: item.id, output_index: outputIndex, arguments: item.arguments });
    }
    push("response.output_item.done", { output_index: outputIndex, item });
  });
  push("response.completed", { response: response("completed", items) });
  return sse(events);
}

function gemini(answer: Answer, stream: boolean): EncodedAnswer {
  const usageMetadata = { promptTokenCount: answer.inputTokens, candidatesTokenCount: answer.outputTokens, totalTokenCount: answer.inputTokens + answer.outputTokens };
  const calls = answer.calls.map((call) => ({ functionCall: { name: call.name, args: call.args } }));
  const document = (parts: unknown[], last: boolean) => ({
    candidates: [{ content: { role: "model", parts }, ...(last ? { finishReason: "STOP" } : {}), index: 0 }],
    ...(last ? { usageMetadata } : {}),
    modelVersion: answer.model,
    responseId: answer.id,
  });
  if (!stream) return json(document([...(answer.text ? [{ text: answer.text }] : []), ...calls], true));
  const texts = chunks(answer.text);
  const events: Array<{ data: unknown }> = texts.map((text, index) => ({ data: document([{ text }], index === texts.length - 1 && calls.length === 0) }));
  if (calls.length > 0 || texts.length === 0) events.push({ data: document(calls, true) });
  return sse(events, "\r\n\r\n");
}

/** The answer in `wire`'s shape, streamed when the request asked for it. */
export function encodeAnswer(wire: Wire, answer: Answer, stream: boolean): EncodedAnswer {
  switch (wire) {
    case "anthropic-messages":
      return anthropic(answer, stream);
    case "openai-chat":
      return openaiChat(answer, stream);
    case "openai-responses":
      return openaiResponses(answer, stream);
    case "gemini":
      return gemini(answer, stream);
  }
}
