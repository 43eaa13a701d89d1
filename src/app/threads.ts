// The thread list the UI and the CLI show: the main thread and each sub-agent thread of the open
// session, with its label, where it came from, the tool call that started it and its turn count.
import type { PipelineOptions, Session } from "../core/model";
import { countTurns } from "../core/pipeline/index";
import type { ThreadInfo } from "./viewTypes";

export function threadInfos(session: Session, options: PipelineOptions): ThreadInfo[] {
  return (session.threads ?? []).map((thread) => {
    let turns = 0;
    try {
      turns = countTurns(thread.session, { ...options, leafId: null, thread: null });
    } catch {
      // A thread whose entries cannot be analysed shows no turns; its warnings say why.
    }
    return {
      id: thread.id,
      label: thread.label,
      origin: thread.origin,
      parentThreadId: thread.parentThreadId,
      spawnedBy: thread.spawnedBy ? { ...thread.spawnedBy } : null,
      turns,
      entryCount: thread.session.entries.length,
      fileName: thread.session.fileName,
    };
  });
}
