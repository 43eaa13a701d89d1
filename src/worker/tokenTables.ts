// Which tokenizer tables a worker call needs loaded before it runs. Loading them keeps the worker
// from answering for a quarter of a second each on a quiet machine (the Claude vocabulary took
// 1.8 s before the bundles carried it as JSON, scripts/claudeVocabularyPlugin.ts), so no call
// loads them unless it counts exact tokens: opening a session, stepping through it (onto a
// compaction row too), its estimate pass (chars/4) and the background passes (the search index,
// the composition chart) never wait for them. Every call is classified here, so a new call cannot be added without saying what it
// needs. The exact prefix pass and the Tokens and Diff tabs load only the tables of the session's
// request shapes (sessionTables: an OpenAI session never waits for the Claude vocabulary), once
// the call knows its session.
import type { PipelineOptions } from "../core/model";
import type { SessionAnalysis } from "../core/session/pipeline";
import { sessionTables } from "../core/tokens/sessionTables";
import type { TokenizerTable } from "../core/tokens/tables";
import type { WorkerMethod } from "./protocol";

/**
 * - "none": the call counts chars/4 at most;
 * - "session's": the call loads itself, once it has the session, the tables its counters need
 *   for the session's request shapes (tablesForPass): the prefix pass, the Tokens and Diff tabs;
 * - "o200k": the token view, which cuts any session's text at o200k token boundaries;
 * - "all": the call may count with either tokenizer (the simulator, exports and shares that carry
 *   token figures, the compare view).
 */
type TablesOfCall = "none" | "session's" | "o200k" | "all";

const TABLES_OF_CALL: Record<WorkerMethod, TablesOfCall> = {
  analyze: "none",
  buildRequest: "none",
  requestBody: "none",
  turnConversation: "none",
  parseHeader: "none",
  parseCapture: "none",
  sniffSessions: "none",
  readableFiles: "none",
  ruleDocs: "none",
  spawnCall: "none",
  captureDiff: "none",
  sessionComposition: "none",
  searchStep: "none",
  searchPrepare: "none",
  openCompare: "none",
  simulatorPolicies: "none",
  sessionPrices: "none",
  listedPrices: "none",
  livePoll: "none",
  // Stepping onto a compaction row: its outcome and rebuild use the policies' own estimates
  // (chars/4, recorded usage); the provider's count beside a simulation is not asked for there.
  compactionRequests: "none",
  prefixReports: "session's",
  tokenComposition: "session's",
  turnDiff: "session's",
  auxiliaryRequest: "all",
  exportRequest: "all",
  buildShare: "all",
  shareBundle: "all",
  tokenView: "o200k",
  simulate: "all",
  spiralRun: "all",
  replaySession: "all",
  comparePolicies: "all",
  compareSessions: "all",
  comparePair: "all",
  inferSettings: "all",
};

/** What each class loads before the call runs (the "session's" calls load theirs later). */
const LOADED_FIRST: Record<TablesOfCall, readonly TokenizerTable[]> = {
  none: [],
  "session's": [],
  o200k: ["o200k"],
  all: ["o200k", "claude"],
};

/** The tables to load before answering `method`. */
export function tablesForCall(method: WorkerMethod): readonly TokenizerTable[] {
  return LOADED_FIRST[TABLES_OF_CALL[method]];
}

/** The tables an exact (or estimate) prefix pass, token composition or turn diff of the session needs. */
export function tablesForPass(pass: "estimate" | "exact", analysis: SessionAnalysis, options: PipelineOptions): TokenizerTable[] {
  return pass === "estimate" ? [] : sessionTables("auto", analysis, options);
}
