// senpi's hard-limit emergency prune (SP-C11 … SP-C13, code-yeongyu/senpi 8218060f
// extensions/builtin/compaction/speculative.ts 375–406, tool-truncation.ts, overflow-retry.ts
// 107–181) in the request rebuild, on sessions written here in senpi's format: above 95 % of the
// prompt window (window − min(max output, window / 2)) old tool results lose their middle; when
// that is not enough, the oldest tool pair before the newest prompt is dropped. Below it nothing
// changes, and the pi profile never prunes.
import { describe, expect, it } from "vitest";
import type { PipelineOptions } from "../../../../../src/core/model";
import { buildAllTurnRequests } from "../../../../../src/core/session/turnRequests";
import { analyzeSession, buildTurnContext } from "../../../../../src/core/session/pipeline";
import { estimateMessageTokens } from "../../../../../src/core/agents/pi/estimate";
import { promptContextWindow, senpiEmergencyPrune } from "../../../../../src/core/agents/pi/senpi-emergency-prune";
import { sessionOf, user, assistant, toolResult, type EntryInput } from "../sessionBuilder";

// Prompt window 20000 − min(4000, 10000) = 16000; target floor(16000 × 0.95) = 15200.
const options = (extra: Partial<PipelineOptions> = {}): PipelineOptions => ({
  profile: "senpi",
  modelOverrides: { "fake/fake-model": { contextWindow: 20000, maxTokens: 4000 } },
  ...extra,
});
// A small recorded usage: the context reduction's gate (usage ≥ 0.5 × window) stays shut, so only
// the emergency prune, which measures the messages themselves, can change the requests.
const usage = { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 110 };
const answer = (id: string, text: string, extra: Record<string, unknown> = {}) => assistant(id, text, { provider: "fake", model: "fake-model", usage, ...extra });
const call = (id: string, callId: string) => answer(id, "", { content: [{ type: "toolCall", id: callId, name: "webfetch", arguments: { url: `https://x/${callId}` } }], stopReason: "toolUse" });
const result = (id: string, callId: string, text: string) => toolResult(id, callId, text, { toolName: "webfetch" });

function toolTexts(body: Record<string, unknown>): string[] {
  return (body.messages as { role: string; content?: unknown }[]).filter((m) => m.role === "tool").map((m) => String(m.content));
}

describe("SP-C11/SP-C12: tool results lose their middle above 95 % of the prompt window", () => {
  // Four results of 20000 characters (5000 tokens each): the fourth takes the context over 15200.
  const entries: EntryInput[] = [user("u1", "fetch the four pages")];
  // Spaced text: senpi's estimate weights base64-like runs of 512+ characters fourfold (SP-K1).
  for (let k = 1; k <= 4; k++) entries.push(call(`c${k}`, `k${k}`), result(`r${k}`, `k${k}`, `${k} `.repeat(10000)));
  entries.push(answer("final", "done"));
  const session = sessionOf(entries);

  it("the prompt window is the context window minus the output reserve", () => {
    expect(promptContextWindow(20000, 4000)).toBe(16000);
    expect(promptContextWindow(20000, 50000)).toBe(10000);
    expect(promptContextWindow(20000, undefined)).toBe(20000);
  });

  it("below the target the results are sent whole; above it each keeps 800 + 400 characters around senpi's marker", () => {
    const requests = buildAllTurnRequests(session, options());
    expect(toolTexts(requests[3]!.body).every((t) => t.length === 20000)).toBe(true); // r1…r3: 15000+ < 15200
    const last = toolTexts(requests[4]!.body);
    expect(last.length).toBe(4);
    for (const [k, text] of last.entries()) {
      const unit = `${k + 1} `;
      expect(text).toBe(`${unit.repeat(400)}\n<truncated:20000 bytes original; middle elided to save context - re-run this tool with a narrower range (read offset/limit or a filtered command) to retrieve the elided content>\n${unit.repeat(200)}`);
    }
    const pruned = requests[4]!.messages.filter((m) => m.provenance.rule === "prune:emergency-truncated");
    expect(pruned.map((m) => [m.provenance.entryId, m.provenance.ruleId])).toEqual([["r1", "SP-C12"], ["r2", "SP-C12"], ["r3", "SP-C12"], ["r4", "SP-C12"]]);
  });

  it("the timeline's sizes are those of the request sent, not of the stored context", () => {
    const turns = analyzeSession(session, options()).turns;
    for (const turn of [4, 5]) {
      const sent = buildTurnContext(session, options(), turn).messages;
      expect(turns[turn - 1]!.estimatedTokens).toBe(sent.reduce((a, m) => a + estimateMessageTokens(m.message, { profile: "senpi" }), 0));
      expect(turns[turn - 1]!.messageCount).toBe(sent.length);
    }
    expect(turns[4]!.estimatedTokens).toBeLessThan(2000);
    expect(analyzeSession(session, { ...options(), agentOptions: { senpiContextReduction: false } }).turns[4]!.estimatedTokens).toBeGreaterThan(20000);
  });

  it("the pi profile (no senpi extension) sends them whole", () => {
    const requests = buildAllTurnRequests(session, { ...options(), profile: "pi" });
    expect(toolTexts(requests[4]!.body).every((t) => t.length === 20000)).toBe(true);
  });
});

describe("SP-C13: the oldest tool pair before the newest prompt is dropped when truncation is not enough", () => {
  // u1 10000 tokens + a1/r1 (a 4000-character result: under 4096 bytes, never truncated) + a2 5000
  // tokens + u2: 16000+ > 15200; dropping a1 and r1 (about 1010 tokens) brings it under.
  const session = sessionOf([
    user("u1", "a ".repeat(20000)),
    call("a1", "k1"),
    result("r1", "k1", "b ".repeat(2000)),
    answer("a2", "c ".repeat(10000)),
    user("u2", "next"),
    answer("a3", "ok"),
  ]);

  it("drops the tool call and its result, keeps the prompts and the answer", () => {
    const requests = buildAllTurnRequests(session, options());
    const roles = (i: number) => (requests[i]!.body.messages as { role: string }[]).map((m) => m.role).filter((r) => r !== "system");
    expect(roles(1)).toEqual(["user", "assistant", "tool"]); // answered by a2: 11010 < 15200
    expect(roles(2)).toEqual(["user", "assistant", "user"]);
    expect(requests[2]!.messages.map((m) => m.provenance.entryId)).toEqual(["u1", "a2", "u2"]);
  });

  it("the timeline counts the dropped messages out", () => {
    const turn = analyzeSession(session, options()).turns[2]!;
    expect(turn.messageCount).toBe(3);
    const sent = buildTurnContext(session, options(), 3).messages;
    expect(turn.estimatedTokens).toBe(sent.reduce((a, m) => a + estimateMessageTokens(m.message, { profile: "senpi" }), 0));
  });

  it("reports what it did", () => {
    const requests = buildAllTurnRequests(session, { ...options(), agentOptions: { senpiContextReduction: false } });
    const full = requests[2]!.messages;
    const pruned = senpiEmergencyPrune(full, 16000);
    expect([pruned.engaged, pruned.targetTokens, pruned.messagesDropped, pruned.toolResultsTruncated]).toEqual([true, 15200, 2, 0]);
    expect(pruned.tokensBefore).toBeGreaterThan(15200);
    expect(pruned.tokensAfter).toBeLessThanOrEqual(15200);
  });
});

describe("the timeline honours the context reduction (SP-C10) too", () => {
  // Eight bash calls whose recorded usage passes half the window (10000) at the seventh: from
  // then on all but the six newest bash results are sent as `[tool result cleared]`.
  const rising = (input: number) => ({ input, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: input + 10 });
  const entries: EntryInput[] = [user("u1", "inspect the files")];
  for (let k = 1; k <= 8; k++) {
    entries.push(answer(`c${k}`, "", { usage: rising(1500 * k), content: [{ type: "toolCall", id: `k${k}`, name: "bash", arguments: { command: `cat f${k}` } }], stopReason: "toolUse" }));
    entries.push(toolResult(`r${k}`, `k${k}`, `output ${k} `.repeat(40), { toolName: "bash" }));
    entries.push(answer(`d${k}`, "", { usage: rising(1500 * k + 100), content: [{ type: "toolCall", id: `q${k}`, name: "todo", arguments: { op: "list" } }], stopReason: "toolUse" }));
    entries.push(toolResult(`s${k}`, `q${k}`, `todo ${k}`, { toolName: "todo" }));
  }
  entries.push(answer("final", "done", { usage: rising(14000) }));
  const session = sessionOf(entries);

  it("a turn with cleared results is as large as what was sent", () => {
    const turns = analyzeSession(session, options()).turns;
    const stored = analyzeSession(session, { ...options(), agentOptions: { senpiContextReduction: false } }).turns;
    const last = turns.length;
    const sent = buildTurnContext(session, options(), last).messages;
    expect(sent.filter((m) => m.provenance.rule === "reduce:tool-result-cleared").length).toBe(2);
    expect(turns[last - 1]!.estimatedTokens).toBe(sent.reduce((a, m) => a + estimateMessageTokens(m.message, { profile: "senpi" }), 0));
    expect(turns[last - 1]!.estimatedTokens).toBeLessThan(stored[last - 1]!.estimatedTokens);
    // Before the gate nothing differs.
    expect(turns[11]!.estimatedTokens).toBe(stored[11]!.estimatedTokens);
  });
});
