import { learnCapture } from "./src/core/session/captures";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { verifySession } from "./src/app/captureVerify";
import { loadAnySession } from "./src/cli/inputs";
const F = "/work/shared/fixtures";
const cases: [string, string | null, string?][] = [
 ["pi/print-openai-autocompact", null], ["pi/rpc-anthropic-manualcompact", null], ["senpi/print-openai-autocompact", null, "senpi"],
 ["claude/print-autocompact-manualcompact", null], ["codex/exec-autocompact", null], ["opencode/run-autocompact", "session/export.json"],
 ["deepseek-harness/headless-deepseek-manualcompact", "zstd"], ["gemini-cli/p-resume-autocompress", null], ["qwen-code/p-continue-autocompress", null]];
function find(dir: string, ext: string): string { for (const e of readdirSync(dir, { withFileTypes: true })) { const p = path.join(dir, e.name); if (e.isDirectory()) { const r = find(p, ext); if (r) return r; } else if (p.endsWith(ext)) return p; } return ""; }
const io = { stdout: () => {}, stderr: () => {}, readFile: (f: string) => new Uint8Array(readFileSync(f)) };
for (const [id, s, profile] of cases) {
  const dir = path.join(F, id);
  const file = s === "zstd" ? find(path.join(dir, "session"), ".jsonl.zstd") : s ? path.join(dir, s) : find(path.join(dir, "session"), ".jsonl");
  const session = await loadAnySession(io, file);
  const caps = readdirSync(path.join(dir, "requests")).filter((f) => /^\d+\.json$/.test(f)).map((f) => ({ source: f, body: JSON.parse(readFileSync(path.join(dir, "requests", f), "utf8")), kind: JSON.parse(readFileSync(path.join(dir, "requests", f.replace(".json", ".meta.json")), "utf8")).kind }));
  const res = verifySession(session, { profile: (profile ?? "pi") as any }, caps);
  for (const r of res.filter((r) => r.kind !== "main")) console.log(id, r.source, r.kind, r.verdict, r.reason ?? "", r.difference ? JSON.stringify({ path: r.difference.path, part: r.difference.part }) : "");
}
import { buildOpencodeAuxiliaryRequest } from "./src/core/agents/opencode/index";
{
  const dir = path.join(F, "opencode/run-autocompact");
  const session = await loadAnySession(io, path.join(dir, "session/export.json"));
  const cap = JSON.parse(readFileSync(path.join(dir, "requests/001.json"), "utf8"));
  const r = buildOpencodeAuxiliaryRequest(session, { profile: "pi", header: learnCapture(JSON.parse(readFileSync(path.join(dir, "requests/002.json"), "utf8")), "002.json") }, 0, { source: "001.json", body: cap });
  console.log(JSON.stringify(r.request.body).slice(0, 300), r.request.model);
}
