// Public surface of prefix-stability analysis: segmentation, diff, causes, driver.
export { analyzePrefixes, createPrefixAnalyzer } from "./analyze";
export type { PrefixAnalysisOptions, PrefixAnalyzer, PrefixTurnInput, PrefixTurnReport } from "./analyze";
export { classifyBreak, CAUSE_ORDER, maskTimestamps } from "./causes";
export type { CauseInput } from "./causes";
export { diffRequests, firstDifferingSegment } from "./diff";
export { locateDifference, joinPath } from "./locate";
export { createSegmentCache, segmentValue } from "./segment-builder";
export type { SegmentCache } from "./segment-builder";
export { segmentRequest } from "./segment-request";
export type { SegmentOptions } from "./segment-request";
export { renderCanonical, tokenTextOf, MARKER_KEYS } from "./canonical";
export { EXCLUDED_METADATA_KEYS, extractSettings, changedSettings } from "./settings";
export type * from "./types";
