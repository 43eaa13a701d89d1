// Gemini CLI's recorded chat compressions for the simulator: each `$set.messages` that installed a
// new <state_snapshot> (history.ts). The compressed history gives the kept messages new ids, so
// what the record names as kept is each kept message's type and parts (policy.ts,
// messageFingerprint), compared with the messages after the simulated split point.
import type { RecordedCompactionSupport } from "../descriptor";
import type { Session } from "../../model";
import { textUnits } from "../../text/text";
import { getGeminiIndex } from "./history";
import { GEMINI_POLICY_ID, messageFingerprint } from "./policy/policy";

function recordedKept(session: Session, entryId: string): { manual: boolean; kept: string[]; keptNothing?: boolean } {
  const compression = getGeminiIndex(session).compressions.find((c) => c.entry.id === entryId);
  if (!compression) return { manual: false, kept: [] };
  const kept = compression.after.slice(compression.keptFrom).filter((m) => m.type === "user" || m.type === "gemini");
  return { manual: false, kept: kept.map(messageFingerprint), ...(kept.length === 0 ? { keptNothing: true } : {}) };
}

export const geminiRecordedCompressions: RecordedCompactionSupport = {
  recordedKept,
  recordedFacts(session, entryId) {
    const compression = getGeminiIndex(session).compressions.find((c) => c.entry.id === entryId);
    if (!compression) return [];
    return [
      { label: "snapshot", value: `${textUnits(compression.summary)} characters` },
      { label: "messages before", value: String(compression.before.length) },
      { label: "messages after", value: `${compression.after.length} (${compression.after.length - compression.keptFrom} kept)` },
    ];
  },
  rebuildPolicy: () => GEMINI_POLICY_ID,
  rebuildInTimeline: true,
  // The chat file does not say whether a compression was /compress or automatic.
  recordsManual: false,
};
