// Public API of the compaction simulator (docs/compaction-simulator.md).
export type * from "../../simulate/types";
export { VERDICTS } from "../../simulate/types";
export { POLICIES, POLICY_IDS, getPolicy, sessionPolicy } from "./policies";
export { simulateCompaction, buildSimulationContext, windowFromSession } from "./simulate";
export { resolveLimits } from "../../simulate/limits";
export { makeVerdict } from "../../simulate/verdict";
export { resolveSummary, placeholderSummary } from "../../simulate/summary-text";
export { fillSlot, mergeSlotValues, DESCRIBED_SLOT_MARKER } from "../../simulate/instruction-slots";
export { cacheEffect, findPrefixBreak, commonPrefixLength, prefixText } from "../../simulate/prefix";
export { estimateTextTokens } from "../../simulate/text-tokens";
export * from "../../simulate/findings";
export { replaySession, comparePolicies, withoutRecordedCompactions } from "./replay";
export type { ReplayResult, PolicyComparison } from "./replay";
export { replayRecordedCompactions, recordedCompactionIds, recordedCompactionPoints } from "./recorded";
export type { CapturedBody } from "./recorded";
export { rebuildRecordedCompaction, recordedCompactionPolicy, timelineRebuildPolicy } from "./recorded-rebuild";
export { inferSettings, startInference } from "./infer/index";
export type { InferredSetting, SettingsInference, InferOptions, InferenceRun } from "./infer/index";
