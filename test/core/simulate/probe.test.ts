import { it } from "vitest";
import { loadFixture } from "./fixtures";
import { extractRequestHeader } from "../../../src/core/providers";
import { replayRecordedCompactions } from "../../../src/core/simulate/recorded";
it("probe", () => {
  const p = loadFixture("pi", "print-openai-autocompact");
  console.log(JSON.stringify(replayRecordedCompactions(p.session, { profile: "pi" }, "pi", { parameters: { reserveTokens: 11600, keepRecentTokens: 1800 }, limits: { contextWindow: 16000 }, captured: [9, 14].map((n) => ({ source: `${n}`, body: p.request(n) })) }).map(l => ({...l, summariserRequests: l.summariserRequests.length}))));
  const r = loadFixture("pi", "rpc-anthropic-manualcompact");
  console.log(JSON.stringify(replayRecordedCompactions(r.session, { profile: "pi" }, "pi", { parameters: { reserveTokens: 4000, keepRecentTokens: 40 }, captured: [12, 16, 17].map((n) => ({ source: `${n}`, body: r.request(n) })) }).map(l => ({...l, summariserRequests: l.summariserRequests.length}))));
  const s = loadFixture("senpi", "print-openai-autocompact");
  const header = extractRequestHeader(s.request(8), "008");
  const lines = replayRecordedCompactions(s.session, { profile: "senpi", header, modelOverrides: { "fake/fake-model": { contextWindow: 28000, maxTokens: 4000 } } }, "senpi", { parameters: { reserveTokens: 4000, keepRecentTokens: 800 }, captured: [9].map((n) => ({ source: `${n}`, body: s.request(n) })) });
  console.log(JSON.stringify(lines.map(l => ({...l, summariserRequests: l.summariserRequests.length}))));
  const a = JSON.stringify(lines[0]!.summariserRequests[0]); const b = JSON.stringify(s.request(9));
  let i = 0; while (a[i] === b[i]) i++; console.log(i, a.length, b.length, a.slice(i-100, i+200), "\n---\n", b.slice(i-100, i+200));
});
