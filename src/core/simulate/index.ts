// Public API of the compaction simulator (docs/compaction-simulator.md).
export type * from "./types";
export { VERDICTS } from "./types";
export { POLICIES, POLICY_IDS, UNSUPPORTED_POLICIES, findPolicy, getPolicy } from "./policies";
export { simulateCompaction, buildSimulationContext, resolveParameters } from "./simulate";
export { resolveLimits, applyLimits } from "./limits";
export { makeVerdict } from "./verdict";
export { resolveSummary, placeholderSummary, meanRecordedSummaryChars, DEFAULT_PLACEHOLDER_CHARS } from "./summary-text";
export { fillSlot, describedSlotText, mergeSlotValues, DESCRIBED_SLOT_MARKER } from "./instruction-slots";
export { cacheEffect, findPrefixBreak, commonPrefixLength, prefixText } from "./prefix";
export { compareFollowingTurns, followingTurnsFromPrefix } from "./following";
export { estimateTextTokens, estimateJsonTokens } from "./text-tokens";
export * from "./findings";
