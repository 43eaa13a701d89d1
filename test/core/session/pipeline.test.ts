import { describe, expect, it } from "vitest";
import type { ContextMessage, PipelineOptions, ProfileId, Session } from "../../../src/core/model";
import { analyzeSession, buildTurnContext, buildTurnRequest, countTurns } from "../../../src/core/session/pipeline";
import { buildTree } from "../../../src/core/agents/pi/tree";
import { buildSessionContext } from "../../../src/core/agents/pi/projection";
import { estimateMessageTokens } from "../../../src/core/agents/pi/estimate";
import { readSessionText } from "../../../src/core/session/index";
import { assistant, assistantCall, compaction, sessionOf, toolResult, user } from "../agents/pi/sessionBuilder";

// A session exercising every pipeline step: bash (normal and `!!`), compactions, a model switch,
// a failed turn, user words, an environment message, a context_edit and a second branch.
function richSession(): Session {
  return sessionOf([
    { id: "m0", type: "model_change", provider: "p", modelId: "m" },
    { id: "t0", type: "thinking_level_change", thinkingLevel: "medium" },
    user("u1", "first"),
    assistantCall("a1", "c1"),
    toolResult("r1", "c1", "listing"),
    assistant("a2", "done"),
    { id: "b1", type: "message", message: { role: "bashExecution", command: "ls", output: "x", exitCode: 0, cancelled: false, truncated: false, timestamp: 4 } },
    { id: "b2", type: "message", message: { role: "bashExecution", command: "pwd", output: "/w", exitCode: 0, cancelled: false, truncated: false, excludeFromContext: true, timestamp: 4 } },
    user("u2", "second"),
    assistantCall("a3", "c2", "ask", { stopReason: "error", errorMessage: "boom" }),
    toolResult("r2", "c2", "partial"),
    assistantCall("a4", "c3", "ask"),
    toolResult("r3", "c3", "asked", { details: { userWords: [{ label: "answer", text: "yes" }] } }),
    assistant("a5", "thanks", { provider: "q", model: "n" }),
    compaction("C1", "u2", "summary one"),
    { id: "env", type: "custom_message", customType: "environment-context", content: "<environment_context>\n  <cwd>/w</cwd>\n</environment_context>", display: false },
    user("u3", "third"),
    assistant("a6", "ok"),
    { id: "e1", type: "context_edit", targetId: "r3", replacement: "[edited]" },
    user("u4", "fourth"),
    assistant("a7", "fine"),
    compaction("C2", "nothing-kept", "summary two"),
    { ...user("u5", "other branch"), parentId: "a2" },
    assistant("a8", "branch answer"),
  ]);
}

const options = (profile: ProfileId, extra: Partial<PipelineOptions> = {}): PipelineOptions => ({ profile, ...extra });

describe("turn mapping (PI-R10)", () => {
  it("turn k's context is the projection up to the k-th assistant entry's parent", () => {
    const session = sessionOf([user("u1", "a"), assistantCall("a1", "c1"), toolResult("r1", "c1", "o"), assistant("a2", "b"), user("u2", "c"), assistant("a3", "d")]);
    const ids = (turn: number) => buildTurnContext(session, options("pi"), turn).pathEntryIds;
    expect(ids(1)).toEqual(["u1"]);
    expect(ids(2)).toEqual(["u1", "a1", "r1"]);
    expect(ids(3)).toEqual(["u1", "a1", "r1", "a2", "u2"]);
    const third = buildTurnContext(session, options("pi"), 3);
    expect(third.entryId).toBe("a3");
    expect(third.messages.map((m) => m.provenance.entryId)).toEqual(["u1", "a1", "r1", "a2", "u2"]);
    expect(() => buildTurnContext(session, options("pi"), 4)).toThrow(RangeError);
    expect(() => buildTurnContext(session, options("pi"), 0)).toThrow(RangeError);
    expect(countTurns(session, options("pi"))).toBe(3);
  });

  it("reuses the same ContextMessage objects from one turn to the next", () => {
    const session = sessionOf([user("u1", "a"), assistant("a1", "b"), user("u2", "c"), assistant("a2", "d")]);
    const first = buildTurnContext(session, options("pi"), 1).messages[0] as ContextMessage;
    const second = buildTurnContext(session, options("pi"), 2).messages[0] as ContextMessage;
    expect(second).toBe(first);
  });
});

describe("analyzeSession", () => {
  for (const profile of ["pi", "senpi"] as const) {
    it(`${profile}: incremental summaries equal the per-turn pipeline for every turn`, () => {
      const session = richSession();
      const analysis = analyzeSession(session, options(profile, { leafId: "a7" }));
      expect(analysis.turns).toHaveLength(7);
      const tree = buildTree(session);
      for (const summary of analysis.turns) {
        const context = buildTurnContext(session, options(profile, { leafId: "a7" }), summary.turn);
        expect(summary.entryId).toBe(context.entryId);
        expect(summary.messageCount, `turn ${summary.turn}`).toBe(context.messages.length);
        expect(summary.hasDropped, `turn ${summary.turn}`).toBe(context.dropped.length > 0);
        expect(summary.thinkingLevel).toBe(context.thinkingLevel);
        const parent = context.pathEntryIds[context.pathEntryIds.length - 1] as string;
        const projected = buildSessionContext(tree, parent, profile).messages.filter((m) => !m.hidden);
        const expected = projected
          .filter((m) => !(m.message.role === "bashExecution" && m.message.excludeFromContext))
          .reduce((sum, m) => sum + estimateMessageTokens(m.message, { profile }), 0);
        expect(summary.estimatedTokens, `turn ${summary.turn}`).toBe(expected);
      }
    });
  }

  it("places compaction events before the first turn after them, trailing ones with beforeTurn null", () => {
    const analysis = analyzeSession(richSession(), options("pi", { leafId: "C2" }));
    expect(analysis.timeline).toEqual([
      ...[1, 2, 3, 4, 5].map((turn) => ({ kind: "turn", turn })),
      expect.objectContaining({ kind: "compaction", entryId: "C1", beforeTurn: 6, firstKeptEntryId: "u2", tokensBefore: 100, summaryChars: 11 }),
      { kind: "turn", turn: 6 },
      { kind: "turn", turn: 7 },
      expect.objectContaining({ kind: "compaction", entryId: "C2", beforeTurn: null }),
    ]);
    expect(analysis.turns.map((t) => t.afterCompaction)).toEqual([false, false, false, false, false, true, false]);
    expect(analysis.turns.map((t) => t.modelSwitched)).toEqual([false, false, false, false, true, true, false]);
    expect(analysis.turns[0]).toMatchObject({ model: { provider: "p", modelId: "m" }, api: "openai-completions", stopReason: "toolUse", hasNote: false });
    expect(analysis.turns[0]?.usage?.totalTokens).toBe(12);
  });

  it("selects the branch by leafId, defaulting to the last entry in file order", () => {
    const session = richSession();
    const byDefault = analyzeSession(session, options("pi"));
    expect(byDefault.leafId).toBe("a8");
    expect(byDefault.turns.map((t) => t.entryId)).toEqual(["a1", "a2", "a8"]);
    expect(byDefault.branches.map((b) => [b.leafId, b.turns, b.isDefault])).toEqual([
      ["C2", 7, false],
      ["a8", 3, true],
    ]);
    expect(analyzeSession(session, options("pi", { leafId: "a5" })).turns).toHaveLength(5);
  });

  it("senpi: the failed turn, the edit and the `!!` command show up as dropped; pi only drops the `!!` command", () => {
    const session = richSession();
    const senpi = buildTurnContext(session, options("senpi", { leafId: "a7" }), 5);
    expect(senpi.dropped.map((d) => d.reason).sort()).toEqual(["excluded-from-context", "failed-turn", "failed-turn"]);
    expect(senpi.messages.some((m) => m.provenance.rule === "user-words")).toBe(true);
    const afterFold = buildTurnContext(session, options("senpi", { leafId: "a7" }), 6);
    expect(afterFold.messages.some((m) => m.provenance.rule === "fold:environment")).toBe(true);
    const edited = buildTurnContext(session, options("senpi", { leafId: "a7" }), 7);
    expect(edited.messages.find((m) => m.provenance.entryId === "r3")?.provenance.editedBy).toBe("e1");
    const pi = buildTurnContext(session, options("pi", { leafId: "a7" }), 5);
    expect(pi.dropped.map((d) => d.reason)).toEqual(["excluded-from-context"]);
  });

  it("returns an empty analysis for an empty session and reports a tree cycle", () => {
    const empty = readSessionText("", "e.jsonl");
    expect(analyzeSession(empty, options("pi"))).toEqual({ branches: [], leafId: null, turns: [], timeline: [], warnings: [] });
    const cyclic = sessionOf([{ ...user("x", "a"), parentId: "y" }, { ...assistant("y", "b"), parentId: "x" }]);
    const analysis = analyzeSession(cyclic, options("pi"));
    expect(analysis.warnings.some((w) => /cycle/.test(w.reason))).toBe(true);
  });

  it("calls the notes hook only when notes are on (senpi)", () => {
    const session = richSession();
    let calls = 0;
    const hooks = { notesStep: (m: ContextMessage[]) => (calls++, m) };
    buildTurnContext(session, options("senpi", { leafId: "a7" }), 2, hooks);
    expect(calls).toBe(0);
    buildTurnContext(session, options("senpi", { leafId: "a7", notes: true }), 2, hooks);
    expect(calls).toBe(1);
    buildTurnContext(session, options("pi", { leafId: "a7", notes: true }), 2, hooks);
    expect(calls).toBe(1);
  });
});

describe("buildTurnRequest", () => {
  it("uses options.api, else the recorded api; system and tools are not recorded without a header", () => {
    const session = sessionOf([user("u1", "hi"), assistant("a1", "yo", { api: "anthropic-messages" })]);
    const recorded = buildTurnRequest(session, options("pi"), 1);
    expect(recorded.api).toBe("anthropic-messages");
    expect(recorded.body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] }]);
    expect(recorded.notRecorded).toContain("system");
    const forced = buildTurnRequest(session, options("pi", { api: "openai-completions" }), 1);
    expect(forced.api).toBe("openai-completions");
    expect(forced.model.provider).toBe("p");
  });

  it("falls back to the model's api (or openai-completions) when nothing is recorded", () => {
    const session = sessionOf([user("u1", "hi"), assistant("a1", "yo", { api: undefined, provider: "nobody", model: "none" })]);
    expect(buildTurnRequest(session, options("pi"), 1).api).toBe("openai-completions");
  });
});
