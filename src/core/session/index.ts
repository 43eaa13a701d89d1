// The one place that asks the agent registry, as one entry point for the app, the worker, the CLI
// and the core services (prefix, check, compare, search): reading a session whose agent is not known
// yet, the pipeline dispatch, capture learning, the databases and side files agents keep, and the
// compaction simulator's dispatch (policies, replay, recorded rebuilds, settings inference). Nothing
// here is an agent's own code: each call goes to the descriptor of the session's agent.
export { allAgents, findAgent, PROFILE_IDS } from "./agents";
export {
  FORMAT_READERS,
  DETECTION_LINE_COUNT,
  UnsupportedFormatError,
  detectFormat,
  detectAgent,
  detectFormatOrPretty,
  getFormatReader,
  emptySession,
  openSessionReader,
  readSessionText,
  readSessionBytes,
  readSessionChunks,
} from "./read";
export { splitTextLines } from "../readers/lines";
export { readWithWal } from "../storage/wal";
export type { DroppedFile } from "../storage/files";
export * from "./pipeline";
export * from "./captures";
export * from "./storage";
export * from "./simulate/index";
export type * from "../agents/descriptor";
export * from "./sideFiles";
export { summarizeSession, wantedLines, wholeSessionTotals, type SummaryFile } from "./summary";
