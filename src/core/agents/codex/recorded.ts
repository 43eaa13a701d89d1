// Codex's recorded compactions for the simulator: a `compacted` line's replacement history, of
// which the retained items are those already in the history before it (FM-CX-15).
import type { RecordedCompactionSupport } from "../descriptor";
import type { Session } from "../../model";
import { isObject } from "../../util/is-object";
import { CODEX_FORMAT_ID } from "./reader";
import { getCodexIndex } from "./rollout-index";

function recordedKept(session: Session, entryId: string): { manual: boolean; kept: string[] } {
  const raw = session.entries.find((e) => e.id === entryId)?.raw ?? {};
  const index = getCodexIndex(session);
  const compaction = index.compactions.find((c) => c.entry.id === entryId);
  const before = new Set((index.windows[compaction?.fromWindow ?? 0] ?? []).map((item) => item.id).filter((id) => typeof id === "string"));
  const payload = isObject(raw.payload) ? raw.payload : {};
  const replacement = Array.isArray(payload.replacement_history) ? payload.replacement_history.filter(isObject) : [];
  return { manual: false, kept: replacement.map((item) => item.id).filter((id): id is string => typeof id === "string" && before.has(id)) };
}

export const codexRecordedCompactions: RecordedCompactionSupport = {
  recordedKept,
  rebuildPolicy: () => CODEX_FORMAT_ID,
  rebuildInTimeline: true,
  recordsManual: false,
};
