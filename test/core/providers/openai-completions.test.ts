import { describe, expect, it } from "vitest";
import { getSerializer } from "../../../src/core/providers";
import type { SerializeInput } from "../../../src/core/providers";
import { PNG, TOOLS, assistant, header, result, testModel, user } from "./helpers";

const API = "openai-completions" as const;
const serializer = getSerializer(API);

function run(partial: Partial<SerializeInput>) {
  return serializer.serialize({ model: testModel(API), messages: [], header: header(API), thinkingLevel: "off", ...partial });
}
function wire(partial: Partial<SerializeInput>) {
  return run(partial).body.messages as Record<string, unknown>[];
}

describe("openai-completions serializer", () => {
  it("is labelled exact", () => {
    expect(serializer.fidelity).toBe("exact");
  });

  it("emits pi's top-level keys in order (PI-R4) and the tools shape (PI-R7)", () => {
    const out = run({ messages: [user("hi")] });
    expect(Object.keys(out.body)).toEqual(["model", "messages", "stream", "stream_options", "store", "max_completion_tokens", "tools"]);
    expect(out.body.max_completion_tokens).toBe(1234);
    expect(out.body.tools).toEqual([
      { type: "function", function: { name: "read", description: "Read a file", parameters: TOOLS[0]!.parameters, strict: false } },
      { type: "function", function: { name: "bash", description: "Run a command", parameters: TOOLS[1]!.parameters, strict: false } },
    ]);
  });

  it("sends the system prompt as system, or developer for a reasoning model with the compat flag", () => {
    expect(wire({ messages: [user("hi")] })[0]).toEqual({ role: "system", content: "You are a test." });
    const model = testModel(API, { reasoning: true, supportsDeveloperRole: true });
    expect(wire({ model, messages: [user("hi")] })[0]).toEqual({ role: "developer", content: "You are a test." });
    const noReasoning = testModel(API, { supportsDeveloperRole: true });
    expect(wire({ model: noReasoning, messages: [user("hi")] })[0]!.role).toBe("system");
  });

  it("keeps user parts as an array, images as image_url parts only for image models", () => {
    const message = { role: "user" as const, content: [{ type: "text" as const, text: "look" }, PNG] };
    expect(wire({ messages: [message], model: testModel(API, { supportsImages: true }) })[1]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "look" },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
      ],
    });
    expect(wire({ messages: [message] })[1]).toEqual({ role: "user", content: [{ type: "text", text: "look" }] });
    // A message left with no parts is skipped.
    expect(wire({ messages: [{ role: "user", content: [PNG] }] })).toHaveLength(1);
  });

  it("keeps a string user content a string", () => {
    expect(wire({ messages: [{ role: "user", content: "plain" }] })[1]).toEqual({ role: "user", content: "plain" });
  });

  it("does not merge consecutive user messages (PI-R6)", () => {
    const messages = wire({ messages: [user("summary"), user("prompt")] });
    expect(messages.slice(1)).toEqual([
      { role: "user", content: [{ type: "text", text: "summary" }] },
      { role: "user", content: [{ type: "text", text: "prompt" }] },
    ]);
  });

  it("maps assistant text only, tools only, text and tools (PI-R5)", () => {
    const call = { type: "toolCall" as const, id: "c1", name: "bash", arguments: { command: "ls" } };
    const messages = wire({
      messages: [
        user("a"),
        assistant(API, [{ type: "text", text: "one " }, { type: "text", text: "  " }, { type: "text", text: "two" }]),
        user("b"),
        assistant(API, [call]),
        result("c1", "out"),
        assistant(API, [{ type: "text", text: "then" }, call]),
        result("c1", "out2"),
      ],
    });
    expect(JSON.stringify(messages[2])).toBe('{"role":"assistant","content":"one two"}');
    expect(JSON.stringify(messages[4])).toBe(
      '{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{\\"command\\":\\"ls\\"}"}}]}',
    );
    expect(Object.keys(messages[6]!)).toEqual(["role", "content", "tool_calls"]);
    expect(messages[6]!.content).toBe("then");
  });

  it("sends signed thinking under the signature's field and drops unsigned thinking [INF]", () => {
    const signed = assistant(API, [
      { type: "thinking", thinking: "step 1", thinkingSignature: "reasoning_content" },
      { type: "thinking", thinking: "step 2" },
      { type: "text", text: "answer" },
    ]);
    expect(wire({ messages: [user("q"), signed] })[2]).toEqual({ role: "assistant", content: "answer", reasoning_content: "step 1\nstep 2" });
    const unsigned = assistant(API, [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "answer" }]);
    expect(wire({ messages: [user("q"), unsigned] })[2]).toEqual({ role: "assistant", content: "answer" });
    // Thinking only, unsigned: nothing left to send, the message is skipped.
    expect(wire({ messages: [user("q"), assistant(API, [{ type: "thinking", thinking: "hmm" }])] })).toHaveLength(2);
  });

  it("sends one tool message per result, text joined with newlines, images in a following user message", () => {
    const call1 = { type: "toolCall" as const, id: "c1", name: "read", arguments: {} };
    const call2 = { type: "toolCall" as const, id: "c2", name: "read", arguments: {} };
    const withImage = { role: "toolResult" as const, toolCallId: "c2", toolName: "read", content: [PNG], isError: false };
    const multi = {
      role: "toolResult" as const,
      toolCallId: "c1",
      toolName: "read",
      content: [{ type: "text" as const, text: "a" }, { type: "text" as const, text: "b" }],
      isError: true,
    };
    const messages = wire({
      model: testModel(API, { supportsImages: true }),
      messages: [user("q"), assistant(API, [call1, call2]), multi, withImage],
    });
    expect(messages.slice(3)).toEqual([
      { role: "tool", content: "a\nb", tool_call_id: "c1" },
      { role: "tool", content: "(see attached image)", tool_call_id: "c2" },
      {
        role: "user",
        content: [
          { type: "text", text: "Attached image(s) from tool result:" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
        ],
      },
    ]);
  });

  it("fills system and tools with not-recorded markers without a header", () => {
    const out = run({ header: null, messages: [user("hi")] });
    expect(out.notRecorded).toEqual(["system", "tools"]);
    expect((out.body.messages as unknown[])[0]).toEqual({ role: "system", content: { $notRecorded: "system prompt" } });
    expect(out.body.tools).toEqual({ $notRecorded: "tool definitions" });
    // Without a header the cap is min(model.maxTokens, 32000).
    expect(out.body.max_completion_tokens).toBe(8000);
    expect(run({ header: null, model: testModel(API, { maxTokens: 64000 }) }).body.max_completion_tokens).toBe(32000);
  });

  it("drops the tools key with omitTools, except for pi's empty list when the history used tools (PI-K20)", () => {
    const summary = run({ header: header(API, { tools: undefined }), omitTools: true, messages: [user("summarise")] });
    expect("tools" in summary.body).toBe(false);
    expect(summary.notRecorded).toEqual([]);
    const call = { type: "toolCall" as const, id: "c1", name: "bash", arguments: {} };
    const withHistory = run({ omitTools: true, messages: [user("q"), assistant(API, [call]), result("c1", "x")] });
    expect(withHistory.body.tools).toEqual([]);
  });

  it("places extra settings after the derived keys, in capture order; derived keys win", () => {
    const out = run({
      header: header(API, { extraSettings: { temperature: 0.2, model: "other", metadata: { a: 1 } } }),
      messages: [user("hi")],
    });
    expect(Object.keys(out.body).slice(-2)).toEqual(["temperature", "metadata"]);
    expect(out.body.model).toBe("test-model");
  });

  it("sends reasoning_effort only for reasoning models that support it, with thinking on [INF]", () => {
    const model = testModel(API, { reasoning: true, supportsReasoningEffort: true });
    expect(run({ model, thinkingLevel: "medium" }).body.reasoning_effort).toBe("medium");
    expect(run({ model, thinkingLevel: "xhigh" }).body.reasoning_effort).toBe("high");
    expect(run({ model: { ...model, id: "gpt-5.2" }, thinkingLevel: "xhigh" }).body.reasoning_effort).toBe("xhigh");
    expect("reasoning_effort" in run({ model, thinkingLevel: "off" }).body).toBe(false);
    expect("reasoning_effort" in run({ model: testModel(API, { reasoning: true }), thinkingLevel: "high" }).body).toBe(false);
    expect("reasoning_effort" in run({ model, thinkingLevel: "high", options: { reasoningEffort: false } }).body).toBe(false);
  });

  it("applies pi-ai's message transform: skips aborted turns, answers orphaned tool calls", () => {
    const call = { type: "toolCall" as const, id: "c9", name: "bash", arguments: {} };
    const out = run({
      messages: [user("q"), assistant(API, [{ type: "text", text: "partial" }], { stopReason: "aborted" }), assistant(API, [call]), user("next")],
    });
    const messages = out.body.messages as Record<string, unknown>[];
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "user"]);
    expect(messages[3]).toEqual({ role: "tool", content: "No result provided", tool_call_id: "c9" });
    expect(out.adjustments.map((a) => a.kind)).toEqual(["skipped-message", "synthesized-tool-result"]);
    const untouched = run({
      messages: [user("q"), assistant(API, [call]), user("next")],
      options: { transformMessages: false },
    });
    expect((untouched.body.messages as unknown[]).length).toBe(4);
  });

  it("normalises Responses-style tool call ids from another model", () => {
    const call = { type: "toolCall" as const, id: "call_abc|fc_+/=long", name: "bash", arguments: {} };
    const other = assistant("openai-responses", [call], { provider: "openai", model: "gpt-5" });
    const messages = wire({ messages: [user("q"), other, result("call_abc|fc_+/=long", "x")] });
    expect((messages[2]!.tool_calls as { id: string }[])[0]!.id).toBe("call_abc");
    expect(messages[3]).toEqual({ role: "tool", content: "x", tool_call_id: "call_abc" });
  });
});
