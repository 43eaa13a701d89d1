// pi session format versions 1, 2 and 3 (docs/formats/pi.md, "Session format versions"), each as
// a small session written here the way that version stored it, read through the whole pipeline:
// turns (one per assistant message on the branch), the compaction, the rebuilt request, and no
// warning for anything that version normally wrote (thinking-level and model changes included).
import { isText, textString } from "../../../../src/core/text/text";
import { describe, expect, it } from "vitest";
import type { ContextMessage, PipelineOptions, Session } from "../../../../src/core/model";
import { analyzeSession, buildTurnRequest } from "../../../../src/core/session/pipeline";
import { readSessionText } from "../../../../src/core/session/index";

const OPTIONS: PipelineOptions = { profile: "pi" };
const T = "2025-11-20T23:33:50.805Z";
const jsonl = (lines: unknown[]) => lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
const userMessage = (text: string) => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 });
const assistantMessage = (text: string, provider = "anthropic", model = "claude-sonnet-4-5", api = "anthropic-messages") => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api,
  provider,
  model,
  usage: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 12 },
  stopReason: "stop",
  timestamp: 2,
});

function read(text: string): { session: Session; analysis: ReturnType<typeof analyzeSession> } {
  const session = readSessionText(text, "session.jsonl");
  return { session, analysis: analyzeSession(session, OPTIONS) };
}

const texts = (messages: ContextMessage[]) =>
  messages.map((m) => {
    const content = m.message.content;
    return `${m.message.role}:${isText(content) ? textString(content) : content.map((block) => ("text" in block ? textString(block.text) : block.type)).join("")}`;
  });

describe("pi session format v1 (coding-agent before 0.31: no ids, a linear file, firstKeptEntryIndex)", () => {
  const v1 = jsonl([
    { type: "session", id: "v1-session", timestamp: T, cwd: "/w", provider: "anthropic", modelId: "claude-sonnet-4-5", thinkingLevel: "off" },
    { type: "model_change", timestamp: T, provider: "anthropic", modelId: "claude-sonnet-4-5" },
    { type: "message", timestamp: T, message: userMessage("first") },
    { type: "message", timestamp: T, message: { ...assistantMessage(""), content: [] } },
    { type: "thinking_level_change", timestamp: T, thinkingLevel: "high" },
    { type: "message", timestamp: T, message: userMessage("/mode") },
    { type: "message", timestamp: T, message: assistantMessage("answer one") },
    // File object index 5 = the "/mode" user message (index 0 is the header).
    { type: "compaction", timestamp: T, summary: "Summary of the start", firstKeptEntryIndex: 5, tokensBefore: 500 },
    { type: "message", timestamp: T, message: userMessage("after") },
    { type: "message", timestamp: T, message: assistantMessage("answer two", "openai", "gpt-5.1-codex", "openai-responses") },
  ]);

  it("one turn per assistant message, the compaction, mixed providers and thinking changes without warnings", () => {
    const { session, analysis } = read(v1);
    expect(session.formatVersion).toBe(1);
    expect(session.warnings).toEqual([]);
    expect(analysis.warnings).toEqual([]);
    expect(analysis.turns.map((turn) => `${turn.model?.provider}/${turn.model?.modelId}`)).toEqual([
      "anthropic/claude-sonnet-4-5",
      "anthropic/claude-sonnet-4-5",
      "openai/gpt-5.1-codex",
    ]);
    expect(analysis.timeline.map((item) => item.kind)).toEqual(["turn", "turn", "compaction", "turn"]);
  });

  it("the request after the compaction: summary, then the kept messages from firstKeptEntryIndex on", () => {
    const { session } = read(v1);
    const request = buildTurnRequest(session, OPTIONS, 3);
    const sent = texts(request.messages);
    expect(sent[0]).toMatch(/^user:.*Summary of the start/s);
    expect(sent.slice(1)).toEqual(["user:/mode", "assistant:answer one", "user:after"]);
  });
});

describe("pi session format v2 (coding-agent 0.31–0.34: id/parentId tree, hookMessage role)", () => {
  const entry = (id: string, parentId: string | null, rest: Record<string, unknown>) => ({ id, parentId, timestamp: T, ...rest });
  const v2 = jsonl([
    { type: "session", version: 2, id: "v2-session", timestamp: T, cwd: "/w" },
    entry("a1", null, { type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" }),
    entry("a2", "a1", { type: "message", message: userMessage("hello") }),
    entry("a3", "a2", { type: "message", message: { role: "hookMessage", customType: "note", content: "hook says hi", display: true, timestamp: 1 } }),
    entry("a4", "a3", { type: "message", message: assistantMessage("hi") }),
    entry("a5", "a4", { type: "compaction", summary: "Earlier talk", firstKeptEntryId: "a4", tokensBefore: 200 }),
    entry("a6", "a5", { type: "message", message: userMessage("next") }),
    entry("a7", "a6", { type: "message", message: assistantMessage("done") }),
  ]);

  it("reads the tree, the compaction and the hookMessage (as pi 0.35's migration does: a custom message) without warnings", () => {
    const { session, analysis } = read(v2);
    expect(session.formatVersion).toBe(2);
    expect(session.warnings).toEqual([]);
    expect(analysis.warnings).toEqual([]);
    expect(analysis.turns).toHaveLength(2);
    expect(analysis.timeline.map((item) => item.kind)).toEqual(["turn", "compaction", "turn"]);
    const first = texts(buildTurnRequest(session, OPTIONS, 1).messages);
    expect(first).toEqual(["user:hello", "user:hook says hi"]);
  });
});

describe("pi session format v3 (coding-agent 0.35 and later: custom role, branches)", () => {
  const entry = (id: string, parentId: string | null, rest: Record<string, unknown>) => ({ id, parentId, timestamp: T, ...rest });
  const v3 = jsonl([
    { type: "session", version: 3, id: "v3-session", timestamp: T, cwd: "/w" },
    entry("b1", null, { type: "message", message: userMessage("start") }),
    entry("b2", "b1", { type: "message", message: assistantMessage("one") }),
    // An abandoned branch: not on the default (last entry's) path.
    entry("x1", "b2", { type: "message", message: userMessage("try this") }),
    entry("x2", "x1", { type: "message", message: assistantMessage("abandoned") }),
    entry("b3", "b2", { type: "message", message: { role: "custom", customType: "ext", content: "extension context", display: false, timestamp: 1 } }),
    entry("b4", "b3", { type: "thinking_level_change", thinkingLevel: "medium" }),
    entry("b5", "b4", { type: "compaction", summary: "So far", firstKeptEntryId: "b3", tokensBefore: 300 }),
    entry("b6", "b5", { type: "message", message: userMessage("go on") }),
    entry("b7", "b6", { type: "message", message: assistantMessage("two") }),
  ]);

  it("counts the turns of the branch only, with its compaction, and no warnings", () => {
    const { session, analysis } = read(v3);
    expect(session.formatVersion).toBe(3);
    expect(session.warnings).toEqual([]);
    expect(analysis.warnings).toEqual([]);
    expect(analysis.turns.map((turn) => turn.entryId)).toEqual(["b2", "b7"]);
    expect(analysis.timeline.map((item) => item.kind)).toEqual(["turn", "compaction", "turn"]);
    const last = texts(buildTurnRequest(session, OPTIONS, 2).messages);
    expect(last[0]).toMatch(/So far/);
    expect(last.slice(1)).toEqual(["user:extension context", "user:go on"]);
  });
});
