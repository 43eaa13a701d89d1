// hermes-agent compaction policy (compaction-policies.md §4): public surface.
export * from "./codepoints";
export * from "./trigger";
export * from "./redact";
export * from "./messages";
export * from "./serialize";
export * from "./partition";
export * from "./prune";
export * from "./tool-summary";
export * from "./prompt";
export * from "./assemble";
export * from "../../../simulate/turn-history";
export { hermesPolicy, roleSplitOf } from "./policy";
