// A session walk serializes turn N+1's messages right after turn N's, which start the same way:
// the transform and the wire list go on from the previous call (transform.ts, carried-wire.ts).
// Every request built that way must equal the one built from scratch (the carry dropped by an
// unrelated request in between), in every wire shape.
import { describe, expect, it } from "vitest";
import type { ApiId, LlmMessage } from "../../../src/core/model";
import { getSerializer } from "../../../src/core/providers";
import { sharedHeadWith } from "../../../src/core/util/list-lineage";
import { PNG, assistant, header, result, testModel, user } from "./helpers";

const APIS: ApiId[] = ["anthropic-messages", "openai-completions", "openai-responses", "google-generative-ai"];

function timeline(api: ApiId): LlmMessage[] {
  const call = (id: string, name = "bash") => ({ type: "toolCall" as const, id, name, arguments: { command: id } });
  return [
    user("start"),
    assistant(api, [{ type: "thinking", thinking: "plan", thinkingSignature: "sig" }, call("c1|fc_1"), call("c2|fc_2")]),
    result("c1|fc_1", "one"),
    // The run of results grows on the next turn.
    result("c2|fc_2", "two"),
    assistant(api, [{ type: "text", text: "done" }]),
    user("again"),
    // A call left without a result, then an errored answer, then a user message.
    assistant(api, [call("c3")]),
    assistant(api, [{ type: "text", text: "broken" }], { stopReason: "error" }),
    { role: "user", content: [{ type: "text", text: "look" }, PNG] },
    // Another model's answer: its thinking is sent as text, its call ids normalised.
    assistant(api, [{ type: "thinking", thinking: "other" }, call("c4|x.y")], { provider: "elsewhere", model: "other" }),
    result("c4|x.y", "four"),
    user("end"),
  ];
}

describe("requests carried from the previous turn", () => {
  for (const api of APIS) {
    it(`${api}: each turn's request equals the one built from scratch`, () => {
      const serializer = getSerializer(api);
      const model = testModel(api, { supportsImages: true });
      const messages = timeline(api);
      const build = (list: LlmMessage[]) => serializer.serialize({ model, messages: list, header: header(api), thinkingLevel: "off" });
      const carried = [];
      for (let k = 1; k <= messages.length; k++) carried.push(build(messages.slice(0, k)));
      for (let k = 1; k <= messages.length; k++) {
        build([user("unrelated")]);
        const fresh = build(messages.slice(0, k));
        expect(JSON.stringify(carried[k - 1]!.body)).toBe(JSON.stringify(fresh.body));
        expect(carried[k - 1]!.adjustments).toEqual(fresh.adjustments);
      }
      // The timeline exercises the transform: a synthetic result, a skipped message, thinking as text.
      const kinds = new Set(carried[messages.length - 1]!.adjustments.map((adjustment) => adjustment.kind));
      expect(kinds).toEqual(new Set(["synthesized-tool-result", "skipped-message", "thinking-as-text"]));
    });

    it(`${api}: a shorter or different list after a longer one starts again`, () => {
      const serializer = getSerializer(api);
      const model = testModel(api);
      const messages = timeline(api);
      const build = (list: LlmMessage[]) => serializer.serialize({ model, messages: list, header: header(api), thinkingLevel: "off" });
      build(messages);
      const short = JSON.stringify(build(messages.slice(0, 3)).body);
      const edited = [...messages.slice(0, 5), user("changed"), ...messages.slice(6)];
      const editedBody = JSON.stringify(build(edited).body);
      build([user("unrelated")]);
      expect(short).toBe(JSON.stringify(build(messages.slice(0, 3)).body));
      build([user("unrelated")]);
      expect(editedBody).toBe(JSON.stringify(build(edited).body));
      expect(editedBody).toContain("changed");
    });
  }

  for (const api of ["anthropic-messages", "openai-completions", "openai-responses"] as const) {
    it(`${api}: a growing input list goes on without comparing, and each request's list names its shared head`, () => {
      const serializer = getSerializer(api);
      // A reasoning gpt-5 model with thinking off: the Responses shape appends its developer item.
      const model = testModel(api, { supportsImages: true, reasoning: true, id: "gpt-5-test" });
      const messages = timeline(api);
      const growing: LlmMessage[] = [];
      const listOf = (body: Record<string, unknown>) => (body.messages ?? body.input) as unknown[];
      let previous: unknown[] | null = null;
      for (const message of messages) {
        growing.push(message);
        const carried = serializer.serialize({ model, messages: growing, messagesGrowing: true, header: header(api), thinkingLevel: "off" });
        const fresh = serializer.serialize({ model, messages: [...growing], header: header(api), thinkingLevel: "off" });
        // The fresh call dropped the carry: the next growing call starts again, and still agrees.
        expect(JSON.stringify(carried.body)).toBe(JSON.stringify(fresh.body));
        expect(carried.adjustments).toEqual(fresh.adjustments);
        const list = listOf(carried.body);
        if (previous) {
          let same = 0;
          while (same < Math.min(list.length, previous.length) && list[same] === previous[same]) same++;
          // Recorded against the carried call before it; the fresh call in between recorded its own.
          expect(sharedHeadWith(list, previous) ?? 0).toBeLessThanOrEqual(same);
        }
        previous = listOf(fresh.body);
      }
      // Two growing calls in a row: the second's list names exactly what it shares with the first's.
      growing.length = 0;
      let last: unknown[] | null = null;
      let exact = 0;
      for (const message of messages) {
        growing.push(message);
        const list = listOf(serializer.serialize({ model, messages: growing, messagesGrowing: true, header: header(api), thinkingLevel: "off" }).body);
        if (last) {
          let same = 0;
          while (same < Math.min(list.length, last.length) && list[same] === last[same]) same++;
          // Nothing shared is not recorded (undefined).
          expect(sharedHeadWith(list, last) ?? 0).toBe(same);
          if (same > 0) exact++;
        }
        last = list;
      }
      expect(exact).toBeGreaterThan(messages.length / 2);
    });
  }
});
