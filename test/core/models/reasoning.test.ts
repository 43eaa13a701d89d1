// Reasoning and thinking tell one story: a turn recorded with a thinking level reasons even when
// the catalogue does not know its model (which assumes "no"); "off" says nothing. Truth: the
// thinking levels pi wrote on the real session's thinking_level_change lines.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { resolveModel } from "../../../src/core/models/catalogue";
import { turnReasoning } from "../../../src/core/models/reasoning";
import { describeShared } from "../../support/fixtures";

it("an unknown model with thinking xhigh reasons; with thinking off it keeps the catalogue's no", () => {
  const unknown = resolveModel({ provider: "someone", modelId: "not-in-the-list" }, "openai-responses");
  expect(unknown.reasoning).toBe(false);
  expect(turnReasoning(unknown, "xhigh")).toEqual({ reasoning: true, fromThinking: true });
  expect(turnReasoning(unknown, "off")).toEqual({ reasoning: false, fromThinking: false });
  expect(turnReasoning(resolveModel({ provider: "openai", modelId: "gpt-5.5" }, null), "off").reasoning).toBe(true);
});

describeShared("thinking levels of a real pi session", (shared) => {
  it("every level pi recorded other than off means reasoning", () => {
    const text = readFileSync(shared.path("realworld/pi/pi-mono-large-session-v1.jsonl"), "utf8");
    const levels = new Set([...text.matchAll(/"thinkingLevel":"([a-z]+)"/g)].map((match) => match[1]!));
    expect([...levels].sort()).toEqual(["high", "low", "medium", "minimal", "off"]);
    const unknown = resolveModel(null, null);
    for (const level of levels) expect(turnReasoning(unknown, level).reasoning, level).toBe(level !== "off");
  });
});
