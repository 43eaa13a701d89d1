// Claude Code's recorded compactions for the simulator: a compact boundary names what it kept in
// `compactMetadata.preservedMessages.uuids` and whether `/compact` asked for it (FM-CC-16). A
// boundary of an older version without preserved messages kept nothing (preserved.ts).
import type { RecordedCompactionSupport } from "../descriptor";
import type { Session } from "../../model";
import { isObject } from "../../util/is-object";
import { CLAUDE_FORMAT_ID } from "./reader";
import { recordsPreservedMessages } from "./preserved";

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function recordedKept(session: Session, entryId: string): { manual: boolean; kept: string[]; keptNothing?: boolean } {
  const entry = session.entries.find((e) => e.id === entryId);
  const raw = entry?.raw ?? {};
  const metadata = isObject(raw.compactMetadata) ? raw.compactMetadata : {};
  const preserved = isObject(metadata.preservedMessages) ? metadata.preservedMessages : {};
  const keptNothing = entry !== undefined && !recordsPreservedMessages(entry);
  return { manual: metadata.trigger === "manual", kept: stringList(preserved.uuids), ...(keptNothing ? { keptNothing } : {}) };
}

export const claudeCodeRecordedCompactions: RecordedCompactionSupport = {
  recordedKept,
  rebuildPolicy: () => CLAUDE_FORMAT_ID,
  rebuildInTimeline: true,
};
