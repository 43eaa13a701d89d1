// The index keeps every content of a chat as long as the session (the compressions' requests read
// the histories they replaced), so the wire messages made of a content must not live on it once
// the calls walked forwards no longer send it: else every message ever sent, and everything later
// stages keep by it (its segments, its view), grows with the chat. Sent again (a walk that goes
// back), its messages are made again, the same values.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateAgentSession } from "../../../../bench/generate-agent-session";
import { readSessionText } from "../../../../src/core/session/index";
import { buildTurnRequest, countTurns } from "../../../../src/core/session/pipeline";
import { getQwenIndex } from "../../../../src/core/agents/qwen-code/history";

const chat = () => {
  const generated = generateAgentSession("qwen-code", { minBytes: 200 * 1024, seed: 5, callsPerCompaction: 10 });
  return { name: path.basename(generated.file), text: readFileSync(generated.file, "utf8") };
};

describe("Qwen Code wire messages of contents no longer sent", () => {
  it("lets go of the messages of a compressed history once a later call is built, and makes them again when sent again", () => {
    const { name, text } = chat();
    const session = readSessionText(text, name)!;
    const index = getQwenIndex(session);
    const compression = index.compressions.find((c) => c.turnsBefore > 1 && index.turns[c.turnsBefore] !== undefined)!;
    expect(compression, name).toBeDefined();
    const replaced = index.turns[compression.turnsBefore - 1]!;
    const before = JSON.stringify(buildTurnRequest(session, {}, replaced.turn).body);
    const sent = replaced.historyBase.slice(0, replaced.historyLength).filter((content) => content.role === "model");
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((content) => content.wires !== null)).toBe(true);
    // The first call after the compression sends none of them.
    buildTurnRequest(session, {}, compression.turnsBefore + 1);
    expect(sent.filter((content) => content.wires !== null)).toEqual([]);
    // Walked back: the same request.
    expect(JSON.stringify(buildTurnRequest(session, {}, replaced.turn).body)).toBe(before);
    expect(countTurns(session, {})).toBe(index.turns.length);
  });
});
