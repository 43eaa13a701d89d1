// The whole-session replay re-serializes every turn after a simulated compaction: each later
// turn's tokens are those of its request rebuilt on top of the compaction — for pi, the session
// with the simulated compaction entry in it; for a policy without session entries (Claude Code),
// the policy's own rebuilt following turns — not the recorded request minus a saving.
import { describe, expect, it } from "vitest";
import { buildTurnRequest, TURN_PIPELINE } from "../../../src/core/session/pipeline";
import { followingTurnsFromPrefix } from "../../../src/core/simulate/following";
import { estimateTextTokens, getPolicy, prefixText, replaySession, simulateCompaction, withoutRecordedCompactions } from "../../../src/core/session/simulate/index";
import { fixtureCase } from "../../support/fixtures";

const tokensOf = (body: Record<string, unknown>) => estimateTextTokens(prefixText(body));

describe("replaySession re-serializes the turns after a simulated compaction", () => {
  it("pi: later turns' tokens equal a rebuild of their requests on top of the simulated compaction", () => {
    const print = fixtureCase("pi/print-openai-autocompact");
    const parameters = { reserveTokens: 11600, keepRecentTokens: 1800 };
    const limits = { contextWindow: 16000 };
    const replay = replaySession(print.session, { profile: "pi" }, "pi", { parameters, limits });
    const first = replay.compactions[0]!;
    expect(first).toBe(8);
    const base = withoutRecordedCompactions(print.session);
    // The simulation at the first compaction, with its following turns rebuilt by pi's pipeline on
    // the session that holds the simulated entry.
    const sim = simulateCompaction({ session: base, options: { profile: "pi" }, turn: first, policyId: "pi", parameters, limits });
    const next = replay.compactions[1] ?? replay.turns.length + 1;
    const later = replay.turns.filter((t) => t.turn > first && t.turn <= next);
    expect(later.length).toBeGreaterThan(1);
    for (const turn of later) {
      const rebuilt = sim.after.followingTurns.find((f) => f.turn === turn.turn)!;
      expect(turn.tokensSent, `turn ${turn.turn}`).toBe(rebuilt.simulatedTokens);
      expect(turn.reserialized).toBe(true);
      expect(turn.savedTokens).toBe(tokensOf(buildTurnRequest(base, { profile: "pi" }, turn.turn).body) - turn.tokensSent);
      expect(turn.savedTokens).toBeGreaterThan(0);
    }
    // Before the compaction nothing changes: the recorded requests are sent.
    for (const turn of replay.turns.filter((t) => t.turn <= first)) expect(turn.tokensSent).toBe(tokensOf(buildTurnRequest(base, { profile: "pi" }, turn.turn).body));
  });

  it("pi: a second compaction is simulated on the session that holds the first", () => {
    const print = fixtureCase("pi/print-openai-autocompact");
    const parameters = { reserveTokens: 13500, keepRecentTokens: 300 };
    const limits = { contextWindow: 16000 };
    const options = { profile: "pi" as const };
    const replay = replaySession(print.session, options, "pi", { parameters, limits });
    expect(replay.compactions).toEqual([3, 6, 8]);
    const base = withoutRecordedCompactions(print.session);
    const input1 = { session: base, options, turn: 3, policyId: "pi", parameters, limits };
    const sim1 = simulateCompaction(input1);
    const afterFirst = getPolicy("pi").sessionAfter!(input1, sim1, "test-compaction-3")!;
    const sim2 = simulateCompaction({ ...input1, session: afterFirst, turn: 6 });
    for (const turn of [7, 8]) {
      const rebuilt = sim2.after.followingTurns.find((f) => f.turn === turn)!;
      expect(replay.turns[turn - 1]!.tokensSent, `turn ${turn}`).toBe(rebuilt.simulatedTokens);
    }
    // The request after the second compaction carries the first one's summary no more (it was
    // summarised again) but is smaller than the recorded one.
    expect(replay.turns[6]!.savedTokens).toBeGreaterThan(0);
  });

  it("claude-code: later turns take the policy's rebuilt following turns", () => {
    const claude = fixtureCase("claude/print-autocompact-manualcompact");
    const parameters = { autoCompactWindow: 45000 };
    const replay = replaySession(claude.session, { profile: "pi" }, "claude-code", { parameters });
    const first = replay.compactions[0]!;
    expect(first).toBeLessThan(8);
    const sim = simulateCompaction({ session: withoutRecordedCompactions(claude.session), options: { profile: "pi" }, turn: first, policyId: "claude-code", parameters });
    const rebuilt = sim.after.followingTurns.length > 0 ? sim.after.followingTurns : followingTurnsFromPrefix(TURN_PIPELINE, withoutRecordedCompactions(claude.session), { profile: "pi" }, first, sim.after.messages, sim.after.request!.body, undefined, sim.after.request!.api);
    expect(rebuilt.length).toBeGreaterThan(0);
    for (const item of rebuilt) {
      const turn = replay.turns.find((t) => t.turn === item.turn)!;
      if (replay.compactions.some((c) => c > first && c < item.turn)) break;
      expect(turn.tokensSent, `turn ${item.turn}`).toBe(item.simulatedTokens);
      expect(turn.reserialized).toBe(true);
      expect(turn.savedTokens).toBe(item.savedTokens);
    }
  });
});
