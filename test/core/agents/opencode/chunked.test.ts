// The fork's chunked compaction (CP-OC-31: Shodocan/opencode `CompactionPlanner` and
// `CompactionExecutor`) as the opencode policy's "chunked" mode, on small opencode exports written
// here. Every chunk boundary and estimate is derived below by hand from the fork's rules: a request
// is {chunkIndex, messages, phase, summaryOutputTokens, summaryReserveChars} in canonical JSON
// (sorted keys), a user message with one text part of n chars is 53 + n chars, an assistant one
// 58 + n, the estimate is ceil(chars / 4) plus the 4096-token reserve, and the budget is
// C − max(20000, 4096 + 20480) = C − 24576 without an input limit.
import { describe, expect, it } from "vitest";
import type { OpencodeMessageRecord } from "../../../../src/core/agents/opencode";
import { readOpencodeExportText } from "../../../../src/core/agents/opencode/reader";
import { simulateCompaction } from "../../../../src/core/session/simulate/simulate";
import type { PolicyParameters, SimulationInput, SimulationResult, SummarySource } from "../../../../src/core/simulate/types";
import { compaction, exportDocument, user } from "./helpers";

const INSTRUCTIONS = { slots: { system: "S.", "first-instruction": "Summarise.", "update-instruction": "Combine." } };
const CONTEXT = 64576; // budget 40000
const BUDGET = CONTEXT - 24576;

function reply(id: string, parentID: string, text: string, extra: Record<string, unknown> = {}): OpencodeMessageRecord {
  return {
    info: { id, role: "assistant", parentID, providerID: "p", modelID: "m", finish: "stop", time: { created: 1 }, tokens: { total: 100, input: 90, output: 10, reasoning: 0, cache: { read: 0, write: 0 } }, ...extra },
    parts: [{ id: `${id}_p0`, type: "text", text }],
  } as unknown as OpencodeMessageRecord;
}

/** Old turns `u1 … uN` (user text of `size` chars, answer "ok"), then the latest turn uz "now" / az "done". */
function turns(sizes: number[], latest = "now"): OpencodeMessageRecord[] {
  const out: OpencodeMessageRecord[] = [];
  sizes.forEach((size, i) => out.push(user(`u${i + 1}`, "x".repeat(size)), reply(`a${i + 1}`, `u${i + 1}`, "ok")));
  out.push(user("uz", latest), reply("az", "uz", "done"));
  return out;
}

function run(records: OpencodeMessageRecord[], parameters: PolicyParameters = {}, summary: SummarySource = { kind: "text", text: "S".repeat(400) }, context = CONTEXT): SimulationResult {
  const session = readOpencodeExportText(exportDocument(records), "export.json");
  const input: SimulationInput = {
    session,
    options: { profile: "pi" },
    turn: 1,
    policyId: "opencode",
    parameters: { compactionMode: "chunked", ...parameters },
    limits: { contextWindow: context, maxOutputTokens: 4096 },
    instructions: INSTRUCTIONS,
    summary,
    manual: true,
    followingTurns: 0,
    providerCount: false,
  };
  // The simulation runs after the last turn's answer: every row is history.
  const turnCount = records.filter((r) => r.info.role === "assistant" && (r.info as { summary?: boolean }).summary !== true).length;
  return simulateCompaction({ ...input, turn: turnCount });
}

// Hand-derived sizes (see the header).
const userMsg = (n: number) => 53 + n;
const assistantMsg = (n: number) => 58 + n;
const PROMPT = "Here is the conversation so far:\n\n<conversation>\n\n</conversation>\n\nSummarise.\n[prior-rolling-summary:reserve up to 16384 chars]";
// `{"content":[{"text":"…","type":"text"}],"role":"user"}` around the JSON-escaped prompt (7 newlines → 7 extra chars).
const promptMsg = 53 + PROMPT.length + 7;
const skeleton = (index: number) => `{"chunkIndex":${index},"messages":[],"phase":"compaction","summaryOutputTokens":4096,"summaryReserveChars":16384}`.length;
const requestChars = (index: number, messages: number[]) => skeleton(index) + messages.reduce((a, b) => a + b, 0) + (messages.length - 1);
const planned = (index: number, messages: number[]) => Math.ceil(requestChars(index, messages) / 4) + 4096;
const LATEST = [userMsg(3), assistantMsg(4)];
const turnOf = (n: number) => [userMsg(n), assistantMsg(2)];

describe("chunked planner: chunk boundaries on whole user turns", () => {
  it("packs turns greedily while the request fits the budget (60,000-char turns: two per chunk)", () => {
    const r = run(turns([60000, 60000, 60000, 60000, 60000]));
    // Two turns: planned(0, [t, t, latest, prompt]) fits; a third does not.
    const two = planned(0, [...turnOf(60000), ...turnOf(60000), ...LATEST, promptMsg]);
    const three = planned(0, [...turnOf(60000), ...turnOf(60000), ...turnOf(60000), ...LATEST, promptMsg]);
    expect(two).toBeLessThanOrEqual(BUDGET);
    expect(three).toBeGreaterThan(BUDGET);
    expect(r.partition.details.chunkBoundaries).toBe("u1…a2 | u3…a4 | u5…a5");
    expect(r.partition.details.budget).toBe(BUDGET);
    expect(r.partition.summarised.map((range) => range.entryIds)).toEqual([["u1", "a1", "u2", "a2"], ["u3", "a3", "u4", "a4"], ["u5", "a5"]]);
    expect(r.partition.kept[0]!.entryIds).toEqual(["uz", "az"]);
    // Overhead gate: no history, no latest turn; latest gate: the latest turn counted twice.
    expect(r.partition.details.overheadEstimate).toBe(planned(-1, [promptMsg]));
    expect(r.partition.details.latestEstimate).toBe(planned(-1, [...LATEST, ...LATEST, promptMsg]));
    expect(r.verdict.verdict).toBe("compacted");
    expect(r.verdict.code).toBe("completed");
    expect(r.summariserRequests.map((q) => q.role)).toEqual(["chunk-1", "chunk-2", "chunk-3"]);
  });

  it("the executor's requests carry the rolling summary; the estimates are the admitted projections (no reserve added)", () => {
    const r = run(turns([60000, 60000, 60000, 60000, 60000]));
    const [first, second] = r.summariserRequests;
    const texts = (q: typeof first) => ((q!.body.messages as { content: { text: string }[] }[]).at(-1)!.content[0]!.text);
    expect(texts(first)).toBe(PROMPT);
    const prior = "S".repeat(400);
    const updatePrompt = `Here is the conversation so far:\n\n<conversation>\n\n</conversation>\n\nHere is the summary of the conversation before the <conversation> above:\n\n<prior-summary>\n${prior}\n</prior-summary>\n\nCombine.\n[prior-rolling-summary:reserve up to 16384 chars]`;
    expect(texts(second)).toBe(updatePrompt);
    expect((second!.dataPart as { previousSummary: string }).previousSummary).toBe(prior);
    // Chunk 2's admitted estimate: its messages + latest + the update prompt (11 newlines escaped).
    const updateMsg = 53 + updatePrompt.length + 11;
    expect(second!.notes).toContain(`admission: estimate ${Math.ceil(requestChars(1, [...turnOf(60000), ...turnOf(60000), ...LATEST, updateMsg]) / 4)} ≤ budget ${BUDGET}`);
    // Before: every chunk message + the latest turn as {messages: […]}; after: the summary + latest.
    const all = [...turnOf(60000), ...turnOf(60000), ...turnOf(60000), ...turnOf(60000), ...turnOf(60000), ...LATEST];
    const wrap = (list: number[]) => `{"messages":[]}`.length + list.reduce((x, y) => x + y, 0) + list.length - 1;
    expect(r.tokens.before).toBe(Math.ceil(wrap(all) / 4));
    expect(r.tokens.after).toBe(Math.ceil(wrap([assistantMsg(400), ...LATEST]) / 4));
    expect(r.after.request?.body.messages).toHaveLength(4); // system, summary, uz, az
  });

  it("a turn too large for one chunk has its oversized text split into pieces of the piece limit", () => {
    const r = run(turns([200000]));
    const latestEstimate = planned(-1, [...LATEST, ...LATEST, promptMsg]);
    const pieceLimit = Math.floor(4 * (BUDGET - latestEstimate)) - 1024;
    expect(r.partition.details.pieceLimitChars).toBe(pieceLimit);
    expect(Math.ceil(200000 / pieceLimit)).toBe(2);
    // Piece 0 alone; piece 1 (a `#split1` slot of u1) with the answer a1.
    expect(r.partition.details.chunkBoundaries).toBe("u1…u1 | u1#split1…a1");
    const pieceText = (q: SimulationResult["summariserRequests"][number]) => (q.body.messages as { content: { text: string; split?: unknown }[] }[])[0]!.content[0]!;
    expect(pieceText(r.summariserRequests[0]!).text).toHaveLength(pieceLimit);
    expect(pieceText(r.summariserRequests[1]!).text).toHaveLength(200000 - pieceLimit);
    expect(pieceText(r.summariserRequests[1]!).split).toEqual({ index: 1, role: "user", total: 2 });
    expect(r.verdict.verdict).toBe("compacted");
  });

  it("historical tool output is cut to the cap inside chunks (no [truncated] marker)", () => {
    const records = turns([10]);
    (records[1] as { parts: unknown[] }).parts.push({ id: "t1", type: "tool", tool: "bash", callID: "c1", state: { status: "completed", input: { cmd: "ls" }, output: "y".repeat(5000), time: { start: 1, end: 2 } } });
    const r = run(records);
    const tool = (r.summariserRequests[0]!.body.messages as { content: { type: string; output?: string }[] }[])[1]!.content[1]!;
    expect(tool).toEqual({ type: "tool", tool: "bash", callID: "c1", status: "completed", output: "y".repeat(2000) });
    const wider = run(records, { chunkToolOutputChars: 3000 });
    expect(((wider.summariserRequests[0]!.body.messages as { content: { output?: string }[] }[])[1]!.content[1]!.output ?? "").length).toBe(3000);
  });
});

describe("chunked planner: impossible before any call (CompactionImpossibleError)", () => {
  it("fixed-overhead: the request without history does not fit (context 28,000 → budget 3,424)", () => {
    const r = run(turns([100]), {}, undefined, 28000);
    expect(r.verdict.verdict).toBe("failed");
    expect(r.verdict.code).toBe("fixed-overhead");
    expect(r.verdict.message).toContain(`estimate ${planned(-1, [promptMsg])} > budget 3424`);
    expect(r.summariserRequests).toEqual([]);
  });

  it("latest-turn-too-large: the latest turn counted twice does not fit (80,000 chars: 2 × 20,000 tokens + reserve)", () => {
    const latest = [userMsg(80000), assistantMsg(4)];
    const r = run(turns([100], "z".repeat(80000)));
    expect(r.verdict.code).toBe("latest-turn-too-large");
    expect(r.verdict.message).toContain(`estimate ${planned(-1, [...latest, ...latest, promptMsg])} > budget ${BUDGET}`);
    // Counted once, it would have fitted: the doubling is the fork's.
    expect(planned(-1, [...latest, promptMsg])).toBeLessThanOrEqual(BUDGET);
  });

  it("chunk-limit: a fifth chunk fails; a larger chunkMaxChunks lets it through", () => {
    const r = run(turns([60000, 60000, 60000, 60000, 60000, 60000, 60000, 60000, 60000]));
    expect(r.verdict.code).toBe("chunk-limit");
    expect(r.verdict.message).toContain("5 chunks");
    expect(r.partition.details.chunkCount).toBe(5);
    const five = run(turns([60000, 60000, 60000, 60000, 60000, 60000, 60000, 60000, 60000]), { chunkMaxChunks: 5 });
    expect(five.partition.details.chunkCount).toBe(5);
    expect(five.partition.details.chunkBoundaries).toBe("u1…a2 | u3…a4 | u5…a6 | u7…a8 | u9…a9");
  });
});

describe("chunked executor verdicts", () => {
  it("no-reduction: nothing before the latest turn, so no call, and the empty summary does not shrink the state", () => {
    const records = [user("uz", "now"), reply("az", "uz", "done")];
    const r = run(records);
    expect(r.summariserRequests).toEqual([]);
    expect(r.verdict.verdict).toBe("no-reduction");
    const wrap = (list: number[]) => `{"messages":[]}`.length + list.reduce((x, y) => x + y, 0) + list.length - 1;
    expect(r.tokens.before).toBe(Math.ceil(wrap(LATEST) / 4));
    expect(r.tokens.after).toBe(Math.ceil(wrap([assistantMsg(0), ...LATEST]) / 4));
  });

  it("post-compaction-over-budget: small rolling summaries, a final summary larger than the budget", () => {
    const r = run(turns([60000, 60000, 60000, 60000, 60000]), { chunkRollingSummaryTokens: 100 }, { kind: "text", text: "F".repeat(180000) });
    expect(r.verdict.verdict).toBe("post-compaction-over-budget");
    expect(r.tokens.after).toBeGreaterThan(BUDGET);
    expect(r.tokens.after).toBeLessThan(r.tokens.before);
    expect(r.after.request).toBeNull();
  });

  it("mid-execution-over-budget: a rolling summary over 4096 tokens stops before the next call", () => {
    const r = run(turns([60000, 60000, 60000, 60000, 60000]), { chunkRollingSummaryTokens: 5000 });
    expect(r.verdict.verdict).toBe("mid-execution-over-budget");
    expect(r.verdict.message).toContain("(5000 tokens) is over the summary allowance before chunk 2");
    expect(r.partition.details.calls).toBe(1);
    expect(r.summariserRequests.map((q) => q.form)).toEqual(["executor projection", "planned (not reached)", "planned (not reached)"]);
  });

  it("mid-execution-over-budget: the first request is not admitted once the prior compaction's summary is materialised", () => {
    const records: OpencodeMessageRecord[] = [
      user("u0", "old"),
      reply("a0", "u0", "old answer"),
      compaction("c0"),
      reply("s0", "c0", "P".repeat(100000), { summary: true, mode: "compaction", agent: "compaction" }),
      ...turns([60000]),
    ];
    const r = run(records);
    expect(r.partition.droppedWithoutSummary.map((range) => range.entryIds)).toContainEqual(["c0", "s0"]);
    expect(r.verdict.verdict).toBe("mid-execution-over-budget");
    expect(r.verdict.message).toContain("the request of chunk 1 is not admitted");
    expect(r.partition.details.calls).toBe(0);
    expect(r.summariserRequests[0]!.notes.some((n) => n.includes("→ not admitted"))).toBe(true);
  });
});

describe("chunked mode is marked as not stock opencode, and leaves the live mode alone", () => {
  it("carries a warning finding and the default mode is live", () => {
    const r = run(turns([100]));
    expect(r.findings.find((f) => f.id === "chunked-planner-not-live")?.message).toContain("not on its live path");
    expect(r.inferred).toContain("OC-INF-CHUNKED-INPUT");
    expect(r.inferred).not.toContain("OC-INF-TAIL-MEASURE");
    const live = run(turns([100]), { compactionMode: "live" });
    expect(live.findings.some((f) => f.id === "chunked-planner-not-live")).toBe(false);
    expect(live.partition.details.mode).toBeUndefined();
    expect(live.summariserRequests[0]!.role).toBe("summary");
  });
});
