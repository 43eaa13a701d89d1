import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { removeSections, sentBaseInstructions } from "../../../../src/core/agents/codex/base-instructions";
import type { PipelineOptions } from "../../../../src/core/model";
import { analyzeSession, buildTurnContext, buildTurnRequest } from "../../../../src/core/session/pipeline";
import { readSessionText } from "../../../../src/core/session/index";
import { fixtureCase } from "../../../support/fixtures";

const OPTIONS: PipelineOptions = { profile: "pi" };
let ordinal = 0;
const rec = (type: string, payload: Record<string, unknown>) => JSON.stringify({ timestamp: "2026-01-01T00:00:00.000Z", ordinal: ordinal++, type, payload });
const message = (role: string, text: string, extra: Record<string, unknown> = {}) => ({
  type: "message",
  role,
  content: [{ type: role === "assistant" ? "output_text" : "input_text", text }],
  ...extra,
});
const usage = (input: number, cached: number, output: number) => ({
  input_tokens: input,
  cached_input_tokens: cached,
  cache_write_input_tokens: 0,
  output_tokens: output,
  reasoning_output_tokens: 0,
  total_tokens: input + output,
});

const BASE = "Intro\n\n## Planning\n\nUse update_plan.\n\n### Examples\n\nexample\n\n## Task execution\n\nDo it.\n\n## `update_plan`\n\nTool text.\n";

function rollout(): string {
  ordinal = 0;
  return [
    rec("session_meta", { id: "thread-1", cli_version: "0.171.0", thread_source: "user", base_instructions: { text: BASE }, context_window: { window_id: "cw-0" } }),
    rec("event_msg", { type: "task_started", turn_id: "turn-1", turn_attribution: { turn_trigger: "exec" } }),
    rec("turn_context", { turn_id: "turn-1", root_turn_id: "turn-1", model: "gpt-test" }),
    rec("response_item", message("user", "hi", { internal_chat_message_metadata_passthrough: { x: 1 } })),
    rec("response_item", { type: "reasoning", summary: [], encrypted_content: "enc" }),
    rec("response_item", { type: "function_call", name: "exec_command", arguments: '{"cmd":"ls"}', call_id: "c1" }),
    rec("token_usage_record", { response_id: "r1", usage: usage(100, 40, 5) }),
    rec("response_item", { type: "function_call_output", call_id: "c1", output: "a b" }),
    rec("response_item", message("assistant", "done")),
    rec("token_usage_record", { response_id: "r2", usage: usage(120, 100, 7) }),
    // Compaction: its response closes first, then the compacted line replaces the history.
    rec("event_msg", { type: "task_started", turn_id: "turn-2" }),
    rec("response_item", message("assistant", "summary text")),
    rec("token_usage_record", { response_id: "r-compact", usage: usage(130, 0, 9) }),
    rec("compacted", {
      message: "Another language model started to solve this problem… summary",
      replacement_history: [message("user", "hi", { internal_x: true }), message("user", "Another language model started to solve this problem… summary")],
      compaction_response_id: "r-compact",
      window_id: "cw-1",
    }),
    rec("turn_context", { turn_id: "turn-2", root_turn_id: "turn-2", model: "gpt-test" }),
    rec("response_item", message("user", "next")),
    rec("response_item", message("assistant", "ok")),
    rec("token_usage_record", { response_id: "r3", usage: usage(50, 0, 2) }),
  ].join("\n");
}

describe("Codex turns (FM-CX-8, FM-CX-9)", () => {
  const session = readSessionText(rollout(), "rollout.jsonl");

  it("finds one turn per non-compaction response, with usage normalised (input includes cached)", () => {
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.turns).toHaveLength(3);
    expect(analysis.turns[0]!.usage).toEqual({ input: 60, output: 5, cacheRead: 40, cacheWrite: 0, totalTokens: 105 });
    expect(analysis.turns.map((turn) => turn.model?.modelId)).toEqual(["gpt-test", "gpt-test", "gpt-test"]);
    expect(analysis.timeline.map((item) => item.kind)).toEqual(["turn", "turn", "compaction", "turn"]);
    expect(analysis.turns[2]!.afterCompaction).toBe(true);
  });

  it("sends the history just before the response's first output item, internal_* keys removed", () => {
    const first = buildTurnRequest(session, OPTIONS, 1).body.input as Record<string, unknown>[];
    expect(first.slice(1)).toEqual([message("user", "hi")]);
    const second = buildTurnRequest(session, OPTIONS, 2).body.input as Record<string, unknown>[];
    expect(second.slice(1).map((item) => item.type)).toEqual(["message", "reasoning", "function_call", "function_call_output"]);
  });

  it("replaces the history by replacement_history after a compaction and advances the window id", () => {
    const built = buildTurnRequest(session, OPTIONS, 3);
    const input = built.body.input as Record<string, unknown>[];
    expect(input.slice(1)).toEqual([message("user", "hi"), message("user", "Another language model started to solve this problem… summary"), message("user", "next")]);
    const metadata = built.body.client_metadata as Record<string, string>;
    expect(metadata["x-codex-window-id"]).toBe("thread-1:1");
    expect(JSON.parse(metadata["x-codex-turn-metadata"]!)).toMatchObject({ window_number: 1, context_window_id: "cw-1", turn_id: "turn-2", history_initialization: "cold_resume" });
    const context = buildTurnContext(session, OPTIONS, 3);
    expect(context.messages[2]!.provenance.rule).toBe("summary:compaction");
  });

  it("derives input[0] from session_meta without the plan-tool sections, configurable (FM-CX-10)", () => {
    const input = buildTurnRequest(session, OPTIONS, 1).body.input as { content: { text: string }[]; id: string }[];
    expect(input[0]!.content[0]!.text).toBe("Intro\n\n## Task execution\n\nDo it.\n\n");
    expect(input[0]!.id).toMatch(/^\[not recorded/);
    const kept = buildTurnRequest(session, { ...OPTIONS, agentOptions: { stripPlanToolSections: false } }, 1).body.input as { content: { text: string }[] }[];
    expect(kept[0]!.content[0]!.text).toBe(BASE);
  });

  it("uses the header's tools and system prompt when one is attached", () => {
    const built = buildTurnRequest(session, { ...OPTIONS, header: { api: "openai-responses", systemPrompt: "SYS", tools: [{ name: "t", description: "d", parameters: {} }], extraSettings: {}, source: "capture" } }, 1);
    expect((built.body.input as { content: { text: string }[] }[])[0]!.content[0]!.text).toBe("SYS");
    expect(built.body.tools).toEqual([{ type: "function", name: "t", description: "d", strict: false, parameters: {} }]);
    expect(built.notRecorded).not.toContain("tools");
  });
});

describe("Codex rollouts without token_usage_record (older versions)", () => {
  it("closes a response at the first token_count after its output [INF]", () => {
    ordinal = 0;
    const text = [
      rec("session_meta", { id: "t" }),
      rec("turn_context", { model: "m" }),
      rec("response_item", message("user", "q")),
      rec("event_msg", { type: "token_count", info: null }),
      rec("response_item", message("assistant", "a")),
      rec("event_msg", { type: "token_count", info: { last_token_usage: usage(10, 0, 1) } }),
    ].join("\n");
    const analysis = analyzeSession(readSessionText(text, "r.jsonl"), OPTIONS);
    expect(analysis.turns).toHaveLength(1);
    expect(analysis.turns[0]!.usage?.output).toBe(1);
  });
});

describe("removeSections", () => {
  it("removes a section with its subsections up to the next heading of the same level", () => {
    expect(removeSections("# A\nx\n## B\ny\n### C\nz\n## D\nw\n", ["B"])).toBe("# A\nx\n## D\nw\n");
    expect(removeSections("no headings", ["B"])).toBe("no headings");
  });

  it("turns the fixture's stored base instructions into the text sent, byte for byte", () => {
    const fixture = fixtureCase("codex/exec-autocompact");
    const file = fixture.sessionPath;
    const meta = JSON.parse(fs.readFileSync(file, "utf8").split("\n")[0]!);
    const sent = JSON.parse(fixture.requestText(1)).input[0].content[0].text;
    expect(meta.payload.base_instructions.text).not.toBe(sent);
    expect(sentBaseInstructions(meta.payload.base_instructions.text)).toBe(sent);
  });
});
