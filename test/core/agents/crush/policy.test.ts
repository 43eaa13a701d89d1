// Crush's summarisation in the simulator, on the hand-made fixture: its threshold from the window
// (20,000 tokens above a 200,000 window, else 20%), the summariser request with every row of the
// turn's step and Crush's prompt last, and the next request reduced to the reminder and the summary.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadDatabase } from "../../../../src/cli/sqlite";
import { crushPolicy } from "../../../../src/core/agents/crush/policy";
import { CRUSH_SUMMARY_PROMPT } from "../../../../src/core/agents/crush/summariser";
import { emptySession } from "../../../../src/core/session/index";
import { simulateCompaction } from "../../../../src/core/session/simulate/simulate";

const DB = path.join(__dirname, "../../../fixtures/crush/hand-made/crush.db");

describe("Crush summarisation policy", () => {
  it("keeps 20,000 tokens free above a 200,000 window, 20% of the window otherwise", async () => {
    const session = await loadDatabase(DB);
    const large = simulateCompaction({ session, options: {}, turn: 2, policyId: "crush", limits: { contextWindow: 400000 } });
    expect(large.trigger.right).toBe(20000);
    expect(large.trigger.result).toBe(false);
    expect(large.verdict.verdict).toBe("not-triggered");
    const small = simulateCompaction({ session, options: {}, turn: 2, policyId: "crush", limits: { contextWindow: 1000 } });
    expect(small.trigger.right).toBe(200);
    // A window the request nearly fills: what is left is under 20% of it.
    const tokens = small.trigger.operands.find((operand) => operand.name === "tokens")!.value;
    const tight = simulateCompaction({ session, options: {}, turn: 2, policyId: "crush", limits: { contextWindow: tokens + 10 } });
    expect(tight.trigger.result).toBe(true);
    expect(tight.verdict.verdict).toBe("compacted");
    const off = simulateCompaction({ session, options: {}, turn: 2, policyId: "crush", parameters: { disableAutoSummarize: true }, limits: { contextWindow: tokens + 10 } });
    expect(off.trigger.result).toBe(false);
  });

  it("summarises the whole step and sends the summary as the only message after the reminder", async () => {
    const session = await loadDatabase(DB);
    const result = simulateCompaction({ session, options: {}, turn: 3, policyId: "crush", manual: true, limits: { contextWindow: 400000 } });
    expect(result.verdict.verdict).toBe("compacted");
    const request = result.summariserRequests[0]!;
    const messages = request.body.messages as { role: string; content: unknown }[];
    expect(messages.at(-1)).toEqual({ content: CRUSH_SUMMARY_PROMPT, role: "user" });
    // Turn 3's step called the edit tool: its failed result is the last row summarised.
    expect(messages.at(-2)).toMatchObject({ role: "tool", tool_call_id: "call_edit_1" });
    expect(Object.keys(request.body)).toEqual(["messages", "model", "stream_options", "stream"]);
    const after = result.after.request!.body.messages as { role: string }[];
    expect(after.map((message) => message.role)).toEqual(["system", "user", "user"]);
    expect(result.partition.kept).toEqual([]);
  });

  it("runs on Crush sessions only", () => {
    expect(crushPolicy.notApplicable!(emptySession("x.jsonl", 0))).toMatch(/Crush sessions only/);
  });
});
