// OpenAI Responses and Google Gemini: generic mappings of pi-ai's behaviour (PI-R14).
import { describe, expect, it } from "vitest";
import { getSerializer } from "../../../src/core/providers";
import type { SerializeInput } from "../../../src/core/providers";
import type { ApiId } from "../../../src/core/model";
import { PNG, TOOLS, assistant, header, result, testModel, user } from "./helpers";

function runner(api: ApiId) {
  return (partial: Partial<SerializeInput>) =>
    getSerializer(api).serialize({ model: testModel(api), messages: [], header: header(api), thinkingLevel: "off", ...partial });
}

describe("openai-responses serializer (generic mapping)", () => {
  const API = "openai-responses" as const;
  const run = runner(API);

  it("is labelled generic", () => {
    expect(getSerializer(API).fidelity).toBe("generic");
    expect(getSerializer(API).label).toContain("generic mapping");
  });

  it("emits model, input, stream, store, max_output_tokens, tools", () => {
    const out = run({ messages: [user("hi")] });
    expect(Object.keys(out.body)).toEqual(["model", "input", "stream", "store", "max_output_tokens", "tools"]);
    expect(out.body.store).toBe(false);
    expect(out.body.max_output_tokens).toBe(1234);
    expect((out.body.tools as unknown[])[0]).toEqual({
      type: "function",
      name: "read",
      description: "Read a file",
      parameters: TOOLS[0]!.parameters,
      strict: false,
    });
    expect(run({ messages: [user("hi")], options: { sessionId: "s1" } }).body.prompt_cache_key).toBe("s1");
  });

  it("maps system, user, assistant text, tool calls and results", () => {
    const call = { type: "toolCall" as const, id: "call_1|fc_1", name: "bash", arguments: { command: "ls" } };
    const input = run({
      model: testModel(API, { supportsImages: true }),
      messages: [
        { role: "user", content: [{ type: "text", text: "look" }, PNG] },
        assistant(API, [{ type: "text", text: "checking" }, call]),
        result("call_1|fc_1", "files", true),
        assistant(API, [{ type: "toolCall", id: "plain", name: "read", arguments: {} }]),
      ],
    }).body.input as Record<string, unknown>[];
    expect(input[0]).toEqual({ role: "system", content: "You are a test." });
    expect(input[1]).toEqual({
      role: "user",
      content: [
        { type: "input_text", text: "look" },
        { type: "input_image", detail: "auto", image_url: "data:image/png;base64,iVBORw0KGgo=" },
      ],
    });
    expect(input[2]).toEqual({
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "checking", annotations: [] }],
      status: "completed",
      id: "msg_1",
    });
    expect(JSON.stringify(input[3])).toBe('{"type":"function_call","id":"fc_1","call_id":"call_1","name":"bash","arguments":"{\\"command\\":\\"ls\\"}"}');
    expect(input[4]).toEqual({ type: "function_call_output", call_id: "call_1", output: "files" });
    // A call id without an item part has no `id`.
    expect(input[5]).toEqual({ type: "function_call", call_id: "plain", name: "read", arguments: "{}" });
  });

  it("uses the developer role and reasoning settings for reasoning models", () => {
    const model = testModel(API, { reasoning: true, id: "gpt-5" });
    const on = run({ model, thinkingLevel: "high", messages: [user("q")] });
    expect((on.body.input as Record<string, unknown>[])[0]!.role).toBe("developer");
    expect(on.body.reasoning).toEqual({ effort: "high", summary: "auto" });
    expect(on.body.include).toEqual(["reasoning.encrypted_content"]);
    const off = run({ model, thinkingLevel: "off", messages: [user("q")] });
    expect((off.body.input as Record<string, unknown>[]).at(-1)).toEqual({
      role: "developer",
      content: [{ type: "input_text", text: "# Juice: 0 !important" }],
    });
  });

  it("marks system and tools as not recorded without a header, and omits tools on request", () => {
    const out = run({ header: null, messages: [user("q")] });
    expect(out.notRecorded).toEqual(["system", "tools"]);
    expect((out.body.input as Record<string, unknown>[])[0]!.content).toEqual({ $notRecorded: "system prompt" });
    expect("tools" in run({ omitTools: true }).body).toBe(false);
  });
});

describe("google-generative-ai serializer (generic mapping)", () => {
  const API = "google-generative-ai" as const;
  const run = runner(API);

  it("is labelled generic and emits contents, systemInstruction, tools, generationConfig", () => {
    expect(getSerializer(API).fidelity).toBe("generic");
    const out = run({ messages: [user("hi")] });
    expect(Object.keys(out.body)).toEqual(["contents", "systemInstruction", "tools", "generationConfig"]);
    expect(out.body.systemInstruction).toEqual({ parts: [{ text: "You are a test." }] });
    expect(out.body.tools).toEqual([
      {
        functionDeclarations: TOOLS.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters })),
      },
    ]);
    expect(out.body.generationConfig).toEqual({ maxOutputTokens: 1234 });
  });

  it("maps user/model roles, function calls and responses (output or error), grouping results", () => {
    const calls = [
      { type: "toolCall" as const, id: "a", name: "bash", arguments: { command: "ls" } },
      { type: "toolCall" as const, id: "b", name: "read", arguments: { path: "x" } },
    ];
    const contents = run({
      messages: [user("q"), assistant(API, [{ type: "text", text: "doing" }, ...calls]), result("a", "ok"), result("b", "bad", true, "read")],
    }).body.contents as Record<string, unknown>[];
    expect(contents).toEqual([
      { role: "user", parts: [{ text: "q" }] },
      { role: "model", parts: [{ text: "doing" }, { functionCall: { name: "bash", args: { command: "ls" } } }, { functionCall: { name: "read", args: { path: "x" } } }] },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "bash", response: { output: "ok" } } },
          { functionResponse: { name: "read", response: { error: "bad" } } },
        ],
      },
    ]);
  });

  it("keeps thinking as a thought part for the same model and as text for another", () => {
    const same = assistant(API, [{ type: "thinking", thinking: "mine" }, { type: "text", text: "a" }]);
    const other = assistant(API, [{ type: "thinking", thinking: "theirs" }], { model: "other" });
    const contents = run({ messages: [user("q"), same, user("r"), other] }).body.contents as { parts: unknown[] }[];
    expect(contents[1]!.parts).toEqual([{ thought: true, text: "mine" }, { text: "a" }]);
    expect(contents[3]!.parts).toEqual([{ text: "theirs" }]);
  });

  it("marks system and tools as not recorded without a header; no tools key when omitted", () => {
    const out = run({ header: null, messages: [user("q")] });
    expect(out.notRecorded).toEqual(["system", "tools"]);
    expect(out.body.systemInstruction).toEqual({ parts: [{ text: { $notRecorded: "system prompt" } }] });
    expect("tools" in run({ omitTools: true }).body).toBe(false);
  });

  it("adds a thinking budget for Gemini 2.5 reasoning models when thinking is on", () => {
    const model = testModel(API, { id: "gemini-2.5-pro", reasoning: true });
    expect(run({ model, thinkingLevel: "high" }).body.generationConfig).toEqual({
      maxOutputTokens: 1234,
      thinkingConfig: { includeThoughts: true, thinkingBudget: 32768 },
    });
    const flash3 = testModel(API, { id: "gemini-3-flash-preview", reasoning: true });
    expect((run({ model: flash3, thinkingLevel: "low" }).body.generationConfig as Record<string, unknown>).thinkingConfig).toEqual({
      includeThoughts: true,
      thinkingLevel: "LOW",
    });
  });
});
