// The requests of one long active loop (a prompt, then a tool call and its response per turn) go
// on from the previous request's contents (contents.ts `LoopHead`): each message goes through the
// steps about once in the whole loop, not once per later turn, and every request still equals the
// contents folded from the top — also when an answer inside the loop is rewritten (a copied list)
// and when a new prompt starts the next loop; a chat of prompts and answers goes on from the
// previous request too, each message through the steps once; a content signed alike in and after
// the loop stays one content, and one signed both ways keeps one sourced content (one context message).
import { describe, expect, it } from "vitest";
import { historyRequestContents, mainRequestContents } from "../../../../src/core/agents/gemini-cli/contents";
import type { HistoryMessage } from "../../../../src/core/agents/gemini-cli/history";

let n = 0;
const reads = new Map<string, number>();

/** A message whose record counts the reads of its content. */
function message(type: string, content: unknown): HistoryMessage {
  const id = `m${++n}`;
  const record: Record<string, unknown> = { id, type };
  Object.defineProperty(record, "content", {
    enumerable: true,
    get: () => {
      reads.set(id, (reads.get(id) ?? 0) + 1);
      return content;
    },
  });
  return { id, type, record, entryId: `e${n}` };
}

function step(t: number): HistoryMessage[] {
  return [message("gemini", [{ functionCall: { id: `c${t}`, name: "step", args: { t } } }]), message("user", [{ functionResponse: { id: `c${t}`, name: "step", response: { output: `out ${t}` } } }])];
}

const rendered = (value: unknown) => JSON.stringify(value);

describe("Gemini CLI contents of a long active loop", () => {
  it("fold each message about once in the loop, and equal the contents folded from the top", () => {
    const list: HistoryMessage[] = [message("user", [{ text: "start" }]), message("gemini", "ok"), message("user", [{ text: "loop" }])];
    const lengths: number[] = [list.length];
    for (let t = 0; t < 60; t++) {
      list.push(...step(t));
      lengths.push(list.length);
    }
    for (const length of lengths) {
      const got = historyRequestContents(list, length);
      reads.clear();
      const want = mainRequestContents(list.slice(0, length));
      reads.clear();
      expect(rendered(got.wire)).toBe(rendered(want.wire));
    }
    reads.clear();
    const again: HistoryMessage[] = [message("user", [{ text: "start" }]), message("gemini", "ok"), message("user", [{ text: "loop" }])];
    for (let t = 0; t < 60; t++) {
      again.push(...step(t));
      historyRequestContents(again, again.length);
    }
    // Without the loop head, the first step's messages went through the steps once per later turn (60 times).
    expect(Math.max(...reads.values())).toBeLessThanOrEqual(4);
  });

  it("equal the contents folded from the top when an answer in the loop is rewritten and when a new prompt comes", () => {
    const list: HistoryMessage[] = [message("user", [{ text: "loop" }])];
    for (let t = 0; t < 5; t++) list.push(...step(t));
    historyRequestContents(list, list.length);
    // A copy of the list with its last answer rewritten (as the fold copies a list a turn holds).
    const copy = list.slice();
    copy[copy.length - 2] = message("gemini", [{ functionCall: { id: "c4", name: "step", args: { rewritten: true } } }]);
    copy.push(...step(5));
    const rewritten = historyRequestContents(copy, copy.length);
    expect(rendered(rewritten.wire)).toBe(rendered(mainRequestContents(copy).wire));
    copy.push(message("gemini", "done"), message("user", [{ text: "next prompt" }]));
    const next = historyRequestContents(copy, copy.length);
    expect(rendered(next.wire)).toBe(rendered(mainRequestContents(copy).wire));
    copy.push(...step(6));
    const after = historyRequestContents(copy, copy.length);
    expect(rendered(after.wire)).toBe(rendered(mainRequestContents(copy).wire));
  });

  it("keep a content signing leaves unchanged as one content, and share the sourced content of one signed both ways", () => {
    const list: HistoryMessage[] = [
      message("user", [{ text: "go" }]),
      // Signed in the file already: step 4 leaves it as it is, in the active loop and after it.
      message("gemini", [{ functionCall: { id: "s1", name: "step", args: {} }, thoughtSignature: "recorded" }]),
      message("user", [{ functionResponse: { id: "s1", name: "step", response: { output: "a" } } }]),
      // Unsigned: signed in the active loop only.
      message("gemini", [{ functionCall: { id: "s2", name: "step", args: {} } }]),
      message("user", [{ functionResponse: { id: "s2", name: "step", response: { output: "b" } } }]),
    ];
    const inLoop = historyRequestContents(list, list.length);
    const inLoopWire = [...inLoop.wire];
    const inLoopSourced = [...inLoop.sourced];
    list.push(message("gemini", "done"), message("user", [{ text: "next" }]));
    const after = historyRequestContents(list, list.length);
    expect(rendered(after.wire)).toBe(rendered(mainRequestContents(list).wire));
    expect(after.wire[1]).toBe(inLoopWire[1]);
    expect(after.wire[3]).not.toBe(inLoopWire[3]);
    expect(rendered(after.wire[3])).not.toBe(rendered(inLoopWire[3]));
    expect(after.sourced[3]).toBe(inLoopSourced[3]);
  });

  it("go on from the previous request at each new prompt: a chat of prompts and answers folds each message once", () => {
    const list: HistoryMessage[] = [message("user", [{ text: "p0" }])];
    const lengths: number[] = [list.length];
    for (let t = 1; t <= 60; t++) {
      list.push(message("gemini", `a${t}`), message("user", [{ text: `p${t}` }]));
      lengths.push(list.length);
    }
    reads.clear();
    for (const length of lengths) historyRequestContents(list, length);
    // From the last checkpoint, the answer and prompt before the last went through the steps again at every prompt.
    expect(Math.max(...reads.values())).toBeLessThanOrEqual(2);
    for (const length of lengths) {
      const got = historyRequestContents(list, length);
      expect(rendered(got.wire)).toBe(rendered(mainRequestContents(list.slice(0, length)).wire));
    }
  });

  it("equal the contents folded from the top when each prompt's loop of signed calls ends with the next prompt", () => {
    const list: HistoryMessage[] = [message("user", [{ text: "p0" }])];
    let previous: readonly object[] = [];
    for (let t = 1; t <= 12; t++) {
      for (let s = 0; s < t % 3; s++) list.push(...step(t * 10 + s));
      list.push(message("gemini", `a${t}`), message("user", [{ text: `p${t}` }]));
      const got = historyRequestContents(list, list.length);
      expect(rendered(got.wire)).toBe(rendered(mainRequestContents(list).wire));
      // The items it says it kept are the previous request's.
      for (let i = 0; i < got.kept; i++) expect(got.wire[i]).toBe(previous[i]);
      previous = [...got.wire];
    }
  });
});
