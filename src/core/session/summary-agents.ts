// The summary pass's agents by id, without the registry's readers (src/core/agents/summary-registry.ts):
// what a caller that knows each file's agent (a scan worker thread) looks its summariser up in.
import { SUMMARY_ONLY_AGENTS } from "../agents/summary-registry";
import type { SummaryAgent } from "./summary-pass";

/** The summary agent of this id, or null when its summary pass needs the whole registry (or it has none). */
export function summaryOnlyAgent(id: string | null | undefined): SummaryAgent | null {
  return id ? (SUMMARY_ONLY_AGENTS.find((agent) => agent.id === id) ?? null) : null;
}
