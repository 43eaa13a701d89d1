import { describe, expect, it } from "vitest";
import { getSerializer } from "../../../src/core/providers";
import type { SerializeInput } from "../../../src/core/providers";
import { PNG, assistant, header, result, testModel, user } from "./helpers";

const API = "anthropic-messages" as const;
const serializer = getSerializer(API);
const EPHEMERAL = { type: "ephemeral" };

function run(partial: Partial<SerializeInput>) {
  return serializer.serialize({ model: testModel(API), messages: [], header: header(API), thinkingLevel: "off", ...partial });
}
function wire(partial: Partial<SerializeInput>) {
  return run(partial).body.messages as { role: string; content: Record<string, unknown>[] }[];
}
/** Every cache_control in the messages, as "messageIndex/blockIndex". */
function breakpoints(messages: { content: Record<string, unknown>[] | string }[]): string[] {
  const found: string[] = [];
  messages.forEach((message, m) => {
    if (Array.isArray(message.content)) message.content.forEach((block, b) => "cache_control" in block && found.push(`${m}/${b}`));
  });
  return found;
}

const call = (id: string) => ({ type: "toolCall" as const, id, name: "bash", arguments: { command: id } });

describe("anthropic-messages serializer", () => {
  it("is labelled exact and emits pi's top-level keys in order (PI-R8)", () => {
    expect(serializer.fidelity).toBe("exact");
    const out = run({ messages: [user("hi")] });
    expect(Object.keys(out.body)).toEqual(["model", "messages", "max_tokens", "stream", "system", "tools"]);
    expect(out.body.system).toEqual([{ type: "text", text: "You are a test.", cache_control: EPHEMERAL }]);
  });

  it("builds tools with eager_input_streaming, a rebuilt input_schema and a breakpoint on the last tool", () => {
    const tools = run({ messages: [user("hi")] }).body.tools as Record<string, unknown>[];
    expect(JSON.stringify(tools[0])).toBe(
      '{"name":"read","description":"Read a file","eager_input_streaming":true,"input_schema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}',
    );
    // additionalProperties is not carried over (pi rebuilds the schema from properties/required).
    expect(tools[1]).toEqual({
      name: "bash",
      description: "Run a command",
      eager_input_streaming: true,
      input_schema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
      cache_control: EPHEMERAL,
    });
  });

  it("groups a run of tool results into one user message, with is_error", () => {
    const messages = wire({
      messages: [user("q"), assistant(API, [call("a"), call("b")]), result("a", "out a"), result("b", "boom", true), user("next")],
    });
    expect(messages).toHaveLength(4);
    expect(messages[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "a", content: "out a", is_error: false },
        { type: "tool_result", tool_use_id: "b", content: "boom", is_error: true },
      ],
    });
    expect(messages[1]!.content).toEqual([
      { type: "tool_use", id: "a", name: "bash", input: { command: "a" } },
      { type: "tool_use", id: "b", name: "bash", input: { command: "b" } },
    ]);
  });

  it("puts the single message-level breakpoint on the last block of the last user message", () => {
    const messages = wire({ messages: [user("first"), assistant(API, [{ type: "text", text: "ok" }]), user("summary"), user("prompt")] });
    expect(breakpoints(messages)).toEqual(["3/0"]);
    expect(messages[3]!.content[0]).toEqual({ type: "text", text: "prompt", cache_control: EPHEMERAL });
    // Consecutive user messages stay separate.
    expect(messages[2]!.content).toEqual([{ type: "text", text: "summary" }]);
  });

  it("puts the breakpoint on the last tool_result when the last user-role message is a result run", () => {
    const messages = wire({ messages: [user("q"), assistant(API, [call("a"), call("b")]), result("a", "1"), result("b", "2")] });
    expect(breakpoints(messages)).toEqual(["2/1"]);
  });

  it("turns a final string user content into a text block carrying the breakpoint", () => {
    const messages = wire({ messages: [{ role: "user", content: "plain" }] });
    expect(messages[0]).toEqual({ role: "user", content: [{ type: "text", text: "plain", cache_control: EPHEMERAL }] });
  });

  it("sends no cache markers with cacheRetention none, and a 1h ttl with long", () => {
    const none = run({ messages: [user("q")], options: { cacheRetention: "none" } });
    expect(JSON.stringify(none.body)).not.toContain("cache_control");
    const long = run({ messages: [user("q")], options: { cacheRetention: "long" } });
    expect(JSON.stringify(long.body).match(/"ttl":"1h"/g)).toHaveLength(3);
  });

  it("maps thinking: signed → thinking block, unsigned → text, redacted → redacted_thinking [INF]", () => {
    const messages = wire({
      messages: [
        user("q"),
        assistant(API, [
          { type: "thinking", thinking: "signed", thinkingSignature: "sig==" },
          { type: "thinking", thinking: "unsigned" },
          { type: "thinking", thinking: "", thinkingSignature: "opaque", redacted: true },
          { type: "text", text: "answer" },
        ]),
        user("next"),
      ],
    });
    expect(messages[1]!.content).toEqual([
      { type: "thinking", thinking: "signed", signature: "sig==" },
      { type: "text", text: "unsigned" },
      { type: "redacted_thinking", data: "opaque" },
      { type: "text", text: "answer" },
    ]);
  });

  it("turns thinking of another model into text", () => {
    const other = assistant(API, [{ type: "thinking", thinking: "theirs", thinkingSignature: "sig" }], { model: "other-model" });
    const out = run({ messages: [user("q"), other, user("next")] });
    expect((out.body.messages as { content: unknown[] }[])[1]!.content).toEqual([{ type: "text", text: "theirs" }]);
    expect(out.adjustments.map((a) => a.kind)).toEqual(["thinking-as-text"]);
  });

  it("sends images as base64 blocks (for image models), also inside tool results", () => {
    const model = testModel(API, { supportsImages: true });
    const withImage = { role: "user" as const, content: [{ type: "text" as const, text: "see" }, PNG] };
    const imageResult = { role: "toolResult" as const, toolCallId: "a", toolName: "read", content: [PNG], isError: false };
    const messages = wire({ model, messages: [withImage, assistant(API, [call("a")]), imageResult] });
    const image = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } };
    expect(messages[0]!.content).toEqual([{ type: "text", text: "see" }, image]);
    expect(messages[2]!.content[0]).toEqual({
      type: "tool_result",
      tool_use_id: "a",
      content: [{ type: "text", text: "(see attached image)" }, image],
      is_error: false,
      cache_control: EPHEMERAL,
    });
  });

  it("marks system and tools as not recorded without a header", () => {
    const out = run({ header: null, messages: [user("q")] });
    expect(out.notRecorded).toEqual(["system", "tools"]);
    expect(out.body.system).toEqual([{ type: "text", text: { $notRecorded: "system prompt" }, cache_control: EPHEMERAL }]);
    expect(out.body.tools).toEqual({ $notRecorded: "tool definitions" });
    expect(out.body.max_tokens).toBe(8000);
  });

  it("omits tools entirely for summariser requests (PI-K20)", () => {
    const out = run({ header: header(API, { tools: undefined, maxTokens: 3200 }), omitTools: true, messages: [user("summarise")] });
    expect(Object.keys(out.body)).toEqual(["model", "messages", "max_tokens", "stream", "system"]);
    expect(out.body.max_tokens).toBe(3200);
  });

  it("adds thinking config for reasoning models: budget-based, or adaptive for Opus/Sonnet 4.6 [INF]", () => {
    const model = testModel(API, { reasoning: true, maxTokens: 64000 });
    const budget = run({ model, header: header(API, { maxTokens: undefined }), thinkingLevel: "medium", messages: [user("q")] });
    expect(budget.body.thinking).toEqual({ type: "enabled", budget_tokens: 8192 });
    expect(budget.body.max_tokens).toBe(32000 + 8192);
    const adaptive = run({ model: { ...model, id: "claude-opus-4-6" }, thinkingLevel: "xhigh", messages: [user("q")] });
    expect(adaptive.body.thinking).toEqual({ type: "adaptive" });
    expect(adaptive.body.output_config).toEqual({ effort: "max" });
    expect("thinking" in run({ model, thinkingLevel: "off" }).body).toBe(false);
  });
});
