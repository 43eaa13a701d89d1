// opencode policy (compaction-policies.md §5): the CP-OC test table, the spiral run before and
// after the brake, and the reproduction of the fixture's two recorded compactions (kept range,
// summariser data part, and the whole body with the instruction slots filled from 010 / 016).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readOpencodeExportText } from "../../../../src/core/agents/opencode/reader";
import {
  admission,
  afterCompletedCompaction,
  executorVerdict,
  extractOpencodeInstructions,
  filterCompacted,
  isOverflow,
  opencodeDataPart,
  preserveBudget,
  resolveOpencodeModel,
  spiralRun,
  usableTokens,
  type OcMessage,
} from "../../../../src/core/agents/opencode/policy";
import { simulateCompaction } from "../../../../src/core/session/simulate/simulate";
import type { SimulationInput } from "../../../../src/core/simulate/types";
import { fixtureCase } from "../../../support/fixtures";

/** Fixture opencode/run-autocompact, read with the opencode export reader; throws when it is missing. */
function loadFixture() {
  const fixture = fixtureCase("opencode/run-autocompact");
  const session = readOpencodeExportText(readFileSync(fixture.path("session/export.json"), "utf8"), "export.json");
  const request = (n: string) => JSON.parse(fixture.requestText(Number(n))) as { messages: { role: string; content: string }[] };
  return { session, request };
}

const u = (id: string, text: string): OcMessage => ({ info: { id, role: "user" }, parts: [{ type: "text", text }] });
const a = (id: string, parentID: string, text: string, extra: Partial<OcMessage["info"]> = {}): OcMessage => ({ info: { id, role: "assistant", parentID, finish: "stop", ...extra }, parts: [{ type: "text", text }] });
const c = (id: string, tail?: string): OcMessage => ({ info: { id, role: "user" }, parts: [{ type: "compaction", auto: true, overflow: false, ...(tail ? { tail_start_id: tail } : {}) }] });
const s = (id: string, parentID: string, text: string, extra: Partial<OcMessage["info"]> = {}): OcMessage => a(id, parentID, text, { summary: true, ...extra });
const ids = (rows: OcMessage[], indexes: number[]) => indexes.map((i) => rows[i]!.info.id);

describe("CP-OC-1 … CP-OC-5 overflow gate and admission (rows 1–5)", () => {
  it("row 1: context 200,000, output 64,000 → usable 168,000; 168,000 overflows, 167,999 not", () => {
    const model = { context: 200000, output: 64000 };
    expect(usableTokens({}, model)).toMatchObject({ usable: 168000, maxOutput: 32000, reserved: 20000 });
    expect(isOverflow({}, model, { total: 168000 }).overflow).toBe(true);
    expect(isOverflow({}, model, { total: 167999 }).overflow).toBe(false);
    expect(isOverflow({}, model, { total: 0, input: 160000, output: 4000, cache: { read: 4000, write: 0 } }).overflow).toBe(true);
  });
  it("row 2: input limit 272,000 → reserved 20,000, usable 252,000", () => {
    expect(usableTokens({}, { context: 272000, input: 272000, output: 128000 })).toMatchObject({ reserved: 20000, usable: 252000 });
  });
  it("row 3: auto false or context 0 → never", () => {
    expect(isOverflow({ auto: false }, { context: 200000, output: 64000 }, { total: 999999 }).overflow).toBe(false);
    expect(isOverflow({}, { context: 0, output: 64000 }, { total: 999999 }).overflow).toBe(false);
  });
  it("row 4: admission B = 147,520", () => {
    expect(admission({}, { context: 200000, output: 32000 }, 147520)).toMatchObject({ budget: 147520, admitted: true });
    expect(admission({}, { context: 200000, output: 32000 }, 147521).admitted).toBe(false);
    expect(admission({}, { context: -1, output: 32000 }, 1).error).toBe("invalid-context-limit");
  });
  it("row 5 and the fixture's budget: preserve 15,000 / 2,750", () => {
    expect(preserveBudget({}, 168000)).toBe(15000);
    expect(usableTokens({}, { context: 15000, output: 4000 }).usable).toBe(11000);
    expect(preserveBudget({}, 11000)).toBe(2750);
  });
});

describe("CP-OC-7 … CP-OC-12 filterCompacted (rows 7, 8, 16)", () => {
  const rows = [u("u1", "hi"), a("a1", "u1", "hello"), c("C1"), s("S1", "C1", "partial", { error: { name: "ContextOverflowError" }, finish: undefined }), u("u2", "next")];

  it("row 7 off: C1 and S1 stay in scope and the scan continues past them", () => {
    const scope = filterCompacted(rows, rows.length, { spiralBrake: false });
    expect(ids(rows, scope.indexes)).toEqual(["u1", "a1", "C1", "S1", "u2"]);
    expect(scope.failedInScope).toEqual([3]);
  });
  it("row 7 on: S1 excluded (still stored); C1 per dropOrphanCompactionUser", () => {
    const on = filterCompacted(rows, rows.length, { spiralBrake: true });
    expect(ids(rows, on.indexes)).toEqual(["u1", "a1", "u2"]);
    expect(on.excluded.map((e) => e.index)).toEqual([2, 3]);
    expect(rows).toHaveLength(5);
    const keepC1 = filterCompacted(rows, rows.length, { spiralBrake: true, dropOrphanCompactionUser: false });
    expect(ids(rows, keepC1.indexes)).toEqual(["u1", "a1", "C1", "u2"]);
  });
  it("row 8: completed S0 with tail_start_id u5 → [C0, S0, u5 … before C0, after S0 …]", () => {
    const history = [u("u4", "old"), a("a4", "u4", "old answer"), u("u5", "recent"), a("a5", "u5", "recent answer"), c("C0", "u5"), s("S0", "C0", "summary"), u("u6", "new")];
    for (const spiralBrake of [false, true]) {
      const scope = filterCompacted(history, history.length, { spiralBrake });
      expect(ids(history, scope.indexes)).toEqual(["C0", "S0", "u5", "a5", "u6"]);
    }
  });
  it("row 16: a LENGTH finish is not completed under strict (excluded with the brake), completed under any-finish", () => {
    const history = [u("u1", "x"), c("C1"), s("S1", "C1", "cut off", { finish: "length" }), u("u2", "y")];
    expect(ids(history, filterCompacted(history, 4, { spiralBrake: true }).indexes)).toEqual(["u1", "u2"]);
    expect(ids(history, filterCompacted(history, 4, { spiralBrake: true, completedPredicate: "any-finish" }).indexes)).toEqual(["C1", "S1", "u2"]);
  });
});

describe("CP-OC-27 … CP-OC-31 model precedence and verdicts (rows 10–15)", () => {
  it("row 10: session row X, agent default Y, prompt without model: on → X, off → Y (persisted)", () => {
    expect(resolveOpencodeModel({ sessionRow: "X", agentDefault: "Y", providerDefault: "P" }, true)).toMatchObject({ model: "X", persisted: false });
    expect(resolveOpencodeModel({ sessionRow: "X", agentDefault: "Y", providerDefault: "P" }, false)).toMatchObject({ model: "Y", persisted: true });
  });
  it("row 11: fresh session, agent default Y → Y in both", () => {
    for (const brake of [true, false]) expect(resolveOpencodeModel({ agentDefault: "Y", providerDefault: "P" }, brake).model).toBe("Y");
  });
  it("row 12: explicit Z → Z, persisted, in both", () => {
    for (const brake of [true, false]) expect(resolveOpencodeModel({ explicit: "Z", sessionRow: "X", agentDefault: "Y", providerDefault: "P" }, brake)).toMatchObject({ model: "Z", persisted: true });
  });
  it("row 13: executor after ≥ before → no-reduction", () => {
    expect(executorVerdict(1000, 1000, 5000)).toBe("no-reduction");
    expect(executorVerdict(1000, 900, 800)).toBe("post-compaction-over-budget");
    expect(executorVerdict(1000, 500, 800)).toBe("compacted");
  });
  it("rows 14/15: cycle guard after every completed compaction with the brake; off → compacts again", () => {
    expect(afterCompletedCompaction(true, false, true)).toBe("cycle-guard-stop");
    expect(afterCompletedCompaction(false, false, true)).toBe("compact-again");
    expect(afterCompletedCompaction(false, true, true)).toBe("cycle-guard-stop");
  });
});

describe("fixture opencode/run-autocompact (rows 6, 9, 14, 15, 17, spiral)", () => {
  const limits = { contextWindow: 15000, maxOutputTokens: 4000 };
  const base = (extra: Partial<SimulationInput>): SimulationInput => ({ session: loadFixture().session, options: { profile: "pi" }, turn: 8, policyId: "opencode", limits, ...extra });
  const recorded = [
    { turn: 8, compactionId: "msg_228c59900001LSmO1iEJPuCWNQ", tail: "msg_228c568b2001hVEFM7fLdxoMRG", request: "010" },
    { turn: 13, compactionId: "msg_228c5b729001YCaZjMNE69mhcz", tail: "msg_228c587bf0014c9pZpT4tyT50c", request: "016" },
  ];

  it("row 6: usable 11,000, preserve 2,750; overflow only after prompts 4 and 6", () => {
    const fired: number[] = [];
    for (let turn = 1; turn <= 17; turn++) {
      const result = simulateCompaction(base({ turn }));
      expect(result.trigger.right).toBe(11000);
      if (result.trigger.result) fired.push(turn);
    }
    expect(fired).toEqual([8, 13]);
  });

  for (const item of recorded) {
    it(`compaction before request ${item.request}: same kept range, data part and (with the captured slots) the whole body`, () => {
      const { request } = loadFixture();
      const captured = request(item.request);
      const result = simulateCompaction(base({ turn: item.turn, recordedCompactionEntryId: item.compactionId }));
      expect(result.partition.details.preserveBudget).toBe(2750);
      expect(result.partition.details.tailStartId).toBe(item.tail);
      expect(result.partition.details.splitTurn).toBe(true);
      expect(result.summariserRequests[0]!.dataPart).toEqual(opencodeDataPart(captured));
      const slots = extractOpencodeInstructions(captured, `${item.request}.json`)!;
      const filled = simulateCompaction(base({ turn: item.turn, recordedCompactionEntryId: item.compactionId, instructions: slots }));
      expect(JSON.stringify(filled.summariserRequests[0]!.body)).toBe(JSON.stringify(captured));
      expect(filled.summariserRequests[0]!.instructionSlots.every((use) => use.filledFrom === "captured")).toBe(true);
      expect(result.summariserRequests[0]!.instructionSlots.every((use) => use.filledFrom === "description")).toBe(true);
    });
  }

  it("row 17: compaction 2 puts the conversation block before <prior-summary> with summary 1", () => {
    const result = simulateCompaction(base({ turn: 13, recordedCompactionEntryId: recorded[1]!.compactionId }));
    const user = (result.summariserRequests[0]!.body.messages as { content: string }[])[1]!.content;
    expect(user.indexOf("</conversation>")).toBeLessThan(user.indexOf("<prior-summary>"));
    expect(result.summariserRequests[0]!.role).toBe("update");
  });

  it("row 9: the request after compaction 2 re-sends pair 1 and the continue message in the tail", () => {
    const result = simulateCompaction(base({ turn: 13, recordedCompactionEntryId: recorded[1]!.compactionId }));
    const messages = result.after.request!.body.messages as { role: string; content: unknown }[];
    const texts = messages.map((m) => (typeof m.content === "string" ? m.content : ""));
    expect(texts.filter((t) => t === "What did we do so far?")).toHaveLength(2);
    expect(texts.filter((t) => t.startsWith("Continue if you have next steps"))).toHaveLength(2);
    expect(texts[1]).toBe("What did we do so far?");
    expect(texts[2]).toBe(result.after.summary!.text);
    expect(result.after.summary!.source).toBe("recorded");
    expect(result.findings.some((f) => f.id === "stale-summary-resent")).toBe(true);
  });

  it("rows 14/15 on the fixture: a compaction that still overflows → cycle-guard-stop with the brake, compacted + warning without", () => {
    const tiny = { contextWindow: 6000, maxOutputTokens: 4000 };
    const on = simulateCompaction(base({ turn: 13, limits: tiny, parameters: { spiralBrake: true } }));
    expect(on.verdict.verdict).toBe("cycle-guard-stop");
    const off = simulateCompaction(base({ turn: 13, limits: tiny, parameters: { spiralBrake: false } }));
    expect(off.verdict.verdict).toBe("compacted");
    expect(off.findings.some((f) => f.id === "ineffective-compaction")).toBe(true);
  });

  it("CP-OC-29: a fallback to a smaller agent default moves the threshold (off), the recorded model keeps it (on)", () => {
    const parameters = { promptCarriesModel: false, agentDefaultContextWindow: 8000 };
    const off = simulateCompaction(base({ turn: 5, parameters: { ...parameters, spiralBrake: false } }));
    const on = simulateCompaction(base({ turn: 5, parameters: { ...parameters, spiralBrake: true } }));
    expect(off.trigger.right).toBe(4000);
    expect(off.trigger.result).toBe(true);
    expect(on.trigger.right).toBe(11000);
    expect(on.trigger.result).toBe(false);
  });

  it("spiral run: the next request grows with the brake off, and stops with a clear verdict with it on", () => {
    const result = simulateCompaction(base({ turn: 8, recordedCompactionEntryId: recorded[0]!.compactionId, parameters: { spiralAttempts: 3 } }));
    expect(result.findings.find((f) => f.id === "spiral-run")?.message).toContain("spiral");
    const { session } = loadFixture();
    const rows = (session.entries.map((e) => e.raw) as unknown as OcMessage[]).slice(0, 12);
    const common = { rows, preserveBudget: 2750, model: "fake-model", maxTokens: 4000 };
    const off = spiralRun({ ...common, spiralBrake: false }, 3);
    expect(off.attempts).toHaveLength(3);
    expect(off.attempts.every((attempt) => attempt.grew)).toBe(true);
    expect(off.attempts[2]!.nextMainRequestTokens).toBeGreaterThan(off.attempts[0]!.nextMainRequestTokens);
    expect(off.verdict).toBe("failed");
    const on = spiralRun({ ...common, spiralBrake: true }, 3);
    expect(on.attempts).toHaveLength(1);
    expect(on.attempts[0]!.grew).toBe(false);
    expect(on.verdict).toBe("no-reduction");
    expect(on.message).toContain("fails terminally");
  });

  it("findings: errored summary in scope before the brake", () => {
    const { session } = loadFixture();
    const rows = session.entries.map((e) => e.raw) as unknown as OcMessage[];
    const broken = [...rows.slice(0, 12), c("Cx"), s("Sx", "Cx", "", { error: { name: "ContextOverflowError" }, finish: undefined })];
    const scope = filterCompacted(broken, broken.length, { spiralBrake: false });
    expect(scope.failedInScope).toEqual([13]);
    expect(filterCompacted(broken, broken.length, { spiralBrake: true }).failedInScope).toEqual([]);
  });
});
