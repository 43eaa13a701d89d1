// The parts of a Claude Code body that do not change from one turn to the next are the same
// objects in both turns' bodies: a message whose markers stay, the marked system prompt and
// tools, the billing block. The per-part work after the build (segments, hashes) is kept by
// object, so a fresh copy per turn would be done again every turn.
import { describe, expect, it } from "vitest";
import { assembleClaudeBody, sentMessage, type WireParts } from "../../../../src/core/agents/claude-code/wire";
import type { PipelineOptions } from "../../../../src/core/model";
import { unmarkedFormOf } from "../../../../src/core/prefix/canonical";
import { buildTurnRequest } from "../../../../src/core/session/pipeline";
import { assistant, readClaude, user } from "./helpers";

const SYSTEM = [{ type: "text", text: "system prompt" }];
const TOOLS = [{ name: "Bash", description: "run", input_schema: {} }];

function parts(messages: Record<string, unknown>[], cacheControl: WireParts["cacheControl"]): WireParts {
  return { params: { model: "m" }, system: SYSTEM, tools: TOOLS, messages, cacheControl, billingBlock: null, metadata: {} };
}

describe("marked copies carried from turn to turn", () => {
  const first = { role: "user", content: [{ type: "text", text: "hi" }] };
  const answer = { role: "assistant", content: [{ type: "text", text: "yo" }] };
  const markers = (ttl?: string): WireParts["cacheControl"] => [
    { path: ["system", 0], value: { type: "ephemeral" } },
    { path: ["messages", 0, "content", 0], value: ttl ? { type: "ephemeral", ttl } : { type: "ephemeral" } },
    { path: ["messages", 0, "content", 7], value: { type: "ephemeral" } },
  ];

  it("gives the same marked message and marked system for a message whose markers stay", () => {
    const warnings: string[] = [];
    const one = assembleClaudeBody(parts([first], markers()), warnings, { sent: [first].map(sentMessage) });
    const two = assembleClaudeBody(parts([first, answer], markers()), warnings, { sent: [first, answer].map(sentMessage) });
    const marked = (one.messages as unknown[])[0];
    expect(marked).toEqual({ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] });
    expect((two.messages as unknown[])[0]).toBe(marked);
    expect((two.messages as unknown[])[1]).toBe(answer);
    expect(two.system).toBe(one.system);
    expect(two.system).toEqual([{ type: "text", text: "system prompt", cache_control: { type: "ephemeral" } }]);
    expect(two.tools).toBe(TOOLS);
    // The path that names no block warns on every turn, also when the marked copy is the kept one.
    expect(warnings).toEqual(['cache marker path ["messages",0,"content",7] not found', 'cache marker path ["messages",0,"content",7] not found']);
    // The originals stay unmarked.
    expect(first.content[0]).toEqual({ type: "text", text: "hi" });
    expect(SYSTEM[0]).toEqual({ type: "text", text: "system prompt" });
  });

  it("names the unmarked form of a marked copy and of its marked block, for the segment stage", () => {
    const message = { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "ok" }] };
    const body = assembleClaudeBody(parts([message], [{ path: ["messages", 0, "content", 0], value: { type: "ephemeral" } }]), [], { sent: [message].map(sentMessage) });
    const marked = (body.messages as Record<string, unknown>[])[0]!;
    expect(marked).not.toBe(message);
    expect(unmarkedFormOf(marked)).toBe(sentMessage(message));
    expect(unmarkedFormOf((marked.content as object[])[0]!)).toBe(message.content[0]);
    // A marker inside a block's own content changes what the block is: no unmarked form named.
    const nested = { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: [{ type: "text", text: "ok" }] }] };
    const deep = assembleClaudeBody(parts([nested], [{ path: ["messages", 0, "content", 0, "content", 0], value: { type: "ephemeral" } }]), [], { sent: [nested].map(sentMessage) });
    const deepBlock = ((deep.messages as Record<string, unknown>[])[0]!.content as object[])[0]!;
    expect(deepBlock).not.toBe(nested.content[0]);
    expect(unmarkedFormOf(deepBlock)).toBe(deepBlock);
  });

  it("makes a new copy when the marker changes", () => {
    const one = assembleClaudeBody(parts([first], markers()), [], { sent: [first].map(sentMessage) });
    const two = assembleClaudeBody(parts([first], markers("1h")), [], { sent: [first].map(sentMessage) });
    expect((two.messages as unknown[])[0]).not.toBe((one.messages as unknown[])[0]);
    expect((two.messages as Record<string, unknown>[])[0]).toEqual({ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral", ttl: "1h" } }] });
  });
});

describe("an approximated request's unchanged parts", () => {
  const session = readClaude([
    user("u1", null, "list files"),
    assistant("a1", "u1", "msg_1", [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }]),
    user("r1", "a1", [{ type: "tool_result", tool_use_id: "t1", content: "x y" }]),
    assistant("a2", "r1", "msg_2", [{ type: "text", text: "done" }]),
  ]);
  const options: PipelineOptions = { profile: "pi" };

  it("are the same objects in consecutive turns: billing block, marked system prompt, tools", () => {
    const one = buildTurnRequest(session, options, 1).body;
    const two = buildTurnRequest(session, options, 2).body;
    const [billingOne, systemOne] = one.system as unknown[];
    const [billingTwo, systemTwo] = two.system as unknown[];
    expect(billingTwo).toBe(billingOne);
    expect(systemTwo).toBe(systemOne);
    expect(systemTwo).toEqual({ type: "text", text: "[not recorded: system prompt]", cache_control: { type: "ephemeral" } });
    expect(two.tools).toBe(one.tools);
  });

  it("keep each session's metadata block with that session: another session's turns in between do not make it again", () => {
    const other = readClaude([
      { ...user("o1", null, "another session"), sessionId: "other-session" },
      { ...assistant("o2", "o1", "msg_o", [{ type: "text", text: "hello" }]), sessionId: "other-session" },
    ]);
    const one = buildTurnRequest(session, options, 1).body;
    const elsewhere = buildTurnRequest(other, options, 1).body;
    const two = buildTurnRequest(session, options, 2).body;
    expect(elsewhere.metadata).not.toEqual(one.metadata);
    expect(two.metadata).toBe(one.metadata);
  });

  it("are made once, not per turn: the metadata block and the markers' value", () => {
    const one = buildTurnRequest(session, options, 1).body;
    const two = buildTurnRequest(session, options, 2).body;
    expect(two.metadata).toBe(one.metadata);
    expect(two.system).toBe(one.system);
    const lastBlock = (body: Record<string, unknown>) => {
      const messages = body.messages as Record<string, unknown>[];
      const content = messages[messages.length - 1]!.content as Record<string, unknown>[];
      return content[content.length - 1]!;
    };
    const systemMarker = ((one.system as Record<string, unknown>[])[1]!).cache_control;
    expect(lastBlock(one).cache_control).toBe(systemMarker);
    expect(lastBlock(two).cache_control).toBe(systemMarker);
  });
});
