// Sub-agent threads, generically: the session of one thread (`PipelineOptions.thread`), and
// several sessions opened together linked into one by their agent's `linkFiles` (a Claude Code
// session with its sub-agent files, a Codex rollout with its children). Agent-specific linking
// lives in each agent's folder; this module only dispatches to the descriptor.
import { findAgent } from "./agents";
import type { Session } from "../model";

/** The session to run the pipeline on: the main session, or the thread `threadId` names. */
export function threadSessionOf(session: Session, threadId: string | null | undefined): Session {
  if (threadId === null || threadId === undefined || threadId === "") return session;
  const thread = session.threads?.find((item) => item.id === threadId);
  if (!thread) {
    const known = (session.threads ?? []).map((item) => item.id).join(", ");
    throw new RangeError(`thread ${threadId} does not exist${known ? `: the session has ${known}` : ": the session has no sub-agent threads"}`);
  }
  return thread.session;
}

/**
 * Several sessions read from files opened together, as one: the agent of the first session
 * links the others of the same agent (`linkFiles`); files of another agent, and every other file
 * when the agent links none, are returned as `unlinked` (the caller names them).
 */
export function linkSessions(sessions: readonly Session[]): { session: Session; unlinked: Session[] } {
  const first = sessions[0];
  if (!first) throw new RangeError("linkSessions: no session");
  const agent = findAgent(first.formatId);
  const same = sessions.filter((session) => session.formatId === first.formatId);
  const foreign = sessions.filter((session) => session.formatId !== first.formatId);
  if (!agent?.linkFiles || same.length < 2) return { session: first, unlinked: [...same.slice(1), ...foreign] };
  const linked = agent.linkFiles(same);
  return { session: linked.session, unlinked: [...linked.unlinked, ...foreign] };
}

/** The session a file is and the session whose sub-agent it is (its agent's `fileLineage`); nulls when the agent does not say. */
export function fileLineage(session: Session): { id: string | null; parentId: string | null } {
  return findAgent(session.formatId)?.fileLineage?.(session) ?? { id: null, parentId: null };
}

/** The warning a linked session carries for each file opened with it that belongs to none of it. */
export function unlinkedWarning(mainName: string, unlinked: Session): { line: number; reason: string } {
  return { line: 0, reason: `${unlinked.fileName} was opened with ${mainName} but is not one of its threads: not read` };
}
