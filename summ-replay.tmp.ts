import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { loadAnySession } from "./src/cli/inputs";
import { learnCapture } from "./src/core/session/captures";
import { replayRecordedCompactions, recordedCompactionPoints } from "./src/core/session/simulate/index";
import { firstDifference } from "./src/core/captures/firstDifference";
const F = "/work/shared/fixtures";
function find(dir: string, ext: string): string { for (const e of readdirSync(dir, { withFileTypes: true })) { const p = path.join(dir, e.name); if (e.isDirectory()) { const r = find(p, ext); if (r) return r; } else if (p.endsWith(ext)) return p; } return ""; }
const io = { stdout: () => {}, stderr: () => {}, readFile: (f: string) => new Uint8Array(readFileSync(f)) };
for (const [id, ext, policy] of [["gemini-cli/p-resume-autocompress", ".jsonl", "gemini-cli"], ["deepseek-harness/headless-deepseek-manualcompact", ".jsonl.zstd", "deepseek-harness"], ["qwen-code/p-continue-autocompress", ".jsonl", "claude-code"]] as const) {
  const dir = path.join(F, id);
  const session = await loadAnySession(io, find(path.join(dir, "session"), ext));
  const req = readdirSync(path.join(dir, "requests")).filter((f) => /^\d+\.json$/.test(f)).map((f) => ({ source: f, body: JSON.parse(readFileSync(path.join(dir, "requests", f), "utf8")), kind: JSON.parse(readFileSync(path.join(dir, "requests", f.replace(".json", ".meta.json")), "utf8")).kind }));
  const mains = req.filter((r) => r.kind === "main"); const summ = req.filter((r) => r.kind === "summary");
  const options = { profile: "pi" as const, header: learnCapture(mains[0]!.body, mains[0]!.source) };
  console.log(id, session.formatId, "points", recordedCompactionPoints(session, options).length);
  try {
    const lines = replayRecordedCompactions(session, options, policy as any, { captured: summ });
    for (const l of lines) { console.log(l.verdict, l.error ?? "", JSON.stringify(l.matches)); l.summariserRequests.forEach((b, k) => { const src = l.matches[k]!.captured ?? summ[k]?.source; const rec = summ.find((s) => s.source === src)?.body; if (rec) { const d = firstDifference(b, rec); console.log(src, d ? JSON.stringify({ path: d.path, part: d.part, r: d.rebuilt, w: d.wire }).slice(0, 1500) : "EQUAL"); } }); }
  } catch (e) { console.log("ERR", (e as Error).message); }
}
