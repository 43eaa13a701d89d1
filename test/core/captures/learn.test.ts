// What a capture teaches, per agent (pinned on each committed case's first main request), that the
// model facts fill the catalogue under the user's edits, and the facts the agents derive instead.
import { describe, expect, it } from "vitest";
import { learnCapture } from "../../../src/core/session/captures";
import { captureModelOverrides } from "../../../src/core/captures/modelFacts";
import { resolveModel } from "../../../src/core/models/catalogue";
import { buildTurnRequest } from "../../../src/core/session/pipeline";
import { readSessionText } from "../../../src/core/session/index";
import type { PipelineOptions } from "../../../src/core/model";
import { fixtureCase } from "../../support/fixtures";

function learntKeys(id: string) {
  const fixture = fixtureCase(id);
  const first = fixture.requests("main")[0]!;
  const header = learnCapture(first.body, first.file);
  return { model: header.model, facts: header.facts!.map((item) => `${item.kind}:${item.key}`), header };
}

describe("fields learnt from a capture, per agent", () => {
  it("pi (Chat Completions): system prompt, tools, output limit and its field", () => {
    expect(learntKeys("pi/print-openai-autocompact").facts).toEqual(["session:system", "session:tools", "model:model.maxTokens", "model:model.maxTokensField"]);
  });
  it("pi (Anthropic Messages): system prompt, tools, output limit", () => {
    expect(learntKeys("pi/rpc-anthropic-manualcompact").facts).toEqual(["session:system", "session:tools", "model:model.maxTokens"]);
  });
  it("senpi: as pi", () => {
    expect(learntKeys("senpi/print-openai-autocompact").facts).toEqual(["session:system", "session:tools", "model:model.maxTokens", "model:model.maxTokensField"]);
  });
  it("Claude Code: the device and account ids besides the header, and that the model reasons", () => {
    const { model, facts, header } = learntKeys("claude/print-autocompact-manualcompact");
    expect(model).toBe("claude-opus-5-5");
    expect(facts).toEqual(["session:system", "session:tools", "session:setting.metadata", "session:setting.context_management", "model:model.reasoning", "model:model.maxTokens", "session:claude.user_ids"]);
    expect(header.facts!.find((item) => item.key === "claude.user_ids")!.value).toEqual({ deviceId: "b2f7b16ee074ef5331343132eba4ae16be859af717ae04d6dd4450eca1ec3385", accountUuid: "" });
  });
  it("Codex: input[0] with its id, the tools as sent, the client-metadata constants", () => {
    const { facts, header } = learntKeys("codex/exec-autocompact");
    expect(facts).toEqual([
      "session:system",
      "session:tools",
      "session:setting.tool_choice",
      "session:setting.parallel_tool_calls",
      "session:setting.client_metadata",
      "session:codex.base_instructions_item",
      "session:codex.tools",
      "session:codex.turn_metadata",
    ]);
    const metadata = header.facts!.find((item) => item.key === "codex.turn_metadata")!.value as { constants: Record<string, unknown> };
    expect(Object.keys(metadata.constants)).toEqual(["installation_id", "agent_name", "sandbox", "sandbox_mode", "auto_review_enabled", "node_repl_auto_review_required", "node_repl_disabled", "analytics_enabled"]);
  });
  it("opencode: system prompt, tools, tool_choice, output limit and its field", () => {
    expect(learntKeys("opencode/run-autocompact").facts).toEqual(["session:system", "session:tools", "session:setting.tool_choice", "model:model.maxTokens", "model:model.maxTokensField"]);
  });
  it("every fact names its capture as its source", () => {
    const { header } = learntKeys("codex/exec-autocompact");
    expect(new Set(header.facts!.map((item) => item.source))).toEqual(new Set(["001.json"]));
  });
});

describe("model facts in the catalogue", () => {
  const chat = (model: string, extra: Record<string, unknown>) => learnCapture({ model, messages: [{ role: "developer", content: "sys" }, { role: "user", content: "hi" }], ...extra }, `${model}.json`);

  it("a capture fills the catalogue for the model it was sent to, with its source", () => {
    const options: PipelineOptions = { profile: "pi", header: chat("m-reasoning", { reasoning_effort: "high", max_completion_tokens: 7777 }) };
    const model = resolveModel({ provider: "acme", modelId: "m-reasoning" }, "openai-completions", captureModelOverrides(options));
    expect(model).toMatchObject({ reasoning: true, supportsDeveloperRole: true, supportsReasoningEffort: true, maxTokens: 7777, source: "capture m-reasoning.json" });
  });

  it("facts are learnt per model: each capture teaches only its own model", () => {
    const options: PipelineOptions = { profile: "pi", header: chat("m-one", { max_completion_tokens: 1111 }), captures: [chat("m-two", { max_completion_tokens: 2222 })] };
    const overrides = captureModelOverrides(options);
    expect(resolveModel({ provider: "acme", modelId: "m-one" }, "openai-completions", overrides).maxTokens).toBe(1111);
    expect(resolveModel({ provider: "acme", modelId: "m-two" }, "openai-completions", overrides).maxTokens).toBe(2222);
  });

  it("never overwrites a value the user edited", () => {
    const options: PipelineOptions = { profile: "pi", header: chat("m-edit", { reasoning_effort: "low", max_completion_tokens: 7777 }) };
    const overrides = { ...captureModelOverrides(options), "acme/m-edit": { maxTokens: 1234 } };
    const model = resolveModel({ provider: "acme", modelId: "m-edit" }, "openai-completions", overrides);
    expect(model.maxTokens).toBe(1234);
    // Fields the user did not edit still come from the capture.
    expect(model.reasoning).toBe(true);
    expect(model.source).toBe("user");
  });
});

describe("fields derived from the session file", () => {
  it("pi on OpenAI Responses: prompt_cache_key is the session id of the file's first line", () => {
    const lines = [
      { type: "session", version: 3, id: "0199-session-id", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" },
      { type: "message", id: "u1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: [{ type: "text", text: "hello" }], timestamp: 1 } },
      {
        type: "message",
        id: "a1",
        parentId: "u1",
        timestamp: "2026-01-01T00:00:02.000Z",
        message: { role: "assistant", content: [{ type: "text", text: "hi" }], api: "openai-responses", provider: "openai", model: "gpt-4.1", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 }, stopReason: "stop", timestamp: 2 },
      },
    ];
    const session = readSessionText(lines.map((line) => JSON.stringify(line)).join("\n"), "s.jsonl");
    const body = buildTurnRequest(session, { profile: "pi" }, 1).body;
    expect(body.prompt_cache_key).toBe("0199-session-id");
  });
});
