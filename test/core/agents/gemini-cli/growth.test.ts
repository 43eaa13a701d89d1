// A followed Gemini CLI chat that grows keeps its fold and turn summaries (history.ts
// `carryGeminiFold`, turns.ts): records that rewrite an answer, `$set` and `$rewindTo` records
// appended later must read as the whole file read afresh.
import { describe, expect, it } from "vitest";
import type { PipelineOptions } from "../../../../src/core/model";
import { SessionFollower } from "../../../../src/core/session/follow";
import { analyzeSession, readSessionText } from "../../../../src/core/session/index";

const NAME = "session-2026-01-01T00-00-s1.jsonl";
const OPTIONS: PipelineOptions = { profile: "gemini-cli", leafId: null, api: null, header: null, notes: false };
const META = { sessionId: "s-1", projectHash: "abc", startTime: "2026-01-01T00:00:00.000Z", lastUpdated: "2026-01-01T00:00:00.000Z", kind: "main" };
const user = (id: string, text: string) => ({ id, timestamp: "t", type: "user", content: [{ text }] });
const gemini = (id: string, content: string, input: number) => ({ id, timestamp: "t", type: "gemini", content, model: "gemini-2.5-flash", tokens: { input, output: 2, cached: 0, thoughts: 0, tool: 0, total: input + 2 } });

function growLineByLine(lines: unknown[]): ReturnType<typeof analyzeSession>[] {
  const follower = new SessionFollower(NAME, (bytes) => new TextDecoder().decode(bytes), { detectAfterChars: 1 });
  const analyses: ReturnType<typeof analyzeSession>[] = [];
  lines.forEach((line, at) => {
    follower.append(new TextEncoder().encode(`${JSON.stringify(line)}\n`));
    const grown = follower.session();
    if (!grown) return;
    const analysis = analyzeSession(grown, OPTIONS);
    const fresh = readSessionText(lines.slice(0, at + 1).map((item) => JSON.stringify(item)).join("\n"), NAME)!;
    expect(analysis).toEqual(analyzeSession(fresh, OPTIONS));
    analyses.push(analysis);
  });
  return analyses;
}

describe("a Gemini CLI chat that grows", () => {
  it("keeps earlier turn summaries, and makes a turn again when its answer is written again", () => {
    const analyses = growLineByLine([
      META,
      user("u1", "first"),
      gemini("g1", "one", 10),
      user("u2", "second"),
      gemini("g2", "two", 20),
      // The CLI writes an answer again (its tool calls, its final tokens).
      gemini("g2", "two, in full", 25),
      user("u3", "third"),
      gemini("g3", "three", 30),
    ]);
    const last = analyses[analyses.length - 1]!;
    expect(last.turns.map((turn) => turn.usage?.input)).toEqual([10, 25, 30]);
    const firstWithTwo = analyses.find((analysis) => analysis.turns.length === 2)!;
    expect(last.turns[0]).toBe(firstWithTwo.turns[0]);
    expect(last.turns[1]).not.toBe(firstWithTwo.turns[1]);
  });

  it("reads a rewind and a $set record appended later as a fresh read does", () => {
    const analyses = growLineByLine([
      META,
      user("u1", "first"),
      gemini("g1", "one", 10),
      user("u2", "second"),
      gemini("g2", "two", 20),
      { $rewindTo: "u2" },
      user("u2b", "second, again"),
      gemini("g2b", "two again", 15),
      { $set: { messages: [user("u1", "first"), gemini("g1", "one", 10), user("u2b", "second, again"), gemini("g2b", "two again", 15)] } },
      user("u3", "third"),
      gemini("g3", "three", 30),
    ]);
    expect(analyses[analyses.length - 1]!.turns).toHaveLength(4);
  });
});
