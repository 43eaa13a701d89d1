// What a Codex session keeps of the context messages it made: those of the window asked for last
// only (turns.ts, `windowMessages`). A walk past a compaction lets the earlier window's messages,
// their views and the call arguments the views parsed go; a turn of that window asked for again
// gets messages made again, with the same values.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateAgentSession } from "../../../../bench/generate-agent-session";
import { readSessionText } from "../../../../src/core/session/index";
import { buildTurnContext } from "../../../../src/core/session/pipeline";
import { getCodexIndex } from "../../../../src/core/agents/codex/rollout-index";

const generated = generateAgentSession("codex", { minBytes: 60 * 1024, seed: 3, callsPerCompaction: 5 });
const text = readFileSync(generated.file, "utf8");

describe("the context messages a Codex session keeps", () => {
  it("are the last window's: a turn of an earlier window asked for again has its messages made again", () => {
    const session = readSessionText(text, "rollout.jsonl")!;
    const turns = getCodexIndex(session).turns;
    const first = turns.find((turn) => turn.window === 0 && turn.historyLength > 2)!;
    const later = turns.find((turn) => turn.window > 0)!;
    expect(first && later).toBeTruthy();
    const before = buildTurnContext(session, {}, first.turn).messages;
    // The same window again: the same messages.
    expect(buildTurnContext(session, {}, first.turn).messages[1]).toBe(before[1]);
    buildTurnContext(session, {}, later.turn);
    const again = buildTurnContext(session, {}, first.turn).messages;
    expect(again[1]).not.toBe(before[1]);
    expect(again[1]!.message).not.toBe(before[1]!.message);
    expect(JSON.stringify(again)).toBe(JSON.stringify(before));
  });
});
