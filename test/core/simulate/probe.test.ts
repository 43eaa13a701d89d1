import { it } from "vitest";
import { loadFixture } from "./fixtures";
import { extractRequestHeader } from "../../../src/core/providers";
import { replayRecordedCompactions } from "../../../src/core/simulate/recorded";
import { simulateCompaction } from "../../../src/core/simulate";
it("probe", () => {
  const r = loadFixture("pi", "rpc-anthropic-manualcompact");
  console.log(JSON.stringify(replayRecordedCompactions(r.session, { profile: "pi" }, "pi", { parameters: { reserveTokens: 4000, keepRecentTokens: 40 }, captured: [12, 16, 17].map((n) => ({ source: `${n}`, body: r.request(n) })) }).map(l => ({...l, summariserRequests: l.summariserRequests.length}))));
  const s = loadFixture("senpi", "print-openai-autocompact");
  const header = extractRequestHeader(s.request(8), "008");
  const options = { profile: "senpi" as const, header, modelOverrides: { "fake/fake-model": { contextWindow: 28000, maxTokens: 4000 } } };
  const lines = replayRecordedCompactions(s.session, options, "senpi", { parameters: { reserveTokens: 4000, keepRecentTokens: 800 }, captured: [9].map((n) => ({ source: `${n}`, body: s.request(n) })) });
  console.log(JSON.stringify(lines.map(l => ({...l, summariserRequests: l.summariserRequests.length}))));
  const res = simulateCompaction({ session: s.session, options, turn: 8, policyId: "senpi", parameters: { reserveTokens: 4000, keepRecentTokens: 800 }, followingTurns: 2 });
  console.log(res.trigger.expression, res.verdict.verdict, JSON.stringify(res.summariserRequests.map(r => [r.role, r.form, r.notes, r.cache])), JSON.stringify(res.after.followingTurns), JSON.stringify(res.findings.map(f => f.id)));
}, 60000);
