// opencode compaction policy (compaction-policies.md §5): public surface.
export * from "./overflow";
export * from "./rows";
export * from "./scope";
export * from "./serialize";
export * from "./tail";
export * from "./request";
export * from "./model-resolution";
export * from "./verdicts";
export * from "./chat";
export * from "./step";
export * from "./spiral";
export { opencodePolicy, spiralBrakeOf, rowsForSimulation, spiralRunForSimulation, type OpencodeRowsView } from "./policy";
export * from "./chunked-planner";
export * from "./chunked-executor";
export { simulateChunked, chunkedLimitsOf, chunkedInput, CHUNKED_MODE, NOT_LIVE } from "./chunked-mode";
