// PI-K23 transcript rules (spec §6 rows 22, 23).
import { describe, expect, it } from "vitest";
import type { LlmMessage } from "../../../../../src/core/model";
import { serializeConversation, truncateToolResultText } from "../../../../../src/core/agents/pi/compaction/serialize-conversation";

describe("serializeConversation", () => {
  it("row 23: tool calls rendered name(k=json) in argument order, joined with '; '", () => {
    const messages: LlmMessage[] = [
      {
        role: "assistant",
        content: [
          { type: "toolCall", id: "1", name: "bash", arguments: { command: "a" } },
          { type: "toolCall", id: "2", name: "read", arguments: { path: "b" } },
        ],
      },
    ];
    expect(serializeConversation(messages)).toBe('[Assistant tool calls]: bash(command="a"); read(path="b")');
  });

  it("row 22: a 3494-char tool result keeps 2000 chars and notes the 1494 others", () => {
    const text = "r".repeat(3494);
    const out = serializeConversation([{ role: "toolResult", toolCallId: "1", toolName: "read", content: [{ type: "text", text }], isError: false }]);
    expect(out).toBe(`[Tool result]: ${"r".repeat(2000)}\n\n[... 1494 more characters truncated]`);
    expect(truncateToolResultText("abc")).toBe("abc");
    expect(truncateToolResultText("x".repeat(2000))).toBe("x".repeat(2000));
  });

  it("assistant parts are thinking, text, tool calls in that order whatever the block order", () => {
    const out = serializeConversation([
      {
        role: "assistant",
        content: [
          { type: "toolCall", id: "1", name: "edit", arguments: { path: "p", n: 2, o: { a: [1] } } },
          { type: "text", text: "one" },
          { type: "thinking", thinking: "t1" },
          { type: "text", text: "two" },
          { type: "thinking", thinking: "t2" },
        ],
      },
    ]);
    expect(out).toBe('[Assistant thinking]: t1\nt2\n\n[Assistant]: one\ntwo\n\n[Assistant tool calls]: edit(path="p", n=2, o={"a":[1]})');
  });

  it("user text blocks are joined without separator; empty users and image-only results are skipped", () => {
    const out = serializeConversation([
      { role: "user", content: [{ type: "text", text: "a" }, { type: "image", data: "zz", mimeType: "image/png" }, { type: "text", text: "b" }] },
      { role: "user", content: "" },
      { role: "toolResult", toolCallId: "1", toolName: "read", content: [{ type: "image", data: "zz", mimeType: "image/png" }], isError: false },
      { role: "user", content: "plain" },
    ]);
    expect(out).toBe("[User]: ab\n\n[User]: plain");
  });
});
