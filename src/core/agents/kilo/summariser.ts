// Kilo's summariser request is opencode's (the same `<conversation>` serialisation, the same
// template wrappers, the main system prompt learnt from its capture) with one difference: an
// automatic compaction (its part records `overflow`, true or false) replays the prompt that was
// waiting — the last user message before the compaction — after the summary, so that prompt is
// left out of the conversation the summariser is given (Kilo's `SessionCompaction.process`,
// docs/formats/kilo.md). The rebuild hands opencode's builder the session without those
// prompts.
import type { LearntCapture, PipelineOptions, Session } from "../../model";
import { buildOpencodeAuxiliaryRequest, compactionPartOf, type AuxiliaryRequest, type OpencodeMessageRecord } from "../opencode/index";
import { opencodeRecordsOf } from "../opencode/session";

const trimmedCache = new WeakMap<object, Session>();

/** The id of the prompt compaction `records[at]` replays, or null when it replays none. */
function replayedPromptId(records: readonly OpencodeMessageRecord[], at: number): string | null {
  const part = compactionPartOf(records[at] as OpencodeMessageRecord);
  if (typeof part?.overflow !== "boolean") return null;
  const isPrompt = (record: OpencodeMessageRecord) => record.info.role === "user" && compactionPartOf(record) === null;
  for (let i = at - 1; i >= 0; i--) {
    if (!isPrompt(records[i] as OpencodeMessageRecord)) continue;
    // Nothing is replayed when no prompt comes before it: the summariser is given everything.
    return records.slice(0, i).some(isPrompt) ? (records[i] as OpencodeMessageRecord).info.id : null;
  }
  return null;
}

/** `session` without the prompts its compactions replay, as the summariser saw the history. */
function withoutReplayedPrompts(session: Session): Session {
  const cached = trimmedCache.get(session.entries);
  if (cached) return cached;
  const records = opencodeRecordsOf(session);
  const replayed = new Set<string>();
  records.forEach((_, at) => {
    const id = replayedPromptId(records, at);
    if (id !== null) replayed.add(id);
  });
  const trimmed = replayed.size === 0 ? session : { ...session, entries: session.entries.filter((entry) => !replayed.has(entry.id)) };
  trimmedCache.set(session.entries, trimmed);
  return trimmed;
}

/** Auxiliary request `index` (title or summariser) as Kilo sent it. */
export function buildKiloAuxiliaryRequest(session: Session, options: PipelineOptions, index: number, learnt: readonly LearntCapture[] = []): AuxiliaryRequest {
  return buildOpencodeAuxiliaryRequest(withoutReplayedPrompts(session), options, index, learnt);
}
