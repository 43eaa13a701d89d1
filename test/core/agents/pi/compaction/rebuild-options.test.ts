// buildCompactionRequests options: boundary rule G1 (spec §6 row 19), the older "replay" form of
// the turn-prefix request (PI-K27), senpi caps (PI-K24) and error handling.
import { describe, expect, it } from "vitest";
import { buildCompactionRequests, extractCompactionInstructions, mergeCompactionInstructions } from "../../../../../src/core/agents/pi/compaction";
import { FIXTURE_SETTINGS, loadPiFixture } from "./fixture-sessions";

const print = loadPiFixture("print-openai-autocompact");
const instructions = mergeCompactionInstructions(
  extractCompactionInstructions(print.request(9))!.instructions,
  extractCompactionInstructions(print.request(14))!.instructions,
  extractCompactionInstructions(loadPiFixture("rpc-anthropic-manualcompact").request(16))!.instructions,
);
const settings = FIXTURE_SETTINGS["print-openai-autocompact"];

describe("buildCompactionRequests options", () => {
  it("row 19: G1 → one update request with an empty conversation and the previous summary; dropped-range lint", () => {
    const rebuild = buildCompactionRequests(print.session, { profile: "pi", instructions, settings, boundaryRule: "G1" }, "2ca2e615");
    expect(rebuild.boundaryStartEntryId).toBe("746ac1d7");
    expect(rebuild.requests.map((r) => [r.role, r.instructionSlot])).toEqual([["history", "updatePrompt"]]);
    expect(rebuild.serializedConversation).toBe("");
    expect(rebuild.requests[0]!.userText.startsWith("<conversation>\n\n</conversation>\n\n<previous-summary>\n## Goal")).toBe(true);
    expect(rebuild.lints.some((l) => l.startsWith("kept messages dropped without summary"))).toBe(true);
    // The recorded cut (1100d7d9) lies before the G1 boundary: reported, computed cut used.
    expect(rebuild.lints.some((l) => l.includes("not on the path inside the G1 boundary"))).toBe(true);
    expect(rebuild.firstKeptEntryId).toBe("746ac1d7");
  });

  it("PI-K27 replay form: the prefix messages themselves, then the prompt, no system prompt", () => {
    const rebuild = buildCompactionRequests(print.session, { profile: "pi", instructions, settings, turnPrefixForm: "replay" }, "2ca2e615");
    const body = rebuild.requests[0]!.body as { messages: { role: string; content: unknown }[]; max_completion_tokens: number };
    expect(body.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
    expect(body.max_completion_tokens).toBe(5800);
    expect(JSON.stringify(body.messages[3]!.content)).toContain("## Original Request");
    expect(rebuild.turnPrefixConversation).toBeUndefined();
  });

  it("senpi clamps the caps to the model's output limit", () => {
    const rebuild = buildCompactionRequests(
      print.session,
      { profile: "senpi", instructions, settings: { reserveTokens: 16384 }, modelOverrides: { "fake/fake-model": { maxTokens: 4000 } } },
      "d031100d",
    );
    expect(rebuild.requests[0]!.maxTokens).toBe(4000);
    const pi = buildCompactionRequests(print.session, { profile: "pi", instructions, settings: { reserveTokens: 16384 } }, "d031100d");
    expect(pi.requests[0]!.maxTokens).toBe(13107);
  });

  it("the summariser can be rendered in another wire shape", () => {
    const rebuild = buildCompactionRequests(print.session, { profile: "pi", instructions, settings, api: "anthropic-messages" }, "d031100d");
    const body = rebuild.requests[0]!.body as Record<string, unknown>;
    expect(rebuild.requests[0]!.api).toBe("anthropic-messages");
    expect(body.max_tokens).toBe(9280);
    expect("tools" in body).toBe(false);
  });

  it("throws for an id that is not a compaction entry", () => {
    expect(() => buildCompactionRequests(print.session, { profile: "pi" }, "89290492")).toThrow(/No compaction entry/);
    expect(() => buildCompactionRequests(print.session, { profile: "pi" }, "zzzz")).toThrow(/No compaction entry/);
  });
});
