import { stringifyWithTexts, textString } from "../../../../src/core/text/text";
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../../src/core/model";
import { buildTree } from "../../../../src/core/agents/pi/tree";
import { buildSessionContext, PathProjector } from "../../../../src/core/agents/pi/projection";
import { assistant, compaction, sessionOf, toolResult, user, assistantCall, type EntryInput } from "./sessionBuilder";

function context(entries: EntryInput[], leaf?: string | null, profile: "pi" | "senpi" = "pi") {
  return buildSessionContext(buildTree(sessionOf(entries)), leaf, profile);
}
const describeMessage = (m: AgentMessage): string =>
  m.role === "compactionSummary" ? `C:${textString(m.summary)}` : m.role === "user" ? `u:${stringifyWithTexts(m.content)}` : m.role;

describe("projection (spec §2, test table rows 1–5)", () => {
  it("row 1: compaction → summary, kept range from firstKeptEntryId, then later entries", () => {
    const result = context([user("u1", "1"), assistant("a1", "r1"), user("u2", "2"), assistant("a2", "r2"), compaction("C", "u2", "sum"), user("u3", "3")]);
    expect(result.messages.map((m) => m.entryId)).toEqual(["C", "u2", "a2", "u3"]);
    expect(result.messages[0]?.message).toMatchObject({ role: "compactionSummary", summary: "sum", tokensBefore: 100 });
    expect(result.compactionId).toBe("C");
  });

  it("row 2: firstKeptEntryId not on the path → summary and later entries only", () => {
    const result = context([user("u1", "1"), assistant("a1", "r1"), user("u2", "2"), assistant("a2", "r2"), compaction("C", "zzzz"), user("u3", "3")]);
    expect(result.messages.map((m) => m.entryId)).toEqual(["C", "u3"]);
  });

  it("row 3: leafId null → empty context, thinking off, no model", () => {
    const result = context([user("u1", "1"), assistant("a1", "r")], null);
    expect(result).toMatchObject({ messages: [], thinkingLevel: "off", model: null });
  });

  it("row 4: settings walk takes thinking level and the assistant's model", () => {
    const result = context([
      { id: "m0", type: "model_change", provider: "x", modelId: "y" },
      { id: "t1", type: "thinking_level_change", thinkingLevel: "high" },
      user("u1", "1"),
      assistant("a1", "r", { provider: "p", model: "m" }),
    ]);
    expect(result.thinkingLevel).toBe("high");
    expect(result.model).toEqual({ provider: "p", modelId: "m" });
  });

  it("row 5: a branch_summary with an empty summary emits nothing; a non-empty one does", () => {
    const result = context([
      { id: "b0", type: "branch_summary", fromId: "q", summary: "" },
      { id: "b1", type: "branch_summary", fromId: "q", summary: "went elsewhere" },
    ]);
    expect(result.messages.map((m) => m.entryId)).toEqual(["b1"]);
    expect(result.messages[0]?.message).toMatchObject({ role: "branchSummary", summary: "went elsewhere", fromId: "q" });
  });

  it("PI-P5: an older compaction inside the kept range emits nothing", () => {
    const result = context([
      user("u1", "1"),
      assistant("a1", "r1"),
      compaction("C1", "u1", "first"),
      user("u2", "2"),
      assistant("a2", "r2"),
      compaction("C2", "u1", "second"),
    ]);
    expect(result.messages.map((m) => describeMessage(m.message))).toEqual(['C:second', 'u:[{"type":"text","text":"1"}]', "assistant", 'u:[{"type":"text","text":"2"}]', "assistant"]);
  });

  it("PI-P6: custom_message becomes a custom message with Date.parse of the entry time; others emit nothing", () => {
    const result = context([
      { id: "cm", type: "custom_message", customType: "note", content: "hi", display: false, timestamp: "2026-01-01T00:00:00.000Z" },
      { id: "cu", type: "custom", customType: "state", data: {} },
      { id: "lb", type: "label", targetId: "cm", label: "x" },
      { id: "unk", type: "mystery" },
    ]);
    expect(result.messages.map((m) => m.message)).toEqual([
      { role: "custom", customType: "note", content: "hi", display: false, details: undefined, timestamp: Date.parse("2026-01-01T00:00:00.000Z") },
    ]);
  });

  it("reuses the same message objects for the same entry across projections", () => {
    const session = sessionOf([user("u1", "1"), compaction("C", "u1")]);
    const tree = buildTree(session);
    const cache = new Map();
    const first = buildSessionContext(tree, undefined, "pi", cache);
    const second = buildSessionContext(tree, undefined, "pi", cache);
    expect(second.messages[0]?.message).toBe(first.messages[0]?.message);
    expect(second.messages[1]?.message).toBe(session.entries[0]?.raw.message);
  });

  it("reports a push as append / reset / none for incremental consumers", () => {
    const session = sessionOf([user("u1", "1"), { id: "t", type: "thinking_level_change", thinkingLevel: "low" }, compaction("C", "u1")]);
    const projector = new PathProjector("pi");
    expect(session.entries.map((e) => projector.push(e))).toEqual(["append", "none", "reset"]);
  });
});

describe("senpi projection additions (SP-P1…SP-P4)", () => {
  it("SP-P1: null content becomes []", () => {
    const result = context([{ id: "u", type: "message", message: { role: "user", content: null, timestamp: 1 } }], undefined, "senpi");
    expect(result.messages[0]?.message).toMatchObject({ role: "user", content: [] });
  });

  it("SP-P2: context_edit replaces (string → one text block) or hides; the last edit wins; pi ignores it", () => {
    const entries = [
      user("u1", "1"),
      assistantCall("a1", "c1"),
      toolResult("r1", "c1", "huge output"),
      { id: "e1", type: "context_edit", targetId: "r1", replacement: "first" },
      { id: "e2", type: "context_edit", targetId: "r1", replacement: "[trimmed]" },
      { id: "e3", type: "context_edit", targetId: "u1", replacement: null },
    ];
    const senpi = context(entries, undefined, "senpi");
    const edited = senpi.messages.find((m) => m.entryId === "r1");
    expect(edited?.message).toMatchObject({ role: "toolResult", content: [{ type: "text", text: "[trimmed]" }] });
    expect(edited?.editedBy).toBe("e2");
    expect(edited?.original).toMatchObject({ content: [{ type: "text", text: "huge output" }] });
    expect(senpi.messages.find((m) => m.entryId === "u1")?.hidden).toBe(true);
    const pi = context(entries, undefined, "pi");
    expect(pi.messages.find((m) => m.entryId === "r1")?.message).toMatchObject({ content: [{ type: "text", text: "huge output" }] });
    expect(pi.messages.every((m) => !m.hidden)).toBe(true);
  });

  it("SP-P3: the summary carries the compaction details; omit-unsafe-v1 raises a warning", () => {
    const c = { ...compaction("C", "u1"), details: { retainedMessagePolicy: "omit-unsafe-v1" } };
    const senpi = context([user("u1", "1"), c], undefined, "senpi");
    expect(senpi.messages[0]?.message).toMatchObject({ role: "compactionSummary", details: { retainedMessagePolicy: "omit-unsafe-v1" } });
    expect(senpi.warnings[0]?.reason).toMatch(/retained-message repair/);
    const pi = context([user("u1", "1"), c], undefined, "pi");
    expect((pi.messages[0]?.message as { details?: unknown }).details).toBeUndefined();
  });

  it("SP-P4: fallback windows do not change the restored model and roll back the thinking level", () => {
    const entries: EntryInput[] = [
      { id: "m0", type: "model_change", provider: "prim", modelId: "big" },
      { id: "t0", type: "thinking_level_change", thinkingLevel: "high" },
      user("u1", "1"),
      { id: "f1", type: "model_change", provider: "back", modelId: "small", reason: "fallback", originalProvider: "prim", originalModelId: "big" },
      { id: "t1", type: "thinking_level_change", thinkingLevel: "low" },
      assistant("a1", "r", { provider: "back", model: "small" }),
    ];
    const inside = context(entries, undefined, "senpi");
    expect(inside.model).toEqual({ provider: "prim", modelId: "big" });
    expect(inside.thinkingLevel).toBe("low");
    const after = context([...entries, { id: "f2", type: "model_change", provider: "prim", modelId: "big", reason: "fallback-revert" }], undefined, "senpi");
    expect(after.thinkingLevel).toBe("high");
    // Explicit choice: a later assistant message of the same provider does not override it.
    const explicit = context([...entries.slice(0, 3), assistant("a0", "r", { provider: "prim", model: "other" })], undefined, "senpi");
    expect(explicit.model).toEqual({ provider: "prim", modelId: "big" });
    // pi follows every model_change and assistant message (PI-P3).
    expect(context(entries, undefined, "pi").model).toEqual({ provider: "back", modelId: "small" });
  });
});
