// The usage a Copilot CLI session records per model at its end: each `session.shutdown`'s
// `modelMetrics`, one total per model (docs/formats/copilot-cli.md). Copilot writes usage per call
// only in newer logs (`session.usage_record`); an older log's calls carry their output count
// alone, so its cost is the shutdown totals'. A resumed session writes one shutdown per run of the
// CLI: older CLIs count each run's calls (they are added), 1.0.102 restores the totals on resume
// (the last one stands for the runs before it); history.ts tells which [INF].
import type { SessionUsageTotal } from "../descriptor";
import type { ModelRef, RecordedUsage, Session } from "../../model";
import { getCopilotIndex } from "./history";

function add(a: RecordedUsage, b: RecordedUsage): RecordedUsage {
  return { input: a.input + b.input, output: a.output + b.output, cacheRead: a.cacheRead + b.cacheRead, cacheWrite: a.cacheWrite + b.cacheWrite, totalTokens: a.totalTokens + b.totalTokens };
}

export function copilotSessionTotals(session: Session): SessionUsageTotal[] {
  const byModel = new Map<string, { model: ModelRef | null; usage: RecordedUsage; at: string | null }>();
  for (const shutdown of getCopilotIndex(session).shutdowns) {
    if (shutdown.cumulative) byModel.clear();
    for (const { model, usage } of shutdown.perModel) {
      const key = model ? `${model.provider}/${model.modelId}` : "";
      const found = byModel.get(key);
      if (found) found.usage = add(found.usage, usage);
      else byModel.set(key, { model, usage, at: session.entries[0]?.timestamp ?? shutdown.entry.timestamp });
    }
  }
  const sessionId = typeof session.header?.sessionId === "string" ? session.header.sessionId : session.fileName;
  return [...byModel.values()].map((total) => ({ sessionId, source: "session.shutdown", usage: total.usage, model: total.model, at: total.at }));
}
