// A chat whose answers are written again after a later request was sent (their final tokens)
// gives every turn a copy of the history list (history.ts `historyLineage`); the copy's request
// contents start from the list it was copied from (contents.ts). They must equal the contents
// folded from the top for every turn, asked in order, again, backwards and out of order, and share
// the earlier turn's content objects where the histories agree. An answer written again before the
// next request (its tool calls) is past what any turn reads: the list is not copied for it.
import { describe, expect, it } from "vitest";
import { historyRequestContents, mainRequestContents } from "../../../../src/core/agents/gemini-cli/contents";
import { getGeminiIndex, historyLineage, turnHistory } from "../../../../src/core/agents/gemini-cli/history";
import { readSessionText } from "../../../../src/core/session/index";

const NAME = "session-2026-01-01T00-00-s1.jsonl";
const META = { sessionId: "s-1", projectHash: "abc", startTime: "2026-01-01T00:00:00.000Z", lastUpdated: "2026-01-01T00:00:00.000Z", kind: "main" };
const user = (id: string, content: unknown) => ({ id, timestamp: "t", type: "user", content });
const gemini = (id: string, content: unknown, extra: Record<string, unknown> = {}) => ({ id, timestamp: "t", type: "gemini", content, model: "gemini-2.5-flash", ...extra });

/**
 * Prompts answered by tool loops; every answer is written twice, the second time with its tool
 * call; with `late`, each step's answer a third time after the next step's answer was first written.
 */
function lines(late = true): unknown[] {
  const out: unknown[] = [META];
  for (let p = 0; p < 5; p++) {
    out.push(user(`u${p}`, [{ text: `prompt ${p}` }]));
    for (let s = 0; s < 3; s++) {
      const id = `g${p}.${s}`;
      const call = { functionCall: { id: `read__${p}${s}`, name: "read", args: { s } } };
      out.push(gemini(id, ""));
      out.push(gemini(id, [{ text: "thinking", thought: true }, call]));
      out.push(user(`r${p}.${s}`, [{ functionResponse: { id: `read__${p}${s}`, name: "read", response: { output: `file ${p}.${s}` } } }]));
      if (late && s > 0) out.push(gemini(`g${p}.${s - 1}`, [{ text: "thinking", thought: true }, { functionCall: { id: `read__${p}${s - 1}`, name: "read", args: { s: s - 1 } } }], { tokens: { input: 10 * s } }));
    }
    out.push(gemini(`a${p}`, `answer ${p}`));
  }
  // A rewind cuts the list: the next list shares only what stands before the rewound message.
  // Rewound past checkpoints: the lists after it grow checkpoints of their own, which the lists
  // before it do not have.
  out.push({ $rewindTo: "u2" });
  for (let p = 5; p < 8; p++) {
    out.push(user(`u${p}`, [{ text: `again ${p}` }]));
    out.push(gemini(`g${p}`, [{ functionCall: { id: `c${p}`, name: "ls", args: {} } }]));
    out.push(user(`r${p}`, [{ functionResponse: { id: `c${p}`, name: "ls", response: { output: "a" } } }]));
    out.push(gemini(`a${p}`, `answer again ${p}`));
    out.push(gemini(`a${p}`, `answer again ${p}, in full`));
  }
  return out;
}

const rendered = (value: unknown) => JSON.stringify(value);

describe("Gemini CLI contents of a history copied from another", () => {
  it.each([true, false])("equal the contents folded from the top for every turn, in any order (answers written again late: %s)", (late) => {
    const session = readSessionText(lines(late).map((line) => JSON.stringify(line)).join("\n"), NAME)!;
    const turns = getGeminiIndex(session).turns;
    expect(turns.filter((turn) => historyLineage(turn.historyBase) !== undefined).length).toBeGreaterThan(late ? 10 : 0);
    const numbers = turns.map((_, i) => i);
    for (const order of [numbers, numbers, [...numbers].reverse(), [3, 17, 2, 9, 20, 1, 19, 24, 12, 25, 14]]) {
      for (const at of order) {
        const turn = turns[at]!;
        const got = historyRequestContents(turn.historyBase, turn.historyLength);
        const want = mainRequestContents(turnHistory(turn));
        expect(rendered(got.wire)).toBe(rendered(want.wire));
        expect(got.sourced.map((c) => [c.role, c.sources.map((s) => s.id), c.notes])).toEqual(want.sourced.map((c) => [c.role, c.sources.map((s) => s.id), c.notes]));
      }
    }
  });

  it("gives the next turn the previous turn's content objects", () => {
    const session = readSessionText(lines().map((line) => JSON.stringify(line)).join("\n"), NAME)!;
    const turns = getGeminiIndex(session).turns;
    const a = turns[5]!;
    const b = turns[6]!;
    expect(b.historyBase).not.toBe(a.historyBase);
    const first = historyRequestContents(a.historyBase, a.historyLength);
    const firstWire = first.wire.slice();
    const next = historyRequestContents(b.historyBase, b.historyLength);
    expect(next.wire[0]).toBe(firstWire[0]);
    expect(next.wire[2]).toBe(firstWire[2]);
    expect(next.kept).toBeGreaterThan(2);
  });

  it("keeps one list for the turns of a chat whose answers are written again before the next request", () => {
    const session = readSessionText(lines(false).map((line) => JSON.stringify(line)).join("\n"), NAME)!;
    const turns = getGeminiIndex(session).turns;
    // Before the rewind, every turn reads the same list (one copy per turn before: 20 lists).
    const beforeRewind = turns.filter((turn) => turn.historyBase.some((message) => message.id === "u4"));
    expect(beforeRewind.length).toBe(20);
    expect(new Set(beforeRewind.map((turn) => turn.historyBase)).size).toBe(1);
    // What each turn read is still its history: the answer written again stands past it.
    for (const turn of beforeRewind) expect(turnHistory(turn).every((message) => message.type !== "gemini" || Array.isArray(message.record.content) || message.record.content !== "")).toBe(true);
  });
});
