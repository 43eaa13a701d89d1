// Both policies on a real pi session (the generic path: any session's turn context), through the
// framework's simulateCompaction, so the wiring (registry, limits, after request) is exercised.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readSessionText } from "../../../src/core/readers";
import { extractOpencodeInstructions } from "../../../src/core/agents/opencode/policy";
import { getPolicy } from "../../../src/core/simulate/policies";
import { simulateCompaction } from "../../../src/core/simulate/simulate";

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/pi/print-openai-autocompact/session");

function loadSession() {
  const find = (dir: string): string => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = find(full);
        if (found) return found;
      } else if (entry.name.endsWith(".jsonl")) return full;
    }
    return "";
  };
  const file = find(DIR);
  return readSessionText(readFileSync(file, "utf8"), path.basename(file));
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
