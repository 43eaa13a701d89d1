// Whether a Claude Code version keeps messages verbatim across a compaction. Newer versions
// (2.1.332 in our recording) copy the last answer (and the pending prompt) after the summary and
// name them in the boundary's `compactMetadata.preservedMessages` / `preservedSegment`. Older ones
// (2.0.76 and 2.1.17 in real users' transcripts) write only `{trigger, preTokens}`: the summary
// message alone continues the conversation, nothing is kept (CP-CC-INF-6).
import type { Session, SessionEntry } from "../../model";
import { isObject } from "../../util/is-object";
import { isCompactBoundary } from "./records";

/** True when the boundary record names preserved messages (the version keeps some verbatim). */
export function recordsPreservedMessages(boundary: SessionEntry): boolean {
  const metadata = boundary.raw.compactMetadata;
  return isObject(metadata) && (isObject(metadata.preservedMessages) || isObject(metadata.preservedSegment));
}

/**
 * What the simulator takes for a session when the user leaves the choice to it: the boundary being
 * re-run decides; else the session's newest boundary (same version, most likely); a session
 * without one keeps messages, as the version we recorded does.
 */
export function sessionPreservesMessages(session: Session, boundaryId: string | null | undefined): { preserve: boolean; from: string } {
  const at = boundaryId ? session.entries.find((e) => e.id === boundaryId) : undefined;
  const says = (preserve: boolean) => (preserve ? "names preserved messages" : "names no preserved messages: this Claude Code version kept none verbatim");
  if (at && isCompactBoundary(at)) {
    const preserve = recordsPreservedMessages(at);
    return { preserve, from: `the recorded boundary ${at.id} ${says(preserve)}` };
  }
  const boundaries = session.entries.filter(isCompactBoundary);
  const newest = boundaries[boundaries.length - 1];
  if (newest) {
    const preserve = recordsPreservedMessages(newest);
    return { preserve, from: `the session's newest boundary ${newest.id} ${says(preserve)}` };
  }
  return { preserve: true, from: "no boundary in the session: as Claude Code 2.1.332 does" };
}
