// What a Codex session keeps of the context messages and input items it made: those of the window
// asked for last only (turns.ts, `keptWindow`). A walk past a compaction lets the earlier window's
// messages, their views, the call arguments the views parsed and its input items (with what the
// segmenter keeps by them) go; a turn of that window asked for again gets them made again, with
// the same values.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateAgentSession } from "../../../../bench/generate-agent-session";
import { readSessionText } from "../../../../src/core/session/index";
import { buildTurnContext, buildTurnRequest } from "../../../../src/core/session/pipeline";
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

  it("a request's input items are copies of the history items, kept for the last window only", () => {
    const session = readSessionText(text, "rollout.jsonl")!;
    const index = getCodexIndex(session);
    const first = index.turns.find((turn) => turn.window === 0 && turn.historyLength > 2)!;
    const later = index.turns.find((turn) => turn.window > 0)!;
    const input = () => buildTurnRequest(session, {}, first.turn).body.input as Record<string, unknown>[];
    const before = input();
    // Not the line's own payload, which lives as long as the session.
    expect(before[1]).not.toBe(index.windows[0]![0]);
    expect(before[1]).toEqual(index.windows[0]![0]);
    expect(input()[1]).toBe(before[1]);
    buildTurnRequest(session, {}, later.turn);
    const again = input();
    expect(again[1]).not.toBe(before[1]);
    expect(JSON.stringify(again)).toBe(JSON.stringify(before));
  });
});
