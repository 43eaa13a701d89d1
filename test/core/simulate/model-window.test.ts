// Model windows from the model's facts: GPT-5.x and claude-opus-4-7 are in the catalogue, and a
// model it does not know never gets a window below the largest context the session itself reached
// (read here from the raw usage lines, not from our reader), with a source that says so.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { resolveModel } from "../../../src/core/models/catalogue";
import { readSessionText, simulateCompaction } from "../../../src/core/session/index";
import { windowFromSession } from "../../../src/core/session/simulate/index";
import { buildTurnRequest } from "../../../src/core/session/pipeline";
import { syntheticSession } from "./synthetic";
import { describeShared } from "../../support/fixtures";

it("GPT-5.x and claude-opus-4-7 have their catalogue windows, dated ids included", () => {
  for (const id of ["gpt-5.3-codex", "gpt-5.4", "gpt-5.5", "gpt-5.5-codex-high"]) {
    const model = resolveModel({ provider: "openai", modelId: id }, "openai-responses");
    expect(model.source, id).not.toBe("catalogue-default");
    expect(model.contextWindow, id).toBeGreaterThanOrEqual(400000);
    expect(model.id, id).toBe(id);
  }
  const opus = resolveModel({ provider: "anthropic", modelId: "claude-opus-4-7" }, "anthropic-messages");
  expect(opus.source).not.toBe("catalogue-default");
  expect(opus.contextWindow).toBe(1000000);
});

/** The largest prompt a main-chain assistant line's usage records (input + cache reads + cache writes). */
function largestRawContext(text: string): number {
  let largest = 0;
  for (const line of text.split("\n")) {
    if (!line.includes('"usage"')) continue;
    const entry = JSON.parse(line) as { type?: string; isSidechain?: boolean; message?: { usage?: Record<string, number> } };
    const usage = entry.type === "assistant" && entry.isSidechain !== true ? entry.message?.usage : undefined;
    if (usage) largest = Math.max(largest, (usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0));
  }
  return largest;
}

describeShared("a session past its model's known window", (shared) => {
  const file = shared.path("realworld-next/claude-code/pshung-v2.1.143-2compactions-4subagents.jsonl");
  const text = readFileSync(file, "utf8");
  const largest = largestRawContext(text);

  it("claude-opus-4-7: the catalogue window holds the 334k the session reached", () => {
    expect(largest).toBeGreaterThan(334000);
    const session = readSessionText(text, file);
    const { limits } = simulateCompaction({ session, options: {}, turn: 100, policyId: "claude-code", manual: false, triggerOnly: true, followingTurns: 0 });
    expect(limits.contextWindow).toBeGreaterThanOrEqual(largest);
    expect(limits.contextWindowSource).toBe("catalogue");
  });

  it("an unknown model: the window is the largest context reached (not 128,000), and says so", () => {
    const renamed = text.replaceAll('"claude-opus-4-7"', '"claude-unknown-model"');
    const session = readSessionText(renamed, file);
    const { limits } = simulateCompaction({ session, options: {}, turn: 100, policyId: "claude-code", manual: false, triggerOnly: true, followingTurns: 0 });
    expect(limits.contextWindow).toBe(largest);
    expect(limits.contextWindowSource).toContain("largest context this session reached");
  });
});

it("Details and the simulator take an unknown model's window from the same function", () => {
  const session = syntheticSession(
    [
      { role: "user", text: "hello" },
      { role: "assistant", text: "hi", total: 150000 },
      { role: "user", text: "more" },
      { role: "assistant", text: "ok", total: 210000 },
    ],
    { provider: "someone", id: "model-nobody-knows" },
  );
  const built = buildTurnRequest(session, {}, 2);
  expect(built.model.source).toContain("default");
  const window = windowFromSession(session, {}, built.model);
  // The session reached 210,000 tokens of context (input 209,990 + 0 cache): above the default window.
  expect(window).toBe(209990);
  const { limits } = simulateCompaction({ session, options: {}, turn: 2, policyId: "pi", manual: false, triggerOnly: true, followingTurns: 0 });
  expect(limits.contextWindow).toBe(window);
  // A model our list knows keeps its own window.
  const known = syntheticSession([{ role: "user", text: "hello" }, { role: "assistant", text: "hi", total: 150000 }]);
  expect(windowFromSession(known, {}, buildTurnRequest(known, {}, 1).model)).toBeNull();
});
