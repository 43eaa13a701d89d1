// Property tests over generated sessions (issue #3 "Done when"): notes never make two user
// messages adjacent, re-conversion adds no second note, and for consecutive turns without
// compaction the earlier request is a byte prefix of the later one (RL-28).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createReplyLanguageStep, insertReplyLanguageNotes } from "../../../src/core/notes";
import type { ContextMessage } from "../../../src/core/model";
import { assistant, rendered, tool, user } from "./helpers";

const userTexts = [
  "이 함수 좀 고쳐줘",
  "Please fix this function",
  "영어로 답해줘",
  "please reply in Korean from now on",
  "このバグを直してください",
  "```\ncode only\n```",
  "Reply language: Korean",
  "Reply language: Klingon",
];

/** A turn: the user's prompt, then tool rounds (each: assistant call + 1-3 results, maybe user words or a notice). */
const turnArb = fc.record({
  prompt: fc.constantFrom(...userTexts),
  rounds: fc.array(
    fc.record({
      results: fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 3 }),
      follower: fc.constantFrom("none", "none", "none", "user-words", "notice"),
    }),
    { maxLength: 4 },
  ),
});

/** The contexts of consecutive requests (each is the context at one provider call), growing. */
interface Turn {
  prompt: string;
  rounds: { results: number[]; follower: string }[];
}

function requests(turns: Turn[]): ContextMessage[][] {
  const context: ContextMessage[] = [];
  const out: ContextMessage[][] = [];
  let id = 0;
  for (const turn of turns) {
    context.push(user(turn.prompt, `u${id++}`));
    out.push([...context]);
    for (const round of turn.rounds) {
      context.push(assistant(`a${id++}`));
      for (const chars of round.results) context.push(tool(chars, `t${id++}`));
      if (round.follower === "user-words") context.push(rendered("user-words", 20));
      if (round.follower === "notice") context.push(rendered("render:custom", 500));
      out.push([...context]);
    }
    context.push(assistant(`a${id++}`, "done"));
  }
  return out;
}

const isNote = (m: ContextMessage) => m.provenance.rule === "note:reply-language";

describe("properties over generated sessions", () => {
  it("no note is adjacent to another user-role message; notes follow tool results", () => {
    fc.assert(
      fc.property(fc.array(turnArb, { minLength: 1, maxLength: 5 }), fc.integer({ min: 500, max: 6000 }), (turns, threshold) => {
        for (const ctx of requests(turns)) {
          const out = insertReplyLanguageNotes(ctx, { thresholdChars: threshold });
          out.forEach((m, i) => {
            if (!isNote(m)) return;
            expect(out[i - 1]?.message.role).toBe("toolResult");
            const next = out[i + 1];
            if (next) expect(next.message.role).toBe("assistant");
          });
        }
      }),
      { numRuns: 150 },
    );
  });

  it("converting an already converted context adds no second note", () => {
    fc.assert(
      fc.property(fc.array(turnArb, { minLength: 1, maxLength: 5 }), fc.integer({ min: 500, max: 6000 }), fc.boolean(), (turns, threshold, reset) => {
        const options = { thresholdChars: threshold, resetAfterNote: reset };
        const all = requests(turns);
        const last = all[all.length - 1] as ContextMessage[];
        const once = insertReplyLanguageNotes(last, options);
        const twice = insertReplyLanguageNotes(once, options);
        expect(twice).toEqual(once);
      }),
      { numRuns: 150 },
    );
  });

  it("RL-28: each request is a byte prefix of the next, notes included", () => {
    fc.assert(
      fc.property(fc.array(turnArb, { minLength: 1, maxLength: 5 }), fc.integer({ min: 500, max: 6000 }), (turns, threshold) => {
        const step = createReplyLanguageStep({ thresholdChars: threshold });
        const serialized = requests(turns).map((ctx) => step(ctx).map((m) => JSON.stringify(m.message)));
        for (let k = 1; k < serialized.length; k++) {
          const before = serialized[k - 1] as string[];
          const after = serialized[k] as string[];
          expect(after.slice(0, before.length)).toEqual(before);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("#20 the run at the end of request N keeps its note when an assistant follows at N+1", () => {
    const n = [user("이 함수 좀 고쳐줘"), assistant(), tool(5000)];
    const next = [...n, assistant("a", "done")];
    const a = insertReplyLanguageNotes(n).map((m) => JSON.stringify(m.message)).join("\n");
    const b = insertReplyLanguageNotes(next).map((m) => JSON.stringify(m.message)).join("\n");
    expect(b.startsWith(a)).toBe(true);
    expect(a).toContain("Reply language: Korean");
  });
});
