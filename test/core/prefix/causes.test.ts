// Cause classification (PD-2) through the session driver.
import { describe, expect, it } from "vitest";
import type { ContextMessage } from "../../../src/core/model";
import { analyzePrefixes, type PrefixTurnInput } from "../../../src/core/prefix/analyze";

const est = { tokenizer: "estimate" as const };
const text = (t: string) => ({ type: "text", text: t });
const tools = [{ name: "read", input_schema: { type: "object" } }, { name: "bash", input_schema: { type: "object" } }];
const anthropic = (over: Record<string, unknown> = {}, messages: unknown[] = [{ role: "user", content: "hello" }]) => ({
  model: "claude-sonnet-4-5",
  messages,
  system: [text("You are pi. Current date: 2026-11-29")],
  tools,
  ...over,
});
function second(a: Record<string, unknown>, b: Record<string, unknown>, extra: Partial<PrefixTurnInput> = {}, first: Partial<PrefixTurnInput> = {}) {
  return analyzePrefixes(
    [
      { turn: 1, api: "anthropic-messages", body: a, ...first },
      { turn: 2, api: "anthropic-messages", body: b, ...extra },
    ],
    est,
  )[1]!;
}

describe("PD-2 causes", () => {
  it("appended-only has no cause", () => {
    const r = second(anthropic(), anthropic({}, [{ role: "user", content: "hello" }, { role: "assistant", content: [text("hi")] }]));
    expect(r.cause).toBeNull();
    expect(r.breakPath).toBeNull();
  });
  it("tools changed (spec §5 case 2)", () => {
    const r = second(anthropic(), anthropic({ tools: [tools[0], { name: "bash", input_schema: { type: "object", properties: {} } }] }));
    expect(r.cause).toBe("tools-changed");
    expect(r.breakSegment).toBe("tools[1]");
    expect(r.diagnosticsName).toBe("tools_changed");
    expect(r.sharedTokens).toBeLessThan(r.tokens);
  });
  it("pi crossing midnight: system-changed, date line, at system[0] (spec §5 case 3)", () => {
    const r = second(anthropic(), anthropic({ system: [text("You are pi. Current date: 2026-11-30")] }));
    expect(r.cause).toBe("system-changed");
    expect(r.causeDetail).toBe("date line");
    expect(r.breakPath).toBe("system[0].text");
  });
  it("model changed, even when the text is identical", () => {
    const r = second(anthropic(), anthropic({ model: "claude-opus-4-6" }));
    expect(r.cause).toBe("model-changed");
    expect(r.breakPath).toBeNull();
  });
  it("settings changed (PR-7)", () => {
    const r = second(anthropic(), anthropic({ thinking: { type: "enabled", budget_tokens: 1024 } }));
    expect(r.cause).toBe("settings-changed");
    expect(r.settingsChanged).toEqual(["thinking"]);
  });
  it("compaction between: history-rewritten primary, system-changed contributing", () => {
    const r = second(anthropic(), anthropic({ system: [text("You are pi. Current date: 2026-11-30")] }, [{ role: "user", content: "summary" }]), {
      facts: { compactionBetween: true },
    });
    expect(r.cause).toBe("history-rewritten");
    expect(r.contributing).toEqual(["system-changed"]);
  });
  it("failed turn dropped and branch switch come from the caller's facts", () => {
    const a = anthropic({}, [{ role: "user", content: "a" }, { role: "assistant", content: [text("b")] }]);
    const b = anthropic({}, [{ role: "user", content: "a" }, { role: "assistant", content: [text("c")] }]);
    expect(second(a, b, { facts: { droppedFailedTurn: true } }).cause).toBe("failed-turn-dropped");
    expect(second(a, b, { facts: { branchSwitched: true } }).cause).toBe("branch-switch");
    expect(second(a, b).cause).toBe("mutation");
  });
  it("a note inserted before the end of N is an insertion; removing it is note-removed", () => {
    const note: ContextMessage = { message: { role: "user", content: "Reply in English." }, provenance: { rule: "note:reply-language", entryId: null } };
    const user: ContextMessage = { message: { role: "user", content: "hello" }, provenance: { rule: "entry", entryId: "1" } };
    const reply: ContextMessage = { message: { role: "assistant", content: [{ type: "text", text: "hi" }] }, provenance: { rule: "entry", entryId: "2" } };
    const plain = anthropic({}, [{ role: "user", content: "hello" }, { role: "assistant", content: [text("hi")] }]);
    const withNote = anthropic({}, [{ role: "user", content: "hello" }, { role: "user", content: "Reply in English." }, { role: "assistant", content: [text("hi")] }]);
    const inserted = second(plain, withNote, { messages: [user, note, reply] }, { messages: [user, reply] });
    expect(inserted.cause).toBe("insertion");
    expect(inserted.breakPath).toBe("messages[1].role");
    const removed = second(withNote, plain, { messages: [user, reply] }, { messages: [user, note, reply] });
    expect(removed.cause).toBe("note-removed");
  });
  it("a timestamp-like change inside otherwise equal text", () => {
    const a = anthropic({}, [{ role: "user", content: "run at 12:30:01 on 2026-11-29" }, { role: "assistant", content: [text("ok")] }]);
    const b = anthropic({}, [{ role: "user", content: "run at 12:31:45 on 2026-11-29" }, { role: "assistant", content: [text("ok")] }]);
    const r = second(a, b);
    expect(r.cause).toBe("timestamp-changed");
    expect(r.breakPath).toBe("messages[0].content[0].text");
  });
  it("truncation: N+1 ends inside N or cuts a text", () => {
    const a = anthropic({}, [{ role: "user", content: "a long tool output" }, { role: "assistant", content: [text("ok")] }]);
    const cut = anthropic({}, [{ role: "user", content: "a long" }, { role: "assistant", content: [text("ok")] }]);
    expect(second(a, cut).cause).toBe("truncation");
    const shorter = anthropic({}, [{ role: "user", content: "a long tool output" }]);
    const r = second(a, shorter);
    expect(r.cause).toBe("truncation");
    expect(r.breakSegment).toBe("messages[1]");
  });
  it("compaction is recognised from provenance when the caller gives no facts", () => {
    const summary: ContextMessage = { message: { role: "user", content: "The conversation history before this point was compacted" }, provenance: { rule: "wrap:compaction-summary", entryId: "c" } };
    const user: ContextMessage = { message: { role: "user", content: "hello" }, provenance: { rule: "entry", entryId: "1" } };
    const r = second(anthropic(), anthropic({}, [{ role: "user", content: "The conversation history before this point was compacted" }]), { messages: [summary] }, { messages: [user] });
    expect(r.cause).toBe("history-rewritten");
    expect(r.causeDetail).toBe("compaction (from provenance)");
  });
});
