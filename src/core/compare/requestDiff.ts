// Whether two requests differ in what the provider's cache keys on, and where first: the wire
// shape, the model, then the segments in cache order (src/core/prefix: cache markers and request
// metadata left out, a string content equal to one text block), then the PR-7 settings.
import { diffRequests, firstDifferingSegment } from "../prefix/diff";
import { changedSettings } from "../prefix/settings";
import type { SegmentedRequest } from "../prefix/types";
import type { RequestDifference } from "./types";

export function compareSegmented(a: SegmentedRequest, b: SegmentedRequest): RequestDifference {
  const settingsChanged = a.api === b.api ? changedSettings(a.settings, b.settings) : [];
  if (a.api !== b.api) return { differs: true, path: "api", settingsChanged, sharedBytes: 0, sharedTokens: 0 };
  const index = firstDifferingSegment(a, b);
  const sameContent = index === a.segments.length && index === b.segments.length;
  const diff = diffRequests(a, b);
  let contentPath: string | null = null;
  if (!sameContent) {
    if (index < a.segments.length && index < b.segments.length) contentPath = diff.breakPath;
    else contentPath = (b.segments.at(index) ?? a.segments.at(index))!.label;
  }
  const modelDiffers = a.model !== null && b.model !== null && a.model !== b.model;
  const path = modelDiffers ? "model" : (contentPath ?? (settingsChanged.length > 0 ? `settings.${settingsChanged[0]}` : null));
  return {
    differs: path !== null,
    path,
    settingsChanged,
    sharedBytes: sameContent ? b.bytes : diff.sharedBytes,
    sharedTokens: sameContent ? b.tokens : diff.sharedTokens,
  };
}
