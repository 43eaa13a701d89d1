// Segmentation of each wire shape (PR-3 … PR-7, PD-4, PD-5).
import { describe, expect, it } from "vitest";
import { notRecorded } from "../../../src/core/model";
import { diffRequests } from "../../../src/core/prefix/diff";
import { createSegmentCache } from "../../../src/core/prefix/segment-builder";
import { segmentRequest } from "../../../src/core/prefix/segment-request";
import type { TokenCounter } from "../../../src/core/tokens/counters";
import { EXCLUDED_METADATA_KEYS } from "../../../src/core/prefix/settings";

const est = { tokenizer: "estimate" as const };
const labels = (api: Parameters<typeof segmentRequest>[0], body: Record<string, unknown>) => segmentRequest(api, body, est).segments.toArray().map((s) => s.label);

describe("segment order per shape", () => {
  it("Anthropic: tools → system → messages whatever the body key order (PR-3)", () => {
    const body = {
      model: "m",
      messages: [{ role: "user", content: "hi" }, { role: "assistant", content: [{ type: "text", text: "a" }, { type: "tool_use", id: "t", name: "x", input: {} }] }],
      max_tokens: 10,
      stream: true,
      system: "sys",
      tools: [{ name: "a" }, { name: "b" }],
    };
    expect(labels("anthropic-messages", body)).toEqual([
      "tools[0]", "tools[1]", "system[0]", "messages[0]", "messages[0].content[0]", "messages[1]", "messages[1].content[0]", "messages[1].content[1]",
    ]);
  });

  it("Chat Completions: leading system run, tools, schema, then messages (PR-4)", () => {
    const body = {
      model: "gpt-4.1",
      messages: [
        { role: "system", content: "s" },
        { role: "user", content: [{ type: "text", text: "u" }] },
        { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c", content: "r" },
      ],
      tools: [{ type: "function", function: { name: "f" } }],
      response_format: { type: "json_schema", json_schema: { name: "x", schema: {} } },
    };
    expect(labels("openai-completions", body)).toEqual([
      "messages[0]", "messages[0].content[0]", "tools[0]", "response_format", "messages[1]", "messages[1].content[0]", "messages[2]", "messages[2].tool_calls[0]", "messages[3]", "messages[3].content[0]",
    ]);
    expect(labels("openai-completions", body).slice(0, 2)).toEqual(["messages[0]", "messages[0].content[0]"]);
    const first = segmentRequest("openai-completions", body, { ...est, openaiToolsPosition: "first" }).segments.toArray().map((s) => s.label);
    expect(first.slice(0, 2)).toEqual(["tools[0]", "response_format"]);
  });

  it("Responses: instructions or the leading developer run, tools, then input (PR-5)", () => {
    const body = {
      model: "gpt-5",
      input: [
        { type: "message", role: "developer", content: [{ type: "input_text", text: "base" }] },
        { type: "message", role: "user", content: "hi" },
        { type: "function_call", call_id: "c", name: "f", arguments: "{}" },
      ],
      tools: [{ type: "function", name: "f" }],
    };
    expect(labels("openai-responses", body)).toEqual(["input[0]", "input[0].content[0]", "tools[0]", "input[1]", "input[1].content[0]", "input[2]"]);
    expect(labels("openai-responses", { ...body, instructions: "sys" })[0]).toBe("instructions");
    expect(labels("openai-responses", { model: "m", input: "just text" })).toEqual(["input[0]"]);
  });

  it("Google: systemInstruction, tools, toolConfig, then contents parts (PR-6)", () => {
    const body = {
      contents: [{ role: "user", parts: [{ text: "a" }, { text: "b" }] }],
      systemInstruction: { parts: [{ text: "sys" }] },
      tools: [{ functionDeclarations: [] }],
      toolConfig: { functionCallingConfig: { mode: "AUTO" } },
      generationConfig: { maxOutputTokens: 10 },
    };
    expect(labels("google-generative-ai", body)).toEqual([
      "systemInstruction.parts[0]", "tools[0]", "toolConfig", "contents[0]", "contents[0].parts[0]", "contents[0].parts[1]",
    ]);
    const sdk = { model: "gemini-2.5-pro", contents: body.contents, config: { systemInstruction: "sys", tools: body.tools } };
    expect(labels("google-generative-ai", sdk).slice(0, 2)).toEqual(["systemInstruction.parts[0]", "tools[0]"]);
  });
});

describe("what is not prompt content", () => {
  const base = {
    model: "gpt-4.1",
    messages: [{ role: "system", content: "s" }, { role: "user", content: "u" }],
  };
  it.each(EXCLUDED_METADATA_KEYS.filter((k) => k !== "service_tier"))("request metadata %s is excluded from the prefix and from settings", (key) => {
    const a = segmentRequest("openai-completions", { ...base, [key]: "one" }, est);
    const b = segmentRequest("openai-completions", { ...base, [key]: { other: 2 } }, est);
    expect(diffRequests(a, b, est).breakPath).toBeNull();
    expect(a.bytes).toBe(segmentRequest("openai-completions", base, est).bytes);
    expect(a.settings).toEqual(b.settings);
  });
  it("service_tier is excluded from the prefix but compared as a setting (PR-7)", () => {
    const a = segmentRequest("openai-completions", { ...base, service_tier: "flex" }, est);
    const b = segmentRequest("openai-completions", { ...base, service_tier: "priority" }, est);
    expect(diffRequests(a, b, est).breakPath).toBeNull();
    expect(a.settings.service_tier).not.toBe(b.settings.service_tier);
  });
  it("PR-7 settings are read per shape", () => {
    expect(segmentRequest("anthropic-messages", { model: "m", messages: [], thinking: { type: "adaptive" }, tool_choice: { type: "auto" } }, est).settings).toEqual({
      thinking: '{"type":"adaptive"}',
      tool_choice: '{"type":"auto"}',
    });
    expect(segmentRequest("openai-responses", { model: "m", input: [], reasoning: { effort: "high", summary: "auto" } }, est).settings).toEqual({ "reasoning.effort": '"high"' });
    expect(segmentRequest("openai-completions", { model: "m", messages: [], reasoning_effort: "low" }, est).settings).toEqual({ reasoning_effort: '"low"' });
  });
});

describe("cache markers and equivalent forms (PD-5)", () => {
  const block = (text: string, marked: boolean) => ({ type: "text", text, ...(marked ? { cache_control: { type: "ephemeral" } } : {}) });
  it("a moved cache_control is not a break, and is kept as a breakpoint position", () => {
    const a = { model: "m", system: [block("sys", true)], messages: [{ role: "user", content: [block("one", true)] }] };
    const b = { model: "m", system: [block("sys", true)], messages: [{ role: "user", content: [block("one", false)] }, { role: "assistant", content: [block("two", false)] }, { role: "user", content: [block("three", true)] }] };
    const sa = segmentRequest("anthropic-messages", a, est);
    const sb = segmentRequest("anthropic-messages", b, est);
    expect(diffRequests(sa, sb, est).breakPath).toBeNull();
    expect(sa.segments.toArray().filter((s) => s.marker).map((s) => s.label)).toEqual(["system[0]", "messages[0].content[0]"]);
    expect(sb.segments.toArray().filter((s) => s.marker).map((s) => s.label)).toEqual(["system[0]", "messages[2].content[0]"]);
    expect(sb.segments.toArray().find((s) => s.marker)!.marker).toEqual({ kind: "cache_control", ttl: null });
  });
  it("a string content is the same prompt as one text block", () => {
    const a = segmentRequest("anthropic-messages", { model: "m", messages: [{ role: "user", content: [block("héllo", true)] }] }, est);
    const b = segmentRequest("anthropic-messages", { model: "m", messages: [{ role: "user", content: "héllo" }] }, est);
    expect(a.segments.toArray().map((s) => s.hash)).toEqual(b.segments.toArray().map((s) => s.hash));
    expect(a.bytes).toBe(b.bytes);
  });
  it("a 1h ttl is read from the marker", () => {
    const s = segmentRequest("anthropic-messages", { model: "m", messages: [{ role: "user", content: [{ type: "text", text: "x", cache_control: { type: "ephemeral", ttl: "1h" } }] }] }, est);
    expect(s.segments.toArray().find((seg) => seg.marker)!.marker!.ttl).toBe("1h");
  });
  it("ignoreBillingHeader leaves Claude Code's billing block out (FM-CC-19)", () => {
    const body = { model: "m", system: [{ type: "text", text: "x-anthropic-billing-header: cc_version=1.abc;" }, { type: "text", text: "sys" }], messages: [] };
    expect(segmentRequest("anthropic-messages", body, { ...est, ignoreBillingHeader: true }).segments.toArray().map((s) => s.label)).toEqual(["system[1]"]);
  });
});

describe("not recorded segments (PD-4)", () => {
  it("compare equal to themselves, count no tokens and are listed", () => {
    const body = { model: "m", system: notRecorded("system"), tools: notRecorded("tools"), messages: [{ role: "user", content: "hi" }] };
    const a = segmentRequest("anthropic-messages", body, est);
    const b = segmentRequest("anthropic-messages", structuredClone(body), est);
    expect(a.notRecorded).toEqual(["tools", "system"]);
    expect(a.segments.toArray().find((s) => s.label === "system")!.tokens).toBe(0);
    expect(diffRequests(a, b, est).breakPath).toBeNull();
  });
});

describe("incremental work", () => {
  it("hashes a message object once across turns (per-content cache)", () => {
    const shared = { role: "user", content: [{ type: "text", text: "x".repeat(1000) }] };
    let reads = 0;
    const spy = new Proxy(shared.content[0]!, {
      get(target, key, receiver) {
        if (key === "text") reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const message = { role: "user", content: [spy] };
    const options = { ...est, cache: createSegmentCache() };
    segmentRequest("anthropic-messages", { model: "m", messages: [message] }, options);
    const afterFirst = reads;
    segmentRequest("anthropic-messages", { model: "m", messages: [message, { role: "assistant", content: "ok" }] }, options);
    expect(afterFirst).toBeGreaterThan(0);
    expect(reads).toBe(afterFirst);
  });

  it("a pass with another counter counts again but reuses the hashes, and each counter keeps its own tokens", () => {
    const cache = createSegmentCache();
    const counted: Record<string, number> = { a: 0, b: 0 };
    const counter = (id: string, perChar: number): TokenCounter => ({
      id,
      exact: false,
      label: id,
      count(text) {
        counted[id]!++;
        return text.length * perChar;
      },
    });
    let reads = 0;
    const part = new Proxy({ type: "text", text: "y".repeat(500) }, {
      get(target, key, receiver) {
        if (key === "text") reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const body = { model: "m", messages: [{ role: "user", content: [part] }] };
    const first = segmentRequest("anthropic-messages", body, { counter: counter("a", 1), cache });
    const readsFirst = reads;
    const second = segmentRequest("anthropic-messages", body, { counter: counter("b", 2), cache });
    // The second pass reads the text to count it, not to render, fingerprint and hash it again.
    expect(reads - readsFirst).toBeLessThan(readsFirst);
    expect(second.segments.toArray().map((segment) => [segment.hash, segment.bytes])).toEqual(first.segments.toArray().map((segment) => [segment.hash, segment.bytes]));
    expect(second.tokens).toBeGreaterThan(first.tokens);
    const countedBoth = { ...counted };
    expect(countedBoth.a).toBeGreaterThan(0);
    expect(countedBoth.b).toBe(countedBoth.a);
    // Back to the first counter, with equal content in fresh objects: its tokens are remembered.
    const fresh = { model: "m", messages: [{ role: "user", content: [{ type: "text", text: "y".repeat(500) }] }] };
    const again = segmentRequest("anthropic-messages", fresh, { counter: counter("a", 1), cache });
    expect(again.tokens).toBe(first.tokens);
    expect(counted).toEqual(countedBoth);
  });
});
