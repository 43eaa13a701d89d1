// A session's summary from its files' lines alone (`scan` without `--full`): the agent detected
// from the first file's first lines, and when its descriptor has a `summarize`, each file summarised
// in one pass — the first file is the session, the others its sub-agent files (each file's calls
// one thread, as `linkFiles` joins them). Calls are counted and priced the way the full pipeline's
// whole-session cost counts them (src/app/sessionPrices.ts): a call whose ids an earlier thread
// holds already is counted there only. Null when an agent has no summariser: the caller runs the
// full pipeline. `scan` and the app's sessions library both make their summary figures here
// (`summaryFigures`); `scan` gives it lines from its bytes with Node's buffer, the library with
// `bytesSummaryLines`. The pass itself is summary-pass.ts; this file adds detection.
import { detectAgent, DETECTION_LINE_COUNT } from "./read";
import { findAgent } from "./agents";
import type { AgentDescriptor } from "../agents/descriptor";
import { summarizeSessionWith, type SessionSummaryResult, type SummaryFile } from "./summary-pass";

export * from "./summary-pass";

function firstLines(file: SummaryFile): string[] {
  const out: string[] = [];
  for (const line of file.lines()) {
    if (line.trim() === "") continue;
    out.push(line);
    if (out.length >= DETECTION_LINE_COUNT) break;
  }
  return out;
}

/** The file's agent: the one already detected, else the one its first lines say. */
function agentOfFile(file: SummaryFile): AgentDescriptor | null {
  const known = file.agentId ? findAgent(file.agentId) : null;
  return known ?? detectAgent(firstLines(file), file.name);
}

/** The session's summary, or null when an agent of its files has no summariser. */
export function summarizeSession(files: readonly SummaryFile[]): SessionSummaryResult | null {
  return summarizeSessionWith(files, agentOfFile);
}
