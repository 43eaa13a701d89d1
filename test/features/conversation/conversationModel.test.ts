// The Conversation tab's view-model: a turn's context messages as readable blocks — text, thinking,
// tool calls, tool results named by their call's tool — with the pipeline's insertions marked,
// Anthropic tool results split out of user messages, and very long texts cut with their count.
import { describe, expect, it } from "vitest";
import { conversationView } from "../../../src/features/conversation/conversationModel";
import type { BuiltRequest, ContextMessage } from "../../../src/core/model";
import { buildTurnRequest } from "../../../src/core/session/pipeline";
import { fixtureCase } from "../../support/fixtures";

const entry = (id: string) => ({ rule: "entry", entryId: id });

const MESSAGES: ContextMessage[] = [
  { message: { role: "user", content: "fix the parser" }, provenance: entry("u1") },
  {
    message: {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "look at parser.ts first" },
        { type: "text", text: "Reading it." },
        { type: "toolCall", id: "call_1", name: "read", arguments: { path: "parser.ts" } },
      ],
      stopReason: "toolUse",
    },
    provenance: entry("a1"),
  },
  { message: { role: "toolResult", toolCallId: "call_1", toolName: "", content: [{ type: "text", text: "x".repeat(25_000) }], isError: false }, provenance: entry("t1") },
  { message: { role: "user", content: "<summary>earlier work</summary>" }, provenance: { rule: "wrap:compaction-summary", entryId: "c1", explanation: "the compaction's summary" } },
];

describe("conversationView", () => {
  const view = conversationView(7, { api: "openai-responses", body: {}, messages: MESSAGES });

  it("gives each message its role, blocks and origin", () => {
    expect(view.turn).toBe(7);
    expect(view.messages.map((message) => [message.role, message.origin])).toEqual([
      ["user", "session"],
      ["assistant", "session"],
      ["toolResult", "session"],
      ["user", "pipeline"],
    ]);
    expect(view.messages[1]!.blocks.map((block) => block.kind)).toEqual(["thinking", "text", "tool-call"]);
    expect(view.messages[1]!.blocks[2]).toMatchObject({ kind: "tool-call", name: "read", id: "call_1", arguments: '{\n  "path": "parser.ts"\n}' });
    expect(view.messages[3]!.explanation).toContain("wrap:compaction-summary");
  });

  it("names a tool result by its call's tool when the message does not, and cuts a long output", () => {
    expect(view.messages[2]!.tool).toEqual({ name: "read", callId: "call_1", isError: false });
    expect(view.messages[2]!.blocks[0]).toMatchObject({ kind: "text", cut: 5_000 });
    expect((view.messages[2]!.blocks[0] as { text: string }).text).toHaveLength(20_000);
  });

  it("splits tool results out of a user message sent in the Anthropic Messages shape", () => {
    const messages: ContextMessage[] = [
      MESSAGES[1]!,
      { message: { role: "user", content: [{ type: "text", text: "file contents" }] }, provenance: entry("u2") },
    ];
    const body = {
      messages: [
        { role: "assistant", content: [{ type: "tool_use", id: "call_1", name: "read", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", is_error: true, content: [{ type: "text", text: "file contents" }] }, { type: "text", text: "and go on" }] },
      ],
    };
    const built: Pick<BuiltRequest, "api" | "body" | "messages"> = { api: "anthropic-messages", body, messages };
    expect(conversationView(1, built).messages[1]!.blocks).toEqual([
      { kind: "tool-result", callId: "call_1", name: "read", isError: true, text: "file contents", cut: 0 },
      { kind: "text", text: "and go on", cut: 0 },
    ]);
  });

  it("marks the compaction summary of a real pi session as inserted by the pipeline", () => {
    const { session } = fixtureCase("pi/print-openai-autocompact");
    const options = { profile: "pi", leafId: null };
    const turns = [...Array(12).keys()].map((index) => conversationView(index + 1, buildTurnRequest(session, options, index + 1)));
    const inserted = turns.flatMap((turn) => turn.messages.filter((message) => message.origin === "pipeline"));
    expect(inserted.length).toBeGreaterThan(0);
    expect(inserted.some((message) => message.rule.includes("compaction"))).toBe(true);
  });
});
