// hermes-agent phase 1 pruning (CP-HA-8) and the assembly extras of CP-HA-28 (system note, image
// placeholders), against the forms in agent/context_compressor.py at 0000416b.
import { describe, expect, it } from "vitest";
import type { LlmMessage } from "../../../../src/core/model";
import {
  assembleCompressed,
  COMPRESSION_NOTE,
  DUPLICATE_TOOL_OUTPUT,
  hermesMessagesOf,
  IMAGE_STRIPPED,
  oneLineToolSummary,
  pruneBoundary,
  pruneToolOutputs,
  SCREENSHOT_REMOVED,
  shrinkToolArguments,
  type HermesMessage,
} from "../../../../src/core/agents/hermes/policy";
import { ctx, runHermes } from "./policy-helpers";

const big = (tag: string, n = 300) => `${tag}:` + "x".repeat(n);
const tool = (id: string, text: string): HermesMessage => ({ role: "tool", toolCallId: id, content: [{ type: "text", text }], contextIndex: null });
const call = (id: string, name: string, args: string): HermesMessage => ({ role: "assistant", content: "", toolCalls: [{ id, name, arguments: args }], contextIndex: null });
const user = (text: string): HermesMessage => ({ role: "user", content: text, contextIndex: null });

describe("CP-HA-8 one-line summaries", () => {
  it("terminal, read_file and the generic form with Python grouping", () => {
    expect(oneLineToolSummary("terminal", JSON.stringify({ command: "npm test" }), '{"exit_code": 0}\nline\nline')).toBe("[terminal] ran `npm test` -> exit 0, 3 lines output");
    expect(oneLineToolSummary("read_file", JSON.stringify({ path: "a.py" }), "y".repeat(1200))).toBe("[read_file] read a.py from line 1 (1,200 chars)");
    expect(oneLineToolSummary("grep", JSON.stringify({ a: "1", b: true, c: "3" }), "z".repeat(250))).toBe("[grep] a=1 b=True (250 chars result)");
    expect(oneLineToolSummary("terminal", JSON.stringify({ command: "c".repeat(100) }), "")).toBe(`[terminal] ran \`${"c".repeat(77)}...\` -> exit ?, 0 lines output`);
  });
});

describe("CP-HA-8 argument shrinking", () => {
  it("string leaves over 200 chars cut inside valid JSON, Python separators", () => {
    const out = shrinkToolArguments(JSON.stringify({ path: "/a", content: "q".repeat(600), n: 3 }));
    expect(out).toBe(`{"path": "/a", "content": "${"q".repeat(200)}...[truncated]", "n": 3}`);
    expect(JSON.parse(out).n).toBe(3);
    expect(shrinkToolArguments("not json " + "q".repeat(600))).toBe("not json " + "q".repeat(600));
  });
});

describe("CP-HA-8 prune passes", () => {
  it("dedups identical outputs anywhere (newest kept) and demotes old outputs outside the boundary", () => {
    const messages = [
      user("u0"),
      call("c1", "read_file", JSON.stringify({ path: "a.ts" })),
      tool("c1", big("same")),
      call("c2", "read_file", JSON.stringify({ path: "b.ts" })),
      tool("c2", big("other")),
      user("u1"),
      call("c3", "read_file", JSON.stringify({ path: "a.ts" })),
      tool("c3", big("same")),
      { role: "assistant", content: "done", contextIndex: null } as HermesMessage,
    ];
    // Budget 1 token: only the floor min(protect_last_n, n, 8) = 3 messages stay protected.
    const result = pruneToolOutputs(messages, { protectLastN: 3, tailTokenBudget: 1 });
    expect(result.boundary).toBe(6);
    expect(result.messages[2]?.content).toBe(DUPLICATE_TOOL_OUTPUT);
    expect(result.messages[4]?.content).toBe("[read_file] read b.ts from line 1 (306 chars)");
    expect((result.messages[7]?.content as { text: string }[])[0]?.text).toBe(big("same"));
    expect(result.pruned.map((s) => s.reason)).toEqual(["duplicate", "one-line-summary"]);
  });

  it("shrinks arguments over 500 chars only before the boundary", () => {
    const longArgs = JSON.stringify({ path: "w.md", content: "w".repeat(700) });
    const messages = [user("u0"), call("c1", "write_file", longArgs), tool("c1", "ok"), user("u1"), call("c2", "write_file", longArgs), tool("c2", "ok"), user("u2")];
    // Budget 200: the walk stops at u1 (index 3, kept); soft ceiling 300 leaves the tail alone.
    const result = pruneToolOutputs(messages, { protectLastN: 4, tailTokenBudget: 200 });
    expect(result.boundary).toBe(3);
    expect(result.pressurePass).toBe(false);
    expect(result.messages[1]?.toolCalls?.[0]?.arguments).toContain("...[truncated]");
    expect(result.messages[4]?.toolCalls?.[0]?.arguments).toBe(longArgs);
  });

  it("the boundary follows the token budget when the budget reserves more than the floor", () => {
    const messages = [user("a".repeat(400)), user("a".repeat(400)), user("b"), user("c"), user("d")];
    // 10 tokens per short message, 110 per long one. The message that overflows the budget stays
    // protected (hermes sets the boundary on it before breaking).
    expect(pruneBoundary(messages, { protectLastN: 1, tailTokenBudget: 25 })).toBe(2);
    expect(pruneBoundary(messages, { protectLastN: 1, tailTokenBudget: 40 })).toBe(1);
    // The message floor wins over a small budget.
    expect(pruneBoundary(messages, { protectLastN: 4, tailTokenBudget: 25 })).toBe(1);
  });

  it("pressure pass demotes bulky outputs inside the tail but keeps the last 3 messages", () => {
    const messages = [user("u0"), call("c1", "grep", "{}"), tool("c1", big("p", 4000)), call("c2", "grep", "{}"), tool("c2", big("q", 4000)), user("u1"), { role: "assistant", content: "ok", contextIndex: null } as HermesMessage];
    // Budget 5000 tokens: everything is protected (boundary 0); the region is ~2,100 tokens.
    const calm = pruneToolOutputs(messages, { protectLastN: 20, tailTokenBudget: 5000 });
    expect(calm.boundary).toBe(0);
    expect(calm.pressurePass).toBe(false);
    expect(calm.pruned).toEqual([]);
    // Budget 1000 → soft ceiling 1500 < ~2,100: the pressure pass demotes the first big output.
    const pressed = pruneToolOutputs(messages, { protectLastN: 20, tailTokenBudget: 1000 });
    expect(pressed.boundary).toBe(0);
    expect(pressed.pressurePass).toBe(true);
    expect(pressed.messages[2]?.content).toBe("[grep] (4,002 chars result)");
    expect(pressed.pruned.every((span) => span.pressure)).toBe(true);
    // Index 4 is one of the last 3 messages, and the region fits after the first demotion.
    expect((pressed.messages[4]?.content as { text: string }[])[0]?.text).toBe(big("q", 4000));
    expect(pressed.messages[6]?.content).toBe("ok");
  });

  it("image parts of old tool results become the screenshot placeholder", () => {
    const shot: HermesMessage = { role: "tool", toolCallId: "c1", content: [{ type: "text", text: "shot" }, { type: "image_url", url: "data:image/png;base64," }], contextIndex: null };
    const messages = [user("u0"), call("c1", "screenshot", "{}"), shot, user("u1"), user("u2"), user("u3")];
    const result = pruneToolOutputs(messages, { protectLastN: 3, tailTokenBudget: 1 });
    expect(result.messages[2]?.content).toEqual([{ type: "text", text: "shot" }, { type: "text", text: SCREENSHOT_REMOVED }]);
  });
});

describe("CP-HA-28 assembly extras", () => {
  it("appends the compaction note once to a leading system message", () => {
    const head: HermesMessage[] = [{ role: "system", content: "You are hermes.", contextIndex: null }, user("first")];
    const once = assembleCompressed(head, "SUMMARY", [user("last")], true);
    expect(once.systemNote).toBe(true);
    expect(once.messages[0]?.content).toBe(`You are hermes.\n\n${COMPRESSION_NOTE}`);
    const twice = assembleCompressed(once.messages.slice(0, 1), "SUMMARY", [user("last")], true);
    expect(twice.messages[0]?.content).toBe(`You are hermes.\n\n${COMPRESSION_NOTE}`);
  });

  it("replaces image parts before the newest image-bearing user turn", () => {
    const image = (text: string): LlmMessage => ({ role: "user", content: [{ type: "text", text }, { type: "image", data: "AAAA", mimeType: "image/png" }] });
    const list = hermesMessagesOf(ctx([image("old picture"), { role: "assistant", content: [{ type: "text", text: "seen" }] }, image("new picture")]));
    const assembled = assembleCompressed([], "SUMMARY", list, true);
    expect(assembled.imagesStripped).toBe(1);
    const old = assembled.messages.find((m) => JSON.stringify(m.content).includes("old picture"));
    const latest = assembled.messages.find((m) => JSON.stringify(m.content).includes("new picture"));
    expect(old?.content).toEqual([{ type: "text", text: "old picture" }, { type: "text", text: IMAGE_STRIPPED }]);
    expect((latest?.content as { type: string }[])[1]?.type).toBe("image_url");
  });

  it("the simulated next request carries the placeholder instead of the old image", () => {
    const messages: LlmMessage[] = [];
    for (let i = 0; i < 8; i++) {
      messages.push({ role: "user", content: [{ type: "text", text: `look ${i}` }, { type: "image", data: `IMG${i}`, mimeType: "image/png" }] });
      messages.push({ role: "assistant", content: [{ type: "text", text: `seen ${i}` }] });
    }
    const result = runHermes(messages, { protectFirstN: 0, protectLastN: 4 }, {}, 20000);
    expect(result.verdict.verdict).toBe("compacted");
    const body = JSON.stringify(result.after.request?.body);
    expect(body).toContain(IMAGE_STRIPPED);
    expect(body).toContain("IMG7");
    expect(body).not.toContain("IMG6");
  });
});
