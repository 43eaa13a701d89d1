// compaction-policies.md §2 (senpi cache-friendly replay): table rows 1–6, pi-senpi.md §6 row 27
// (fallback to the standalone form), SP-K3 errors, and the senpi fixture's recorded request 009.
import { describe, expect, it } from "vitest";
import { extractRequestHeader } from "../../../../../src/core/providers";
import { getPolicy, simulateCompaction, DESCRIBED_SLOT_MARKER } from "../../../../../src/core/session/simulate/index";
import { replayRecordedCompactions } from "../../../../../src/core/session/simulate/recorded";
import { fixtureCase } from "../../../../support/fixtures";

const senpiFixture = fixtureCase("senpi/print-openai-autocompact");
const rpc = fixtureCase("pi/rpc-anthropic-manualcompact");
const print = fixtureCase("pi/print-openai-autocompact");
const senpi = getPolicy("senpi");
const senpiOptions = {
  profile: "senpi" as const,
  header: extractRequestHeader(senpiFixture.request(8), "008.json"),
  modelOverrides: { "fake/fake-model": { contextWindow: 28000, maxTokens: 4000 } },
};
const senpiParams = { reserveTokens: 4000, keepRecentTokens: 800 };

/** rpc-anthropic compaction 2 under the senpi profile (the §2 worked example). */
function workedExample(extra: Record<string, string | number | boolean | null> = {}, limits = {}) {
  return simulateCompaction({
    session: rpc.session,
    options: { profile: "senpi", header: extractRequestHeader(rpc.request(15), "015.json"), modelOverrides: { "anthropic/claude-sonnet-4-5": { maxTokens: 4000, contextWindow: 16000 } } },
    turn: 1,
    recordedCompactionEntryId: "6a015245",
    policyId: "senpi",
    parameters: { reserveTokens: 4000, keepRecentTokens: 40, splitTurnRequests: "history-and-prefix", replayMaxTokens: "reserve-cap", focusFormat: "additional-focus", thresholdRatio: null, ...extra },
    focus: "Focus on which files were read and which were written.",
    manual: true,
    limits,
    followingTurns: 0,
  });
}

describe("senpi fixture: the recorded compaction (request 009)", () => {
  it("keeps the recorded messages and rebuilds 009 byte for byte with the slot filled from it", () => {
    const lines = replayRecordedCompactions(senpiFixture.session, senpiOptions, "senpi", { parameters: senpiParams, captured: [{ source: "009.json", body: senpiFixture.request(9) }] });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.keptMatches).toBe(true);
    expect(lines[0]!.summariserRequests).toHaveLength(1);
    expect(JSON.stringify(lines[0]!.summariserRequests[0])).toBe(JSON.stringify(senpiFixture.request(9)));
    expect(lines[0]!.matches[0]).toEqual({ captured: "009.json", dataPartMatches: true, bodyMatches: true });
  });

  it("without captured instructions: the replayed prefix (data part) still equals 009's, the instruction is marked", () => {
    const r = simulateCompaction({ session: senpiFixture.session, options: senpiOptions, turn: 8, policyId: "senpi", parameters: senpiParams, followingTurns: 1 });
    expect(r.trigger.expression).toBe("14312 > 28000 × 0.5 = 14000 → compact");
    const request = r.summariserRequests[0]!;
    expect(request.form).toBe("replay");
    expect(request.role).toBe("turn-prefix");
    expect(request.dataPart).toEqual(senpi.readCaptured!(senpiFixture.request(9), "009")!.dataPart);
    // CP-SE-10: the prefix is byte-identical to turn 8's main request up to the cut.
    const sent = request.body.messages as unknown[];
    expect(sent.slice(0, -1)).toEqual((senpiFixture.request(8).messages as unknown[]).slice(0, 12));
    expect(request.cache!.sharedPrefixTokens).toBeGreaterThan(request.cache!.totalTokens * 0.9);
    expect(JSON.stringify(sent[sent.length - 1])).toContain(DESCRIBED_SLOT_MARKER);
    expect(r.verdict.verdict).toBe("compacted");
    expect(r.findings.some((f) => f.id === "instructions-share-message-with-turns")).toBe(false);
  });
});

describe("§2 table", () => {
  it("rows 1 and 6: previous summary present, replay fits → messages = first seven of request 015, update instruction, no <previous-summary>", () => {
    const r = workedExample();
    const history = r.summariserRequests.find((q) => q.role === "history")!;
    expect(history.form).toBe("replay");
    const messages = history.body.messages as unknown[];
    const recorded = rpc.request(15).messages as unknown[];
    expect(JSON.stringify(messages.slice(0, 7))).toBe(JSON.stringify(recorded.slice(0, 7)));
    const last = JSON.stringify(messages[messages.length - 1]);
    expect(last).toContain("existing structured summary");
    expect(last).toContain("Additional focus: Focus on which files were read and which were written.");
    expect(JSON.stringify(history.body)).not.toContain("<previous-summary>");
    expect(history.maxTokens).toBe(3200);
  });

  it("row 3: split turn with history, both fit → two replay requests; the prefix request extends the history request by the turn prefix", () => {
    const r = workedExample();
    expect(r.summariserRequests.map((q) => [q.role, q.form])).toEqual([["history", "replay"], ["turn-prefix", "replay"]]);
    const history = (r.summariserRequests[0]!.body.messages as unknown[]).slice(0, -1);
    const prefix = (r.summariserRequests[1]!.body.messages as unknown[]).slice(0, -1);
    expect(prefix.length).toBeGreaterThan(history.length);
    expect(JSON.stringify(prefix.slice(0, history.length))).toBe(JSON.stringify(history));
    // The turn-prefix source = request 015's full message list; only the cache marker differs: 015
    // marks its last user message, the replay marks the trailing instruction instead.
    const noMarkers = (v: unknown) => JSON.stringify(v).replace(/,"cache_control":\{"type":"ephemeral"\}/g, "");
    expect(noMarkers(prefix)).toBe(noMarkers(rpc.request(15).messages));
    expect(JSON.stringify(prefix)).not.toBe(JSON.stringify(rpc.request(15).messages));
    expect(r.summariserRequests[1]!.maxTokens).toBe(2000);
    expect(JSON.stringify(r.summariserRequests[1]!.body.messages)).not.toContain("Additional focus");
  });

  it("row 2 / pi-senpi §6 row 27: replay does not fit → standalone request with <conversation>, no cache markers, no tools", () => {
    const r = workedExample({}, { contextWindow: 6000 });
    expect(r.summariserRequests.every((q) => q.form === "standalone")).toBe(true);
    const text = JSON.stringify(r.summariserRequests[0]!.body);
    expect(text).toContain("<conversation>");
    expect(text).not.toContain("cache_control");
    expect("tools" in r.summariserRequests[0]!.body).toBe(false);
    expect(r.summariserRequests[0]!.notes.some((n) => n.includes("→ standalone (CP-SE-5)"))).toBe(true);
  });

  it("row 4: model maxTokens 8192, reserve 16384 → history cap 8192", () => {
    const r = simulateCompaction({
      session: print.session,
      options: { profile: "senpi", modelOverrides: { "fake/fake-model": { maxTokens: 8192, contextWindow: 200000 } } },
      turn: 8,
      policyId: "senpi",
      parameters: { reserveTokens: 16384, keepRecentTokens: 1800, replayMaxTokens: "reserve-cap" },
      followingTurns: 0,
    });
    expect(r.summariserRequests[0]!.role).toBe("history");
    expect(r.summariserRequests[0]!.maxTokens).toBe(8192);
  });

  it("row 5: the summariser output contains a tool call → failed 'Summarization attempted to call a tool'", () => {
    const r = simulateCompaction({ session: print.session, options: { profile: "senpi" }, turn: 8, policyId: "senpi", parameters: { keepRecentTokens: 1800, summaryOutcome: "tool-call" }, followingTurns: 0 });
    expect(r.verdict.verdict).toBe("failed");
    expect(r.verdict.message).toBe("Summarization attempted to call a tool");
    const length = simulateCompaction({ session: print.session, options: { profile: "senpi" }, turn: 8, policyId: "senpi", parameters: { keepRecentTokens: 1800, summaryOutcome: "length" }, followingTurns: 0 });
    expect(length.verdict.message).toBe("Summarization failed: generation hit the token cap and the summary is incomplete");
  });

  it("cacheFriendly off reproduces pi's standalone form", () => {
    const r = simulateCompaction({ session: print.session, options: { profile: "senpi" }, turn: 8, policyId: "senpi", parameters: { keepRecentTokens: 1800, cacheFriendly: false }, followingTurns: 0 });
    expect(r.summariserRequests[0]!.form).toBe("standalone");
    expect(r.summariserRequests[0]!.cache!.note).toMatch(/^cold/);
  });
});
