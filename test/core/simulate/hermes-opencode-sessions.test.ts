// Both policies on a real pi session (the generic path: any session's turn context), through the
// framework's simulateCompaction, so the wiring (registry, limits, after request) is exercised.
import { describe, expect, it } from "vitest";
import { extractOpencodeInstructions } from "../../../src/core/agents/opencode/policy";
import { getPolicy } from "../../../src/core/session/simulate/policies";
import { simulateCompaction } from "../../../src/core/session/simulate/simulate";
import { fixtureCase } from "../../support/fixtures";

function loadSession() {
  return fixtureCase("pi/print-openai-autocompact").session;
}

describe("hermes and opencode on a pi session", () => {
  it("are registered", () => {
    expect(getPolicy("hermes").id).toBe("hermes");
    expect(getPolicy("opencode").extractInstructions).toBeTypeOf("function");
  });

  it("hermes: trigger, summariser request, after request in the turn's shape, CP-0-2 order", () => {
    const session = loadSession();
    const result = simulateCompaction({ session, options: { profile: "pi" }, turn: 4, policyId: "hermes", manual: true, limits: { contextWindow: 16000 }, parameters: { roleSplit: "on", protectLastN: 3 } });
    expect(Object.keys(result).slice(2, 10)).toEqual(["parameters", "limits", "trigger", "partition", "summariserRequests", "after", "verdict", "tokens"]);
    expect(result.trigger.right).toBe(13600);
    expect(result.verdict.verdict).toBe("compacted");
    const messages = result.summariserRequests[0]!.body.messages as { role: string }[];
    expect(messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(result.after.request?.body).toBeDefined();
    expect(result.tokens.after).toBeLessThan(result.tokens.before);
  });

  it("opencode: adapts the turn context to rows and builds a first-compaction request", () => {
    const session = loadSession();
    const result = simulateCompaction({ session, options: { profile: "pi" }, turn: 4, policyId: "opencode", manual: true, limits: { contextWindow: 16000, maxOutputTokens: 4000 } });
    const body = result.summariserRequests[0]!.body as { messages: { role: string; content: string }[]; max_tokens: number };
    expect(body.max_tokens).toBe(4000);
    expect(body.messages[1]!.content.startsWith("Here is the conversation so far:\n\n<conversation>\n[User]: ")).toBe(true);
    expect(result.verdict.verdict).toBe("compacted");
    expect(extractOpencodeInstructions({ messages: [{ role: "user", content: "x" }] }, "x")).toBeNull();
  });
});
