// The worker's side of a session that grows while its file is read (src/worker/analysisCalls.ts
// `analyzeGrowth`): a later view of the same open is answered with what changed since the analysis
// the page was last sent (and that analysis' serial number, so the page can check it holds it);
// another open's, or other options', get no delta and the page asks for the whole analysis.
import { describe, expect, it } from "vitest";
import type { PipelineOptions } from "../../src/core/model";
import { readSessionText } from "../../src/core/session/index";
import { applyAnalysisDelta } from "../../src/app/analysisDelta";
import { analysisHandlers } from "../../src/worker/analysisCalls";
import { SessionHost } from "../../src/worker/sessionHost";
import { assistant, chain, toJsonl, user, type EntryInput } from "../core/agents/pi/sessionBuilder";

const OPTIONS: PipelineOptions = { profile: "pi", leafId: null, api: null, header: null, notes: false };

/** One session's lines: the header, then a prompt and an answer a turn. */
const LINES = (() => {
  const entries: EntryInput[] = [];
  for (let turn = 1; turn <= 5; turn++) entries.push(user(`u${turn}`, `prompt ${turn}`), assistant(`a${turn}`, `answer ${turn}`));
  return toJsonl(chain(entries)).trimEnd().split("\n");
})();

/** The session as read up to the end of turn `turns` (a view of the entries read so far). */
function sessionOfTurns(turns: number) {
  return readSessionText(LINES.slice(0, 1 + 2 * turns).join("\n") + "\n", "grows.jsonl");
}

describe("analyzeGrowth", () => {
  it("answers a later view of the same open with the rows since the analysis last sent", async () => {
    const host = new SessionHost();
    const calls = analysisHandlers(host);
    host.install(sessionOfTurns(3), 7);
    const first = await calls.analyze.run({ options: OPTIONS });
    expect(first.turns).toHaveLength(3);
    host.install(sessionOfTurns(5), 7);
    const { growth, madeFor } = await calls.analyzeGrowth.run({ options: OPTIONS });
    expect(madeFor.runId).toBe(7);
    expect(growth).not.toBeNull();
    expect(growth!.baseId).toBe(first.sentId);
    expect(growth!.sentId).toBeGreaterThan(first.sentId);
    // Only the new turns cross (each analysis of a read session equals the one before up to its end).
    expect(growth!.delta.turns.from).toBe(3);
    expect(growth!.delta.turns.items.map((item) => item.turn)).toEqual([4, 5]);
    const grown = applyAnalysisDelta(first, structuredClone(growth!.delta))!;
    const { madeFor: _made, sentId: _sent, ...whole } = await calls.analyze.run({ options: OPTIONS });
    expect(grown).toEqual(whole);
  });

  it("has no delta for another open, for other options, or before any analysis was sent", async () => {
    const host = new SessionHost();
    const calls = analysisHandlers(host);
    host.install(sessionOfTurns(2), 1);
    expect((await calls.analyzeGrowth.run({ options: OPTIONS })).growth).toBeNull();
    await calls.analyze.run({ options: OPTIONS });
    expect((await calls.analyzeGrowth.run({ options: { ...OPTIONS, notes: true } })).growth).toBeNull();
    host.install(sessionOfTurns(4), 2);
    expect((await calls.analyzeGrowth.run({ options: OPTIONS })).growth).toBeNull();
  });
});
