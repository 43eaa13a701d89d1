// opencode's recorded compactions for the simulator: the compaction part of a user row says
// whether it was automatic and where the kept tail starts (`tail_start_id`, CP-OC-17). Their
// summariser requests are in the timeline as auxiliary requests, so the timeline event does not
// show the policy's rebuild (the policy computes the tail from model limits the file lacks).
import type { RecordedCompactionSupport } from "../descriptor";
import type { Session } from "../../model";
import { isObject } from "../../util/is-object";
import { OPENCODE_FORMAT_ID } from "./session";

function recordedKept(session: Session, entryId: string): { manual: boolean; kept: string[] } {
  const raw = session.entries.find((e) => e.id === entryId)?.raw ?? {};
  const parts = Array.isArray(raw.parts) ? raw.parts.filter(isObject) : [];
  const part = parts.find((p) => p.type === "compaction");
  return { manual: part?.auto !== true, kept: typeof part?.tail_start_id === "string" ? [part.tail_start_id] : [] };
}

export const opencodeRecordedCompactions: RecordedCompactionSupport = {
  recordedKept,
  rebuildPolicy: () => OPENCODE_FORMAT_ID,
  rebuildInTimeline: false,
  noRebuildReason: "opencode sends its summariser request as a request of its own: it is the \"summary request\" row next to this one in the timeline, rebuilt with the recorded tail.",
};
