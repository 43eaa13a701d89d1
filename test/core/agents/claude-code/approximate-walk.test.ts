// The approximated requests of a branch are one walk: asked in order, each turn's messages are the
// previous turn's objects followed by new ones (per-message work downstream is cached by object),
// and they equal the messages a walk made for that turn alone gives.
import { describe, expect, it } from "vitest";
import { approximateMessages, approximateParts } from "../../../../src/core/agents/claude-code/approximate";
import { getClaudeBranch } from "../../../../src/core/agents/claude-code/turns";
import { defaultLeaf, getClaudeIndex } from "../../../../src/core/agents/claude-code/session-index";
import { assistant, attachment, boundary, readClaude, user } from "./helpers";

const toolUse = (id: string) => ({ type: "tool_use", id, name: "Bash", input: { command: "ls" } });
const result = (id: string, text: string) => [{ type: "tool_result", tool_use_id: id, content: text }];

function session() {
  return readClaude([
    user("u1", null, "first prompt"),
    assistant("a1", "u1", "m1", [{ type: "thinking", thinking: "hmm", signature: "s" }]),
    assistant("a2", "a1", "m1", [toolUse("t1")]),
    user("r1", "a2", result("t1", "one")),
    assistant("a3", "r1", "m2", [{ type: "text", text: "done" }]),
    attachment("x1", "a3", { type: "todo" }, ["<system-reminder>\nnote\n</system-reminder>"], "system"),
    user("u2", "x1", "second prompt"),
    assistant("a4", "u2", "m3", [toolUse("t2")]),
    user("r2", "a4", result("t2", "two")),
    assistant("a5", "r2", "m4", [{ type: "text", text: "again" }]),
    boundary("b1", "a5"),
    user("u3", "b1", "after the compaction"),
    assistant("a6", "u3", "m5", [{ type: "text", text: "ok" }]),
    user("u4", "a6", "last prompt"),
    assistant("a7", "u4", "m6", [{ type: "text", text: "bye" }]),
  ]);
}

function plain(messages: ReturnType<typeof approximateMessages>) {
  return messages.map((item) => ({ message: item.message, entryIds: item.entryIds }));
}

describe("approximated requests as one walk", () => {
  it("gives each turn the messages a walk for that turn alone gives, in order and out of order", () => {
    const s = session();
    const index = getClaudeIndex(s);
    const branch = getClaudeBranch(s, defaultLeaf(index)!);
    expect(branch.turns.length).toBe(6);
    const alone = branch.turns.map((turn) => plain(approximateMessages(index, branch.path.slice(), turn.pathIndex)));
    const inOrder = branch.turns.map((turn) => plain(approximateMessages(index, branch.path, turn.pathIndex)));
    expect(inOrder).toEqual(alone);
    const backwards = [...branch.turns].reverse().map((turn) => plain(approximateMessages(index, branch.path, turn.pathIndex)));
    expect(backwards.reverse()).toEqual(alone);
    // The tool result is merged after the answer it belongs to; the compaction starts over.
    expect(alone[1]!.map((item) => item.message.role)).toEqual(["user", "assistant", "user"]);
    expect(alone[4]!.map((item) => item.entryIds)).toEqual([["u3"]]);
  });

  it("shares the previous turn's message objects until a compaction", () => {
    const s = session();
    const index = getClaudeIndex(s);
    const branch = getClaudeBranch(s, defaultLeaf(index)!);
    const path = branch.path.slice();
    const turns = branch.turns.map((turn) => approximateMessages(index, path, turn.pathIndex).map((item) => item.message));
    for (const [previous, next] of [[turns[0]!, turns[1]!], [turns[1]!, turns[2]!], [turns[2]!, turns[3]!], [turns[4]!, turns[5]!]] as const) {
      expect(next.length).toBeGreaterThan(previous.length);
      previous.forEach((message, i) => expect(next[i]).toBe(message));
    }
    expect(turns[4]![0]).not.toBe(turns[3]![0]);
  });

  it("keeps the parts of the current walk only: a second pass shares them until a compaction, and nothing of a walk before one stays", () => {
    const s = session();
    const index = getClaudeIndex(s);
    const branch = getClaudeBranch(s, defaultLeaf(index)!);
    const path = branch.path.slice();
    const [first, second, , , afterCompaction, last] = branch.turns.map((turn) => turn.pathIndex) as number[];
    const one = approximateParts(index, path, first!);
    const two = approximateParts(index, path, second!);
    // Asked again within the same walk (a second pass before any compaction): the same parts.
    expect(approximateParts(index, path, first!)).toBe(one);
    expect(approximateParts(index, path, second!)).toBe(two);
    const after = approximateParts(index, path, afterCompaction!);
    approximateParts(index, path, last!);
    // The walk before the compaction is gone: asked again, its turns are walked again, new objects.
    const again = approximateParts(index, path, second!);
    expect(again).not.toBe(two);
    expect(again.base).not.toBe(two.base);
    const assistantOf = (parts: typeof two) => [...parts.base.slice(0, parts.baseLength), ...parts.extra].find((item) => item.message.role === "assistant")!.message;
    expect(assistantOf(again)).not.toBe(assistantOf(two));
    expect(assistantOf(again)).toEqual(assistantOf(two));
    expect(approximateParts(index, path, afterCompaction!)).not.toBe(after);
  });
});

