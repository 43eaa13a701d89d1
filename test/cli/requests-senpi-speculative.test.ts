// `requests` on a senpi session written here whose compaction senpi stored with origin
// "speculative" (SP-K8): the compaction line names the turn its summariser request went out with.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { chain, toJsonl, user, assistant, toolResult } from "../core/agents/pi/sessionBuilder";
import { runCliCaptured } from "./cli-helpers";

const usage = (input: number) => ({ input, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: input + 10 });
const answer = (id: string, text: string, input: number) => assistant(id, text, { provider: "fake", model: "fake-model", usage: usage(input) });
const call = (id: string, callId: string, input: number) =>
  assistant(id, "", { provider: "fake", model: "fake-model", usage: usage(input), content: [{ type: "toolCall", id: callId, name: "bash", arguments: { command: `cat ${callId}` } }], stopReason: "toolUse" });

function write(origin: string, tokensBefore: number): string {
  const entries = [
    user("u1", "read the readme"), call("c1", "k1", 3000), toolResult("r1", "k1", "R".repeat(2000)), answer("a1", "answer one", 4000),
    user("u2", "read the changelog"), call("c2", "k2", 5000), toolResult("r2", "k2", "C".repeat(1600)), answer("a2", "answer two", 8000),
    user("u3", "read the faq"), call("c3", "k3", 9000), toolResult("r3", "k3", "F".repeat(1600)), answer("a3", "answer three", 10500),
    { id: "cmp1", type: "compaction", summary: "S", firstKeptEntryId: "a2", tokensBefore, details: { schema: "senpi.compaction.summary.v1", promptVariant: "turn_prefix", origin }, fromHook: true },
    user("u4", "thanks"), answer("a4", "bye", 3000),
  ];
  const file = path.join(mkdtempSync(path.join(tmpdir(), "cs-senpi-")), "s.jsonl");
  writeFileSync(file, toJsonl(chain(entries)));
  return file;
}

async function compactionLine(file: string): Promise<Record<string, unknown>> {
  const run = await runCliCaptured(["requests", file, "--profile", "senpi"]);
  expect(run.code).toBe(0);
  return run.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.kind === "compaction")!;
}

describe("requests: senpi speculative compaction", () => {
  it("origin speculative → sentBeforeTurn of the prompt whose context estimate is the recorded tokensBefore; core-route → none", async () => {
    // The branch before u3: a2's usage 8010 (no messages after it) → tokensBefore 8010.
    const speculative = await compactionLine(write("speculative", 8010));
    expect(speculative.beforeTurn).toBe(7);
    expect(speculative.sentBeforeTurn).toBe(5);
    expect((speculative.requests as unknown[]).length).toBe(1);
    const core = await compactionLine(write("core-route", 8010));
    expect(core.sentBeforeTurn).toBeUndefined();
  });
});
