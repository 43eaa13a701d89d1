// pi/senpi compaction (spec §5): cut point, preparation, summariser requests and summaries.
export * from "./settings";
export * from "./context-tokens";
export * from "./entry-messages";
export * from "./cut-point";
export * from "./file-operations";
export * from "./instructions";
export * from "./prepare";
export * from "./serialize-conversation";
export * from "./summariser-request";
export * from "./summary";
export * from "./rebuild";
