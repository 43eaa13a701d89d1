// What the UI needs to know about the agent that wrote the open session, as plain data: its name,
// the pipeline profiles it offers (and which take reply-language notes), and whether its recorded
// compactions are rebuilt by the agent's own summariser form. The UI decides from these, never
// from the agent's id.
import { findAgent, sessionProfileOf } from "../../core/session/agents";
import type { Session } from "../../core/model";
import type { AgentInfo } from "./protocol";

export function agentInfo(session: Session): AgentInfo | null {
  const agent = findAgent(session.formatId);
  if (!agent) return null;
  return {
    id: agent.id,
    label: agent.label,
    profiles: (agent.profiles ?? []).map(({ id, label, replyLanguageNotes }) => ({ id, label, replyLanguageNotes })),
    sessionProfile: sessionProfileOf(session),
    rebuildsRecordedCompactions: agent.recorded?.standaloneRebuild !== undefined,
    ...(agent.missingThreadFiles ? { missingThreadFiles: agent.missingThreadFiles } : {}),
    recordsSystemAndTools: agent.recordsSystemAndTools === true,
  };
}
