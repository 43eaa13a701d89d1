// The one place that asks the agent registry, as one entry point for the app, the worker, the CLI
// and the core services (prefix, check, compare, search): reading a session whose agent is not known
// yet, the pipeline dispatch, capture learning, the databases and side files agents keep, and the
// compaction simulator's dispatch (policies, replay, recorded rebuilds, settings inference). Nothing
// here is an agent's own code: each call goes to the descriptor of the session's agent.
export { agentOf, allAgents, findAgent, policyOnlyAgents, PROFILE_IDS } from "./agents";
export {
  FORMAT_READERS,
  DETECTION_LINE_COUNT,
  UnsupportedFormatError,
  detectFormat,
  getFormatReader,
  emptySession,
  openSessionReader,
  readSessionText,
  readSessionBytes,
  readSessionChunks,
} from "./read";
export { LineSplitter, splitTextLines, splitBytesLines, type DecodeFn, type LineCallback } from "../readers/lines";
export type { FormatReader, LineReader } from "../readers/types";
export { isSqliteHeader, SQLITE_MAGIC, type SqlQuery, type SqlRow } from "../storage/sqlite";
export { applyWal, type WalOverlayResult } from "../storage/wal";
export { pairDatabaseFiles, isWalFileName, isWalHeader, type DroppedFile, type DatabaseFileSet } from "../storage/files";
export * from "./pipeline";
export * from "./captures";
export * from "./storage";
export * from "./simulate/index";
export type * from "../agents/descriptor";
