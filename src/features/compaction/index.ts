// The compaction feature's page-side surface: the compaction view and the tokens of an outcome (for the details panel).
export { outcomeTokens } from "./CompactionOutcome";
export { CompactionView } from "./CompactionView";
