// The agent ids: what `Session.formatId` holds. The registry (registry.ts) must list exactly one
// descriptor per id — a compile-time check there fails when the two disagree — so a mistyped id
// does not compile anywhere.
export type AgentId = "pi" | "claude-code" | "codex" | "opencode" | "hermes";

/** `Session.formatId` of an input without a line to read (nothing to show, no agent). */
export type FormatId = AgentId | "none";
