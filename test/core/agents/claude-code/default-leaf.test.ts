// The default leaf (the last prompt's leaf, then the last entry under it) is found once per
// growth of the session, not once per turn: finding it walks the file's entries, so a walk per
// turn made every turn cost the whole session.
import { describe, expect, it } from "vitest";
import { getClaudeIndex } from "../../../../src/core/agents/claude-code/session-index";
import type { PipelineOptions, SessionEntry } from "../../../../src/core/model";
import { buildTurnRequest, countTurns } from "../../../../src/core/session/pipeline";
import { SESSION_ID, assistant, readClaude, user } from "./helpers";

const TURNS = 30;

function lines(): unknown[] {
  const out: unknown[] = [];
  let parent: string | null = null;
  for (let i = 1; i <= TURNS; i++) {
    out.push(user(`u${i}`, parent, `prompt ${i}`));
    out.push(assistant(`a${i}`, `u${i}`, `msg_${i}`, [{ type: "text", text: `answer ${i}` }]));
    parent = `a${i}`;
  }
  // The last prompt names an early entry: the default leaf is the last entry under it.
  out.push({ type: "last-prompt", leafUuid: "u1", sessionId: SESSION_ID });
  return out;
}

describe("the default leaf of a session asked for by every turn", () => {
  it("is found with one pass over the entries, not one per turn", () => {
    const session = readClaude(lines());
    const index = getClaudeIndex(session);
    let reads = 0;
    const entries = index.conversation;
    index.conversation = new Proxy(entries, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    }) as SessionEntry[];
    const options: PipelineOptions = {};
    const count = countTurns(session, options);
    expect(count).toBe(TURNS);
    for (let turn = 1; turn <= count; turn++) buildTurnRequest(session, options, turn);
    // One pass is about two reads per entry (finding the leaf, then the walk under it).
    expect(reads).toBeLessThanOrEqual(4 * entries.length);
    const last = buildTurnRequest(session, options, count).body.messages as Record<string, unknown>[];
    expect(last[last.length - 1]).toMatchObject({ role: "user" });
    expect(last.length).toBe(2 * TURNS - 1);
  });
});
