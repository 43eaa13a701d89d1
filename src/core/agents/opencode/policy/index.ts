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
export * from "./chunked-planner";
export * from "./chunked-executor";
