// Which tokenizer tables a worker call needs loaded before it runs. Loading them keeps the worker
// from answering for a quarter of a second each on a quiet machine (the Claude vocabulary took
// 1.8 s before the bundles carried it as JSON, scripts/claudeVocabularyPlugin.ts), so no call
// loads them unless it counts exact tokens: opening a session, stepping through it (onto a
// compaction row too), its estimate pass (chars/4) and the background passes (the search index,
// the composition chart) never wait for them. Every handler says which tables it needs (its
// `tables`, src/worker/handlers.ts), so a new call cannot be added without saying what it
// needs. The exact prefix pass and the Tokens and Diff tabs load only the tables of the session's
// request shapes (sessionTables: an OpenAI session never waits for the Claude vocabulary), once
// the call knows its session.
import type { PipelineOptions } from "../core/model";
import type { SessionAnalysis } from "../core/session/pipeline";
import { sessionTables } from "../core/tokens/sessionTables";
import type { TokenizerTable } from "../core/tokens/tables";
import type { TablesOfCall } from "./handlers";

/** What each class loads before the call runs (the "session's" calls load theirs later). */
const LOADED_FIRST: Record<TablesOfCall, readonly TokenizerTable[]> = {
  none: [],
  "session's": [],
  o200k: ["o200k"],
  all: ["o200k", "claude"],
};

/** The tables to load before answering a call that needs `tables` (each handler says, src/worker/handlers.ts). */
export function tablesForCall(tables: TablesOfCall): readonly TokenizerTable[] {
  return LOADED_FIRST[tables];
}

/** The tables an exact (or estimate) prefix pass, token composition or turn diff of the session needs. */
export function tablesForPass(pass: "estimate" | "exact", analysis: SessionAnalysis, options: PipelineOptions): TokenizerTable[] {
  return pass === "estimate" ? [] : sessionTables("auto", analysis, options);
}
