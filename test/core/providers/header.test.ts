// Request-header extraction and shape detection, for each wire shape, plus cross-shape use.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectRequestShape, extractRequestHeader, getSerializer, listSerializers } from "../../../src/core/providers";
import { fixturePath } from "../../support/fixtures";
import { testModel, user } from "./helpers";

function fixtureBody(rel: string): Record<string, unknown> {
  return JSON.parse(readFileSync(fixturePath(rel), "utf8")) as Record<string, unknown>;
}

const SCHEMA = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };

describe("serializer list", () => {
  it("has one serializer per pi API, looked up by id", () => {
    expect(listSerializers().map((s) => s.id).sort()).toEqual(["anthropic-messages", "google-generative-ai", "openai-completions", "openai-responses"]);
    expect(getSerializer("openai-responses").id).toBe("openai-responses");
    expect(() => getSerializer("nope" as never)).toThrow(/No serializer/);
  });
});

describe("detectRequestShape", () => {
  it("names each shape", () => {
    expect(detectRequestShape({ model: "m", messages: [{ role: "system", content: "s" }], max_completion_tokens: 5 })).toBe("openai-completions");
    expect(detectRequestShape({ model: "m", messages: [{ role: "user", content: "hi" }] })).toBe("openai-completions");
    expect(detectRequestShape({ model: "m", messages: [], system: "s", max_tokens: 5 })).toBe("anthropic-messages");
    expect(detectRequestShape({ model: "m", messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "x", content: "" }] }] })).toBe(
      "anthropic-messages",
    );
    expect(detectRequestShape({ model: "m", input: [] })).toBe("openai-responses");
    expect(detectRequestShape({ model: "m", input: "hi" })).toBe("openai-responses");
    expect(detectRequestShape({ contents: [] })).toBe("google-generative-ai");
    expect(detectRequestShape({ hello: 1 })).toBeNull();
    expect(detectRequestShape([1, 2])).toBeNull();
    expect(detectRequestShape("text")).toBeNull();
  });
});

describe("extractRequestHeader", () => {
  it("rejects non-objects and unknown shapes with a clear message", () => {
    expect(() => extractRequestHeader(null, "x")).toThrow("must be a JSON object");
    expect(() => extractRequestHeader([1], "x")).toThrow("got an array");
    expect(() => extractRequestHeader("body", "x")).toThrow("got a string");
    expect(() => extractRequestHeader({ foo: 1 }, "x")).toThrow(/Not a recognised request body/);
  });

  it("reads a Chat Completions capture (fixture pi/print-openai-autocompact 001)", () => {
    const body = fixtureBody("pi/print-openai-autocompact/requests/001.json");
    const header = extractRequestHeader(body, "001.json");
    expect(header.api).toBe("openai-completions");
    expect(header.source).toBe("001.json");
    expect(header.systemPrompt).toMatch(/^You are an expert coding assistant operating inside pi/);
    expect(header.systemPrompt).toMatch(/Current date: 2026-11-29\nCurrent working directory: /);
    expect(header.tools?.map((t) => t.name)).toEqual(["read", "bash", "edit", "write"]);
    expect(header.maxTokens).toBe(4000);
    expect(header.extraSettings).toEqual({});
  });

  it("reads an Anthropic capture (fixture pi/rpc-anthropic-manualcompact 001)", () => {
    const header = extractRequestHeader(fixtureBody("pi/rpc-anthropic-manualcompact/requests/001.json"), "a");
    expect(header.api).toBe("anthropic-messages");
    expect(header.tools?.map((t) => t.name)).toEqual(["read", "bash", "edit", "write"]);
    expect(header.tools?.[0]?.parameters).toEqual({
      type: "object",
      properties: expect.objectContaining({ path: expect.anything() }),
      required: ["path"],
    });
    expect(header.maxTokens).toBe(4000);
    expect(header.systemPrompt).toMatch(/Current working directory: \/home\/dev\/pi-rpc-anthropic-manualcompact\/lighthouse-notes$/);
  });

  it("reads a summary capture: summariser prompt, no tools", () => {
    const header = extractRequestHeader(fixtureBody("pi/print-openai-autocompact/requests/009.json"), "s");
    expect(header.systemPrompt).toMatch(/^You are a context summarization assistant/);
    expect(header.tools).toBeUndefined();
    expect(header.maxTokens).toBe(9280);
  });

  it("learns an explicit `thinking: disabled` (sent on every turn) and fills it only where no thinking was derived", () => {
    const capture = { model: "claude-sonnet-4-5", max_tokens: 32000, system: "s", messages: [{ role: "user", content: "q" }], thinking: { type: "disabled" } };
    const header = extractRequestHeader(capture, "001.json");
    expect(header.extraSettings.thinking).toEqual({ type: "disabled" });
    const serializer = getSerializer("anthropic-messages");
    const off = serializer.serialize({ model: testModel("anthropic-messages"), messages: [user("q")], header, thinkingLevel: "off" });
    expect(off.body.thinking).toEqual({ type: "disabled" });
    // A derived thinking configuration is never overwritten by the capture's.
    const enabled = extractRequestHeader({ ...capture, thinking: { type: "enabled", budget_tokens: 1024 } }, "002.json");
    expect(enabled.extraSettings.thinking).toBeUndefined();
  });

  it("keeps settings it does not derive, in capture order", () => {
    const header = extractRequestHeader(
      {
        model: "m",
        temperature: 0.1,
        messages: [
          { role: "developer", content: [{ type: "text", text: "a" }] },
          { role: "system", content: "b" },
          { role: "user", content: "hi" },
          { role: "system", content: "late" },
        ],
        tool_choice: "auto",
        max_tokens: 77,
        reasoning_effort: "high",
      },
      "x",
    );
    expect(header.systemPrompt).toBe("a\n\nb");
    expect(header.maxTokens).toBe(77);
    expect(Object.keys(header.extraSettings)).toEqual(["temperature", "tool_choice"]);
  });

  it("reads Anthropic system blocks, skips server tools, keeps metadata", () => {
    const header = extractRequestHeader(
      {
        model: "m",
        messages: [],
        system: [{ type: "text", text: "one" }, { type: "text", text: "two", cache_control: { type: "ephemeral" } }],
        tools: [{ name: "q", description: "d", input_schema: SCHEMA }, { type: "web_search_20250305", name: "web_search" }],
        metadata: { user_id: "u" },
        thinking: { type: "enabled", budget_tokens: 5 },
        max_tokens: 9,
      },
      "x",
    );
    expect(header.systemPrompt).toBe("one\n\ntwo");
    expect(header.tools).toEqual([{ name: "q", description: "d", parameters: SCHEMA }]);
    expect(header.extraSettings).toEqual({ metadata: { user_id: "u" } });
  });

  it("reads a Responses capture: instructions or leading developer items", () => {
    const header = extractRequestHeader(
      {
        model: "m",
        instructions: "base",
        input: [{ type: "message", role: "developer", content: [{ type: "input_text", text: "dev" }] }, { role: "user", content: "hi" }],
        tools: [{ type: "function", name: "q", description: "d", parameters: SCHEMA, strict: false }, { type: "web_search" }],
        max_output_tokens: 100,
        prompt_cache_key: "k",
        parallel_tool_calls: true,
      },
      "x",
    );
    expect(header.api).toBe("openai-responses");
    expect(header.systemPrompt).toBe("base\n\ndev");
    expect(header.tools).toEqual([{ name: "q", description: "d", parameters: SCHEMA }]);
    expect(header.maxTokens).toBe(100);
    expect(header.extraSettings).toEqual({ parallel_tool_calls: true });
  });

  it("reads a Gemini capture, keeping generation settings it does not derive", () => {
    const header = extractRequestHeader(
      {
        contents: [],
        systemInstruction: { parts: [{ text: "sys" }] },
        tools: [{ functionDeclarations: [{ name: "q", description: "d", parameters: SCHEMA }] }],
        generationConfig: { temperature: 0.5, maxOutputTokens: 50, thinkingConfig: { thinkingBudget: 1 } },
        safetySettings: [],
      },
      "x",
    );
    expect(header.api).toBe("google-generative-ai");
    expect(header.systemPrompt).toBe("sys");
    expect(header.tools).toEqual([{ name: "q", description: "d", parameters: SCHEMA }]);
    expect(header.maxTokens).toBe(50);
    expect(header.extraSettings).toEqual({ generationConfig: { temperature: 0.5 }, safetySettings: [] });
    const body = getSerializer("google-generative-ai").serialize({
      model: testModel("google-generative-ai"),
      messages: [user("q")],
      header,
      thinkingLevel: "off",
    }).body;
    expect(body.generationConfig).toEqual({ temperature: 0.5, maxOutputTokens: 50 });
    expect(Object.keys(body)).toEqual(["contents", "systemInstruction", "tools", "generationConfig", "safetySettings"]);
  });

  it("lets a header of one shape serve a request of another", () => {
    const header = extractRequestHeader(fixtureBody("pi/rpc-anthropic-manualcompact/requests/001.json"), "a");
    const out = getSerializer("openai-completions").serialize({
      model: testModel("openai-completions"),
      messages: [user("q")],
      header,
      thinkingLevel: "off",
    });
    expect(out.notRecorded).toEqual([]);
    const tools = out.body.tools as { function: { name: string } }[];
    expect(tools.map((t) => t.function.name)).toEqual(["read", "bash", "edit", "write"]);
    expect((out.body.messages as { content: unknown }[])[0]!.content).toBe(header.systemPrompt);
    // Provider-specific settings stay with their shape.
    const withMetadata = { ...header, extraSettings: { metadata: { user_id: "u" } } };
    const other = getSerializer("openai-completions").serialize({
      model: testModel("openai-completions"),
      messages: [user("q")],
      header: withMetadata,
      thinkingLevel: "off",
    });
    expect("metadata" in other.body).toBe(false);
    const same = getSerializer("anthropic-messages").serialize({
      model: testModel("anthropic-messages"),
      messages: [user("q")],
      header: withMetadata,
      thinkingLevel: "off",
    });
    expect(Object.keys(same.body).at(-1)).toBe("metadata");
  });

  it("sends no system part when the captured header had none", () => {
    const header = extractRequestHeader({ model: "m", messages: [{ role: "user", content: "hi" }] }, "x");
    expect(header.systemPrompt).toBe("");
    const out = getSerializer("openai-completions").serialize({
      model: testModel("openai-completions"),
      messages: [user("q")],
      header,
      thinkingLevel: "off",
    });
    expect((out.body.messages as { role: string }[]).map((m) => m.role)).toEqual(["user"]);
    expect(out.notRecorded).toEqual(["tools"]);
  });
});
