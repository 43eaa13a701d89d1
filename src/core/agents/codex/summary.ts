// A Codex rollout's summary for `scan` without `--full`: the rollout read line by line with the
// agent's own reader and its rollout index (turns.ts), which find the sampling requests — by their
// usage lines (`token_count`, `token_usage_record`), else by the runs of model output — and the
// compactions; no request is rebuilt and no token counted. The calls are its turns and the
// compaction summariser calls whose usage the rollout records (priced as the full pipeline prices
// them, src/app/sessionPrices.ts).
import type { PipelineOptions } from "../../model";
import type { SessionSummary, SummaryCall, SummaryLines } from "../descriptor";
import { codexReader } from "./reader";
import { analyzeCodexSession } from "./turns";
import { codexRolloutLineage } from "./threads";

const OPTIONS: PipelineOptions = { leafId: null, api: null, header: null, notes: false };

export function summarizeCodexLines(lines: SummaryLines, fileName: string): SessionSummary {
  const reader = codexReader.createLineReader(fileName);
  let number = 0;
  for (const line of lines()) {
    number++;
    if (line.trim() !== "") reader.pushLine(line, number);
  }
  const session = reader.finish();
  const analysis = analyzeCodexSession(session, OPTIONS);
  const main: SummaryCall[] = analysis.turns.map((turn) => ({ model: turn.model, at: turn.timestamp, usage: turn.usage, verdict: null }));
  const auxiliary: SummaryCall[] = [];
  let compactions = 0;
  for (const item of analysis.timeline) {
    if (item.kind !== "compaction") continue;
    compactions++;
    if (item.usage) auxiliary.push({ model: item.model ?? null, at: item.timestamp, usage: item.usage, verdict: null });
  }
  const cwd = session.header?.cwd;
  return { main, auxiliary, threads: [], compactions, project: typeof cwd === "string" && cwd !== "" ? cwd : null, agentId: null, lineage: codexRolloutLineage(session) };
}
