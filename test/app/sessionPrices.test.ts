// The whole session's cost inputs count every provider call whose usage the file records: the
// turns, Codex's compaction requests and opencode's summary messages; hermes-agent's state.db,
// which counts tokens per session only, gives its session totals. Each figure checked against the
// file itself, on the shared recordings; a call a sub-agent's file replays counts once.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sessionCostInputs, sessionPrices } from "../../src/app/sessionPrices";
import { loadAnySession } from "../../src/cli/inputs";
import type { CliIo } from "../../src/cli/io";
import { readSessionText } from "../../src/core/session/index";
import { analyzeSession } from "../../src/core/session/pipeline";
import { describeShared, findSessionFile, fixturePath } from "../support/fixtures";
import { linkSessions } from "../../src/core/session/threads";
import { wholeSessionCost } from "../../src/core/pricing/index";
import { datasetPriceTable } from "../../src/core/pricing/dataset";

const io: CliIo = { stdout: () => undefined, stderr: () => undefined, readFile: (file) => readFileSync(file) };
const OPTIONS = { profile: "pi" as const, leafId: null };

function tokens(threads: ReturnType<typeof sessionCostInputs>) {
  let input = 0;
  let output = 0;
  let calls = 0;
  for (const thread of threads) {
    for (const turn of thread.turns) {
      calls++;
      input += (turn.usage?.input ?? 0) + (turn.usage?.cacheRead ?? 0) + (turn.usage?.cacheWrite ?? 0);
      output += turn.usage?.output ?? 0;
    }
  }
  return { calls, input, output };
}

describeShared("every provider call's usage in the whole session's cost", (shared) => {
  it("Codex: the compaction request's token_count counts beside the 15 turns", () => {
    const file = findSessionFile(shared.path("codex/exec-autocompact/session"));
    const text = readFileSync(file, "utf8");
    // Independently: the last token_count's total is every call's input summed.
    const totals = text
      .split("\n")
      .filter((line) => line.includes('"token_count"'))
      .map((line) => (JSON.parse(line) as { payload: { info?: { total_token_usage?: { input_tokens: number; output_tokens: number } } } }).payload.info?.total_token_usage)
      .filter((usage) => usage !== undefined);
    const last = totals[totals.length - 1]!;
    const threads = sessionCostInputs(readSessionText(text, path.basename(file)), OPTIONS);
    expect(tokens(threads)).toEqual({ calls: 16, input: last.input_tokens, output: last.output_tokens });
  });

  it("opencode: the two summary messages' tokens count beside the turns", async () => {
    const session = await loadAnySession(io, shared.path("opencode/run-autocompact/session/opencode-db/opencode.db"));
    const threads = sessionCostInputs(session, OPTIONS);
    // Every assistant message of the database, summaries included: 169,531 input and 1,272 output tokens.
    expect(tokens(threads)).toEqual({ calls: 19, input: 169_531, output: 1272 });
  });

  it("hermes-agent: a state.db session without per-call usage is priced from its session totals, saying so", async () => {
    const session = await loadAnySession(io, shared.path("hermes-storage/state.db"), "20261201_090624_3e9952");
    const prices = sessionPrices(session, OPTIONS);
    expect(prices.threads[0]!.countedAs).toMatch(/session totals state\.db records/);
    expect(prices.threads[0]!.turns).toEqual([
      { model: { provider: "openrouter", modelId: "anthropic/claude-sonnet-4" }, at: expect.any(String), usage: { input: 10_610, output: 192, cacheRead: 9296, cacheWrite: 0, totalTokens: 20_098 } },
    ]);
    // Sent through OpenRouter (its base URL): OpenRouter's list price for the model.
    expect(prices.rows.map((row) => `${row.provider}/${row.model}`)).toEqual(["openrouter/anthropic/claude-sonnet-4"]);
  });
});

describe("sessionPrices", () => {
  it("names the dataset and lists no row for a model it lacks", () => {
    const text = [
      { type: "session", version: 3, id: "s", timestamp: "2026-11-29T10:00:00.000Z", cwd: "/tmp" },
      { type: "message", id: "u1", parentId: null, timestamp: "2026-11-29T10:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } },
      { type: "message", id: "a1", parentId: "u1", timestamp: "2026-11-29T10:00:02.000Z", message: { role: "assistant", content: [{ type: "text", text: "yo" }], api: "openai-completions", provider: "acme", model: "acme-coder-9", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 }, stopReason: "stop", timestamp: 2 } },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n");
    const prices = sessionPrices(readSessionText(text, "s.jsonl"), OPTIONS);
    expect(prices.dataset).toMatchObject({ name: "@pydantic/genai-prices", version: "0.1.8" });
    expect(prices.rows).toEqual([]);
    expect(prices.threads).toHaveLength(1);
  });
});

describe("sessionPrices with the main thread's analysis given", () => {
  const text = [
    { type: "session", version: 3, id: "s", timestamp: "2026-11-29T10:00:00.000Z", cwd: "/tmp" },
    { type: "message", id: "u1", parentId: null, timestamp: "2026-11-29T10:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } },
    { type: "message", id: "a1", parentId: "u1", timestamp: "2026-11-29T10:00:02.000Z", message: { role: "assistant", content: [{ type: "text", text: "yo" }], api: "openai-completions", provider: "openai", model: "gpt-4o", usage: { input: 5, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 6 }, stopReason: "stop", timestamp: 2 } },
    { type: "message", id: "u2", parentId: "a1", timestamp: "2026-11-29T10:00:03.000Z", message: { role: "user", content: "more", timestamp: 3 } },
    { type: "message", id: "a2", parentId: "u2", timestamp: "2026-11-29T10:00:04.000Z", message: { role: "assistant", content: [{ type: "text", text: "ok" }], api: "openai-completions", provider: "openai", model: "gpt-4o", usage: { input: 9, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 11 }, stopReason: "stop", timestamp: 4 } },
  ]
    .map((line) => JSON.stringify(line))
    .join("\n");

  it("prices the calls of the analysis it is given (the worker's, kept), the same as its own", () => {
    const session = readSessionText(text, "s.jsonl");
    const analysis = analyzeSession(session, OPTIONS);
    expect(sessionPrices(session, OPTIONS, analysis)).toEqual(sessionPrices(session, OPTIONS));
    // Not analysed again: an analysis holding only the first turn prices that turn alone.
    const firstOnly = { ...analysis, turns: analysis.turns.slice(0, 1), timeline: analysis.timeline.slice(0, 1) };
    expect(tokens(sessionPrices(session, OPTIONS, firstOnly).threads)).toEqual({ calls: 1, input: 5, output: 1 });
    expect(tokens(sessionPrices(session, OPTIONS).threads)).toEqual({ calls: 2, input: 14, output: 3 });
  });
});

describe("a call another thread's file replays", () => {
  it("counts once: a compaction summariser's transcript that repeats the conversation's calls with their ids adds only its own call", () => {
    const main = fixturePath("claude/structures/acompact-replay.jsonl");
    const replay = fixturePath("claude/structures/acompact-replay/subagents/agent-acompact-0123456789abcdef.jsonl");
    const read = (file: string) => readSessionText(readFileSync(file, "utf8"), path.basename(file));
    const session = linkSessions([read(main), read(replay)]).session;
    // The summariser's file alone answers three requests (two replayed, its own).
    expect(analyzeSession(session.threads![0]!.session, OPTIONS).turns).toHaveLength(3);
    const threads = sessionCostInputs(session, OPTIONS);
    expect(threads.map((thread) => [thread.turns.length, thread.replayed ?? 0])).toEqual([[2, 0], [1, 2]]);
    // Independently, from the fixture's lines: msg_1 + msg_2 + msg_c, each once.
    expect(tokens(threads)).toEqual({ calls: 3, input: 10 + 1000 + (20 + 500 + 1000) + (5 + 300 + 1500), output: 50 + 60 + 400 });
    const cost = wholeSessionCost(threads, datasetPriceTable());
    expect(cost.calls).toBe(3);
    expect(cost.threads[1]).toMatchObject({ turns: 1, replayed: 2 });
  });
});
