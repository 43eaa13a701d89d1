// Which tokenizer tables a worker call needs loaded before it runs. The tables cost hundreds of
// milliseconds to evaluate, so opening a session and its estimate pass (chars/4) never wait for
// them: they are loaded on the first call that counts exact tokens (the exact prefix pass, the
// Diff and Tokens tabs, the simulator). The exact prefix pass and the Tokens tab load only the
// tables of the session's request shapes (sessionTables: an OpenAI session never waits for the
// Claude vocabulary), once the call knows its session. A call not listed here loads every table,
// to be safe.
import type { PipelineOptions } from "../core/model";
import type { SessionAnalysis } from "../core/pipeline/index";
import { sessionTables } from "../core/tokens/sessionTables";
import type { TokenizerTable } from "../core/tokens/tables";
import type { WorkerMethod, WorkerMethods } from "./protocol";

/** Calls whose work counts chars/4 at most. */
const ESTIMATE_ONLY: ReadonlySet<WorkerMethod> = new Set<WorkerMethod>([
  "parseHeader",
  "parseCapture",
  "simulatorPolicies",
  "analyze",
  "buildRequest",
  "spawnCall",
  "captureDiff",
  "requestBody",
  "sessionComposition",
  "searchStep",
  "openCompare",
]);

const ALL: TokenizerTable[] = ["o200k", "claude"];

export function tablesForCall(method: WorkerMethod, params: WorkerMethods[WorkerMethod]["params"]): TokenizerTable[] {
  if (ESTIMATE_ONLY.has(method)) return [];
  if (method === "prefixReports" || method === "tokenComposition") return [];
  return ALL;
}

/** The tables an exact (or estimate) prefix pass or token composition of the session needs. */
export function tablesForPass(pass: "estimate" | "exact", analysis: SessionAnalysis, options: PipelineOptions): TokenizerTable[] {
  return pass === "estimate" ? [] : sessionTables("auto", analysis, options);
}
