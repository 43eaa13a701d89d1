// deepseek-harness session files opened together: each sub-agent child is a session of its own
// in the same sessions root, whose header names its parent (`parentSession`, `origin: "subagent"`,
// `delegationDepth` one more than the parent's); a fork child also copies the first `seedLength`
// events of the parent's log (its own requests start after them). The session no other names as
// child is the main thread; the others become its threads, nested by their parent. The tool call
// that started a child is the parent's call whose result names the child's session id, when one
// does. This is the descriptor's `linkFiles`.
import type { Session, SessionThread, ThreadSpawn } from "../../model";
import { isObject } from "../../util/is-object";
import { stringifyWithTexts } from "../../text/text";
import { contentOf, dataOf, str } from "./events";

function idOf(session: Session): string | null {
  return session.header ? str(session.header.id) : null;
}

function parentOf(session: Session): string | null {
  return session.header ? str(session.header.parentSession) : null;
}

function labelOf(session: Session): string {
  const header = session.header ?? {};
  const preset = str(header.agentPreset);
  const id = idOf(session) ?? session.fileName;
  const kind = typeof header.seedLength === "number" && header.seedLength > 0 ? "fork" : "sub-agent";
  const descriptor = session.entries.find((entry) => entry.type === "subagent/descriptor");
  const label = descriptor ? str(dataOf(descriptor).label) : null;
  const named = label ?? preset;
  return named ? `${named} (${kind})` : `${kind} ${id}`;
}

/** The parent's tool call whose result names the child session, if any. */
function spawnOf(parent: Session, childId: string): ThreadSpawn | null {
  for (const entry of parent.entries) {
    if (entry.type !== "tool/result") continue;
    // Long tool outputs are stored texts: searched as the texts they hold.
    if (!stringifyWithTexts(entry.raw.data ?? null).includes(childId)) continue;
    const message = dataOf(entry).message;
    const callId = isObject(message) && isObject(message.source) ? str(message.source.callId) : null;
    if (callId === null) continue;
    const caller = parent.entries.find(
      (candidate) => candidate.type === "assistant/message" && contentOf(isObject(dataOf(candidate).message) ? (dataOf(candidate).message as Record<string, unknown>) : null).some((block) => block.type === "tool-call" && block.id === callId),
    );
    const call = parent.entries.find((candidate) => candidate.type === "tool/call" && str(dataOf(candidate).callId) === callId);
    return { entryId: (caller ?? call ?? entry).id, toolCallId: callId, toolName: (call && str(dataOf(call).name)) ?? "subagent" };
  }
  return null;
}

export function linkHarnessSessions(sessions: readonly Session[]): { session: Session; unlinked: Session[] } {
  const byId = new Map<string, Session>();
  for (const session of sessions) {
    const id = idOf(session);
    if (id !== null && !byId.has(id)) byId.set(id, session);
  }
  // The main thread: a session whose parent is not among the files (the shallowest such one).
  const roots = sessions.filter((session) => {
    const parent = parentOf(session);
    return parent === null || !byId.has(parent);
  });
  const depth = (session: Session) => (session.header && typeof session.header.delegationDepth === "number" ? session.header.delegationDepth : 0);
  const main = [...roots].sort((a, b) => depth(a) - depth(b))[0] ?? sessions[0]!;
  const mainId = idOf(main);
  const threads: SessionThread[] = [];
  const linked = new Set<Session>([main]);
  // Breadth first from the main thread, so a child's parent thread is known before it.
  let frontier: Session[] = [main];
  while (frontier.length > 0) {
    const next: Session[] = [];
    for (const parent of frontier) {
      const parentId = idOf(parent);
      if (parentId === null) continue;
      for (const child of sessions) {
        if (linked.has(child) || parentOf(child) !== parentId) continue;
        const childId = idOf(child)!;
        linked.add(child);
        threads.push({
          id: childId,
          label: labelOf(child),
          parentThreadId: parentId === mainId ? null : parentId,
          spawnedBy: spawnOf(parent, childId),
          origin: "file",
          session: child,
        });
        next.push(child);
      }
    }
    frontier = next;
  }
  return { session: { ...main, threads: [...(main.threads ?? []), ...threads] }, unlinked: sessions.filter((session) => !linked.has(session)) };
}
