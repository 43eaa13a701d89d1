// A followed Claude Code transcript that grows keeps its caches (src/core/agents/claude-code/growth.ts):
// lines a growing transcript can append that change what earlier turns were built from must make
// those turns again. Each case grows a small transcript line by line and compares every step with
// the same lines read afresh (test/core/session/growth.test.ts does the same on recordings).
import { describe, expect, it } from "vitest";
import type { PipelineOptions, Session } from "../../../../src/core/model";
import { SessionFollower } from "../../../../src/core/session/follow";
import { analyzeSession, findAgent } from "../../../../src/core/session/index";
import { assistant, boundary, readClaude, toText, user } from "./helpers";

const OPTIONS: PipelineOptions = { profile: "claude-code", leafId: null, api: null, header: null, notes: false };
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Feeds `lines` one by one (the first `start` at once) and checks each grown session against a fresh read; returns the analyses. */
function growLineByLine(lines: unknown[], start: number): ReturnType<typeof analyzeSession>[] {
  const follower = new SessionFollower("s.jsonl", (bytes) => decoder.decode(bytes), { detectAfterChars: 1 });
  const analyses: ReturnType<typeof analyzeSession>[] = [];
  for (let count = 1; count <= lines.length; count++) {
    follower.append(encoder.encode(`${toText([lines[count - 1]])}\n`));
    if (count < start) continue;
    const grown: Session | null = follower.session();
    expect(grown).not.toBeNull();
    const analysis = analyzeSession(grown!, OPTIONS);
    expect(analysis).toEqual(analyzeSession(readClaude(lines.slice(0, count)), OPTIONS));
    analyses.push(analysis);
  }
  return analyses;
}

const toolUse = (id: string) => ({ type: "tool_use", id, name: "Read", input: { path: id } });
const toolResult = (id: string, text: string) => [{ type: "tool_result", tool_use_id: id, content: text }];

describe("a Claude Code transcript that grows", () => {
  it("carries its caches: Claude Code has the hook", () => {
    expect(findAgent("claude-code")?.pipeline.carryCaches).toBeDefined();
  });

  it("keeps the summaries of earlier turns when a turn is appended", () => {
    const lines = [
      user("u1", null, "first"),
      assistant("a1", "u1", "m1", [{ type: "text", text: "one" }]),
      user("u2", "a1", "second"),
      assistant("a2", "u2", "m2", [{ type: "text", text: "two" }]),
      user("u3", "a2", "third"),
      assistant("a3", "u3", "m3", [{ type: "text", text: "three" }]),
    ];
    const analyses = growLineByLine(lines, 2);
    const last = analyses[analyses.length - 1]!;
    expect(last.turns).toHaveLength(3);
    expect(last.turns[0]).toBe(analyses[0]!.turns[0]);
    expect(last.turns[1]).toBe(analyses[2]!.turns[1]);
  });

  it("makes a later turn again when a tool result of an earlier message arrives after it", () => {
    // The second tool result of m1 is written after the next request was answered: the request of
    // turn 2 (approximated from the transcript) takes every tool result of m1.
    const lines = [
      user("u1", null, "read two files"),
      assistant("a1", "u1", "m1", [toolUse("t1")]),
      assistant("a1b", "a1", "m1", [toolUse("t2")]),
      user("r1", "a1b", toolResult("t1", "first file")),
      assistant("a2", "r1", "m2", [{ type: "text", text: "done" }]),
      user("r2", "a1", toolResult("t2", "the second file, late and long ".repeat(20))),
      user("u3", "a2", "more"),
      assistant("a3", "u3", "m3", [{ type: "text", text: "ok" }]),
    ];
    const analyses = growLineByLine(lines, 5);
    // Lines 5 (a2 answers), 6 (r2: the default leaf for a moment), 7 (u3 goes on from a2).
    const before = analyses[0]!.turns[1]!;
    const after = analyses[2]!.turns[1]!;
    expect(after.entryId).toBe(before.entryId);
    expect(after.chars).toBeGreaterThan(before.chars);
  });

  it("takes an API message whose entries arrive one by one (usage and stop reason of its last entry)", () => {
    const lines = [
      user("u1", null, "go"),
      assistant("a1", "u1", "m1", [{ type: "thinking", thinking: "hm" }], { input_tokens: 1, output_tokens: 1 }),
      assistant("a1b", "a1", "m1", [{ type: "text", text: "answer" }], { input_tokens: 1, output_tokens: 40 }),
      user("u2", "a1b", "next"),
      assistant("a2", "u2", "m2", [{ type: "text", text: "two" }]),
    ];
    const analyses = growLineByLine(lines, 2);
    expect(analyses[0]!.turns[0]!.usage?.output).toBe(1);
    expect(analyses[1]!.turns[0]!.usage?.output).toBe(40);
  });

  it("reads an entry whose missing parent arrives later as a fresh read does", () => {
    const lines = [
      user("u1", null, "go"),
      assistant("a1", "u1", "m1", [{ type: "text", text: "one" }]),
      user("u3", "late", "after the missing one"),
      assistant("a3", "u3", "m3", [{ type: "text", text: "three" }]),
      user("late", "a1", "written late, and long ".repeat(20)),
      user("u4", "a3", "on"),
    ];
    const analyses = growLineByLine(lines, 2);
    // Turn 2's request goes on from the late entry once it is there.
    expect(analyses[analyses.length - 1]!.turns[1]!.chars).toBeGreaterThan(analyses[2]!.turns[1]!.chars);
  });

  it("reads the messages a compact boundary names, written after it, as a fresh read does", () => {
    const lines = [
      user("u1", null, "go"),
      assistant("a1", "u1", "m1", [{ type: "text", text: "one" }]),
      boundary("b1", "a1", { preservedMessages: { anchorUuid: "s1", uuids: ["u1", "p1"] } }),
      user("s1", "b1", "summary of the conversation", { isCompactSummary: true }),
      user("u2", "s1", "next"),
      assistant("a2", "u2", "m2", [{ type: "text", text: "two" }]),
      // A preserved message written after the turn that sends it (off the main chain, so the leaf stays).
      user("p1", null, "kept across the compaction ".repeat(20), { isSidechain: true }),
    ];
    const analyses = growLineByLine(lines, 2);
    const last = analyses[analyses.length - 1]!;
    expect(last.turns).toHaveLength(2);
    expect(last.turns[1]!.chars).toBeGreaterThan(analyses[analyses.length - 2]!.turns[1]!.chars);
  });
});
