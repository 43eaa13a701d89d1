// senpi's context reduction near the limit (SP-C7 … SP-C10, code-yeongyu/senpi 8218060f
// extensions/builtin/compaction/context-reduction.ts and index.ts:868-892) in the request rebuild,
// on sessions written here in senpi's format: the gate (usage ≥ 0.5 × window), `[tool result
// cleared]` on all but the six newest clearable results, the collapse of same-kind runs and the
// shrinking of long old answers; the senpi fixture stays byte-equal with its window known.
import { describe, expect, it } from "vitest";
import type { PipelineOptions, Session } from "../../../../../src/core/model";
import { buildTurnRequest } from "../../../../../src/core/session/pipeline";
import { buildAllTurnRequests } from "../../../../../src/core/session/turnRequests";
import { extractRequestHeader } from "../../../../../src/core/providers";
import { reduceSenpiContext, TOOL_RESULT_CLEARED } from "../../../../../src/core/agents/pi/senpi-context-reduction";
import { fixtureCase } from "../../../../support/fixtures";
import { sessionOf, user, assistant, toolResult, type EntryInput } from "../sessionBuilder";

const WINDOW = 20000;
const options = (extra: Partial<PipelineOptions> = {}): PipelineOptions => ({
  profile: "senpi",
  modelOverrides: { "fake/fake-model": { contextWindow: WINDOW, maxTokens: 4000 } },
  ...extra,
});
const usage = (input: number) => ({ input, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: input + 10 });
const senpiAssistant = (id: string, text: string, input: number, extra: Record<string, unknown> = {}) =>
  assistant(id, text, { provider: "fake", model: "fake-model", usage: usage(input), ...extra });
const call = (id: string, callId: string, input: number, name = "bash", args: Record<string, unknown> = { command: `cat f${callId}` }) =>
  senpiAssistant(id, "", input, { content: [{ type: "toolCall", id: callId, name, arguments: args }], stopReason: "toolUse" });
const result = (id: string, callId: string, text: string, toolName = "bash") => toolResult(id, callId, text, { toolName });

/**
 * One prompt with eight bash calls (each followed by a text-free step), the recorded input usage
 * rising by 1500 tokens per step: the gate (10000 at a 20000 window) is reached at the 7th call.
 * Between calls a read, so no two shell operations are adjacent (no collapse).
 */
function eightCalls(): Session {
  const entries: EntryInput[] = [user("u1", "inspect the files")];
  for (let k = 1; k <= 8; k++) {
    entries.push(call(`c${k}`, `k${k}`, 1500 * k));
    entries.push(result(`r${k}`, `k${k}`, `output ${k} `.repeat(40)));
    entries.push(call(`d${k}`, `q${k}`, 1500 * k + 100, "todo", { op: "list" }));
    entries.push(result(`s${k}`, `q${k}`, `todo ${k}`, "todo"));
  }
  entries.push(senpiAssistant("final", "done", 14000));
  return sessionOf(entries);
}

function toolMessages(body: Record<string, unknown>): { id: string; content: string }[] {
  return (body.messages as { role: string; tool_call_id?: string; content?: unknown }[])
    .filter((m) => m.role === "tool")
    .map((m) => ({ id: m.tool_call_id!, content: String(m.content) }));
}

describe("SP-C7 gate and SP-C10 [tool result cleared] in the rebuilt requests", () => {
  it("below half the window nothing changes; from the request where usage ≥ 0.5 × window on, all but the six newest bash results are cleared", () => {
    const session = eightCalls();
    const requests = buildAllTurnRequests(session, options());
    // Turn order: c1, d1, c2, d2, … The request answered by c8 carries r1…r7 (7 bash results)
    // and senpi's usage = d7's 10610 + the estimate of s7 ≥ 10000.
    const before = requests[12]!; // answered by c7: last usage d6 = 9110 + trailing < 10000
    expect(toolMessages(before.body).every((m) => m.content !== TOOL_RESULT_CLEARED)).toBe(true);
    const gated = requests[14]!; // answered by c8: usage d7 = 10610 ≥ 10000, 7 bash results
    const bash = toolMessages(gated.body).filter((m) => m.id.startsWith("k"));
    expect(bash.map((m) => m.content === TOOL_RESULT_CLEARED)).toEqual([true, false, false, false, false, false, false]);
    // todo is not a clearable tool: its results stay.
    expect(toolMessages(gated.body).filter((m) => m.id.startsWith("q")).every((m) => m.content.startsWith("todo"))).toBe(true);
    const last = requests[requests.length - 1]!; // answered by final: 8 bash results, 2 cleared
    expect(toolMessages(last.body).filter((m) => m.id.startsWith("k")).map((m) => m.content === TOOL_RESULT_CLEARED)).toEqual([true, true, false, false, false, false, false, false]);
    // The cleared message names its rule for the UI.
    const cleared = last.messages.find((m) => m.provenance.rule === "reduce:tool-result-cleared")!;
    expect(cleared.provenance.ruleId).toBe("SP-C10");
    expect(cleared.provenance.entryId).toBe("r1");
  });

  it("the one-walk rebuild and the single-turn rebuild agree", () => {
    const session = eightCalls();
    const all = buildAllTurnRequests(session, options());
    for (const turn of [13, 15, all.length]) {
      expect(JSON.stringify(buildTurnRequest(session, options(), turn).body)).toBe(JSON.stringify(all[turn - 1]!.body));
    }
  });

  it("is not applied when the window is only the catalogue's default guess, nor when switched off, nor on the OpenAI remote-compaction path", () => {
    const session = eightCalls();
    const unknown = buildAllTurnRequests(session, { profile: "senpi" });
    expect(JSON.stringify(unknown.map((r) => r.body))).not.toContain(TOOL_RESULT_CLEARED);
    const off = buildAllTurnRequests(session, options({ agentOptions: { senpiContextReduction: false } }));
    expect(JSON.stringify(off.map((r) => r.body))).not.toContain(TOOL_RESULT_CLEARED);
    const pi = buildAllTurnRequests(session, { ...options(), profile: "pi" });
    expect(JSON.stringify(pi.map((r) => r.body))).not.toContain(TOOL_RESULT_CLEARED);
  });

  it("right after a compaction with no answer since, the usage is the chars/4 sum of the context", () => {
    // A compaction kept everything from u2; the first request after it has no post-compaction
    // usage, so senpi sums the estimates (small here) instead of the stale pre-compaction usage.
    const entries: EntryInput[] = [user("u1", "go")];
    for (let k = 1; k <= 8; k++) {
      entries.push(call(`c${k}`, `k${k}`, 15000));
      entries.push(result(`r${k}`, `k${k}`, "x".repeat(40)));
    }
    entries.push({ id: "cmp", type: "compaction", summary: "S", firstKeptEntryId: "u1", tokensBefore: 15000, details: {}, fromHook: true });
    entries.push(user("u2", "again"));
    entries.push(senpiAssistant("a2", "ok", 15000));
    entries.push(user("u3", "more"));
    entries.push(senpiAssistant("a3", "ok", 15000));
    const requests = buildAllTurnRequests(sessionOf(entries), options());
    expect(JSON.stringify(requests[8]!.body)).not.toContain(TOOL_RESULT_CLEARED); // answered by a2: estimate only
    expect(JSON.stringify(requests[9]!.body)).toContain(TOOL_RESULT_CLEARED); // answered by a3: usage of a2
  });
});

describe("SP-C8 collapse and SP-C9 shrink (reduceSenpiContext)", () => {
  const item = (message: Record<string, unknown>, entryId: string) => ({ message: message as never, provenance: { rule: "entry", entryId } });
  const a = (id: string, callId: string, name: string, args: Record<string, unknown>) => item({ role: "assistant", content: [{ type: "toolCall", id: callId, name, arguments: args }] }, id);
  const r = (id: string, callId: string, name: string, text: string) => item({ role: "toolResult", toolCallId: callId, toolName: name, content: [{ type: "text", text }], isError: false }, id);
  const tail = [item({ role: "user", content: "q" }, "t1"), item({ role: "assistant", content: [{ type: "text", text: "a" }] }, "t2"), item({ role: "user", content: "q" }, "t3"), item({ role: "assistant", content: [{ type: "text", text: "a" }] }, "t4"), item({ role: "user", content: "q" }, "t5")];

  it("two adjacent read operations outside the newest five messages become one label on each result", () => {
    const messages = [a("a1", "x1", "read", { path: "/p/a.md" }), r("r1", "x1", "read", "AAAA"), a("a2", "x2", "read", { path: "/p/b.md" }), r("r2", "x2", "read", "BBBB"), ...tail];
    const out = reduceSenpiContext(messages);
    expect(out.groupsCollapsed).toBe(1);
    expect((out.messages[1]!.message as { content: { text: string }[] }).content[0]!.text).toBe("[2 read results: /p/a.md, /p/b.md]");
    expect((out.messages[3]!.message as { content: { text: string }[] }).content[0]!.text).toBe("[2 read results: /p/a.md, /p/b.md]");
    expect(out.messages[1]!.provenance.ruleId).toBe("SP-C8");
  });

  it("an old all-text answer over 800 tokens is cut to 30 % of the cap plus the shrink marker; answers inside the newest 3000 tokens are kept", () => {
    const long = "w".repeat(4000); // 1000 tokens
    const messages = [item({ role: "assistant", content: [{ type: "text", text: long }] }, "old"), item({ role: "user", content: "z".repeat(12000) }, "u"), item({ role: "assistant", content: [{ type: "text", text: long }] }, "new")];
    const out = reduceSenpiContext(messages);
    expect(out.messagesShrunk).toBe(1);
    const text = (out.messages[0]!.message as { content: { text: string }[] }).content[0]!.text;
    // 30 % of 800 = 240 tokens → 960 chars kept, then the marker at its fixed point.
    expect(text.startsWith("w".repeat(960) + "\n\n[response shrunk — 1000 → ")).toBe(true);
    expect(text).toMatch(/→ 25\d tokens\]$/);
    expect((out.messages[2]!.message as { content: { text: string }[] }).content[0]!.text).toBe(long);
  });
});

describe("senpi fixture with its context window known (28000)", () => {
  it("every main request stays byte-equal: also request 008, where the gate holds (usage of 7f0df582 + its two results ≥ 14000), because nothing is clearable (5 results ≤ 6) or collapsible", () => {
    const fixture = fixtureCase("senpi/print-openai-autocompact");
    const header = extractRequestHeader(fixture.request(1), "001.json");
    const built = buildAllTurnRequests(fixture.session, { profile: "senpi", header, modelOverrides: { "fake/fake-model": { contextWindow: 28000, maxTokens: 4000 } } });
    const main = fixture.requests().filter((q) => q.kind === "main");
    expect(built).toHaveLength(main.length);
    built.forEach((request, i) => expect(JSON.stringify(request.body)).toBe(JSON.stringify(main[i]!.body)));
  });
});
