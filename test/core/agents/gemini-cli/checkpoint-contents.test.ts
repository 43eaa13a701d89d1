// A chat's request contents folded from the last checkpoint (contents.ts `historyRequestContents`)
// equal the contents folded from the top (`mainRequestContents`) at every length of the history,
// asked in order, again from the start, and out of order — including the cases the checkpoint must
// not cross: a model run left out for an invalid content, answers whose tool results are rebuilt,
// consecutive user messages merged, and a long active loop.
import { describe, expect, it } from "vitest";
import { historyRequestContents, mainRequestContents } from "../../../../src/core/agents/gemini-cli/contents";
import type { HistoryMessage } from "../../../../src/core/agents/gemini-cli/history";

let n = 0;
function message(type: string, content: unknown, extra: Record<string, unknown> = {}): HistoryMessage {
  const id = `m${++n}`;
  return { id, type, record: { id, type, content, ...extra }, entryId: `e${n}` };
}

function history(): HistoryMessage[] {
  const list: HistoryMessage[] = [];
  for (let t = 0; t < 6; t++) {
    list.push(message("user", [{ text: `prompt ${t}` }]));
    list.push(message("gemini", `answer ${t}`));
  }
  // An invalid model content (empty text) in a run: the run is left out and two user contents meet.
  list.push(message("user", [{ text: "before invalid" }]));
  list.push(message("gemini", [{ text: "" }]));
  list.push(message("user", [{ text: "after invalid" }]));
  list.push(message("gemini", "fine"));
  // An answer with tool calls and no recorded response: its results are rebuilt after it.
  list.push(message("user", [{ text: "use a tool" }]));
  list.push(message("gemini", "", { toolCalls: [{ id: "read__1", name: "read", args: {}, result: "file text" }] }));
  list.push(message("gemini", [{ text: "thinking", thought: true }, { functionCall: { id: "c2", name: "ls", args: {} } }]));
  list.push(message("user", [{ functionResponse: { id: "c2", name: "ls", response: { output: "a" } } }]));
  list.push(message("gemini", "done"));
  list.push(message("info", "not sent"));
  list.push(message("user", [{ text: "one" }]));
  list.push(message("user", [{ text: "two" }]));
  list.push(message("gemini", "merged"));
  for (let t = 0; t < 4; t++) list.push(message("gemini", [{ functionCall: { id: `l${t}`, name: "step", args: {} } }]), message("user", [{ functionResponse: { id: `l${t}`, name: "step", response: {} } }]));
  list.push(message("gemini", "end"));
  return list;
}

const rendered = (value: unknown) => JSON.stringify(value);

describe("Gemini CLI contents from the last checkpoint", () => {
  it("equal the contents folded from the top at every length, in order, again and out of order", () => {
    const list = history();
    const expected = (length: number) => mainRequestContents(list.slice(0, length));
    const lengths = list.map((_, i) => i + 1);
    for (const order of [lengths, lengths, [...lengths].reverse(), [7, 30, 3, 19, 31, 12]]) {
      for (const length of order) {
        const got = historyRequestContents(list, length);
        const want = expected(length);
        expect(rendered(got.wire)).toBe(rendered(want.wire));
        expect(got.sourced.map((c) => [c.role, c.sources.map((s) => s.id), c.notes])).toEqual(want.sourced.map((c) => [c.role, c.sources.map((s) => s.id), c.notes]));
      }
    }
  });

  it("gives a later request the earlier request's content objects before the checkpoint", () => {
    const list = history();
    const first = historyRequestContents(list, 10);
    const later = historyRequestContents(list, 12);
    expect(later.wire[0]).toBe(first.wire[0]);
    expect(later.sourced[2]).toBe(first.sourced[2]);
  });
});
