// Links between a parent thread's tool call and the sub-agent thread it started, both ways: the
// Messages tab marks the message holding a spawning call with the thread it leads to, and a
// thread finds the request of its parent in which that call first appears (turn and message),
// so the UI can go back to it.
import type { ContextMessage, PipelineOptions, Session, SessionThread } from "../../core/model";
import { analyzeSession, buildTurnRequest } from "../../core/session/pipeline";
import { threadSessionOf } from "../../core/session/threads";
import type { SpawnCallLocation, ThreadCallLink } from "./protocol";

function toolCallIds(context: ContextMessage): string[] {
  const { message } = context;
  if (message.role !== "assistant") return [];
  return (message.content ?? []).flatMap((block) => (block.type === "toolCall" ? [block.id] : []));
}

/** Per message index: the threads started by the tool calls of that message, in the thread shown. */
export function threadCallLinks(messages: readonly ContextMessage[], threads: readonly SessionThread[], shown: string | null): Map<number, ThreadCallLink[]> {
  const byCall = new Map<string, SessionThread[]>();
  for (const thread of threads) {
    if (!thread.spawnedBy || thread.parentThreadId !== shown) continue;
    const list = byCall.get(thread.spawnedBy.toolCallId) ?? [];
    list.push(thread);
    byCall.set(thread.spawnedBy.toolCallId, list);
  }
  const links = new Map<number, ThreadCallLink[]>();
  if (byCall.size === 0) return links;
  messages.forEach((context, index) => {
    const found = toolCallIds(context).flatMap((id) => (byCall.get(id) ?? []).map((thread) => ({ threadId: thread.id, label: thread.label, toolCallId: id })));
    if (found.length > 0) links.set(index, found);
  });
  return links;
}

function messageWithCall(messages: readonly ContextMessage[], toolCallId: string): number {
  return messages.findIndex((context) => toolCallIds(context).includes(toolCallId));
}

/**
 * Where the tool call that started `threadId` is first sent: the parent thread's first request
 * whose messages hold it (the call is made in the answer of turn k, so it is sent from turn k + 1
 * on). Found from the answer turn nearest the call's entry, then checked on the built requests.
 * Null when the thread has no recorded start, or no request of the parent holds the call (the
 * call was the parent's last answer: then the turn that made it is returned with no message).
 */
export function spawnCallLocation(session: Session, threadId: string, options: PipelineOptions): SpawnCallLocation | null {
  const thread = session.threads?.find((item) => item.id === threadId);
  if (!thread?.spawnedBy) return null;
  const parent = threadSessionOf(session, thread.parentThreadId);
  const parentOptions: PipelineOptions = { ...options, thread: thread.parentThreadId, leafId: null };
  const analysis = analyzeSession(parent, parentOptions);
  const order = new Map(parent.entries.map((entry, index) => [entry.id, index]));
  const callAt = order.get(thread.spawnedBy.entryId);
  if (callAt === undefined || analysis.turns.length === 0) return null;
  // The first turn whose answer entry is at or after the call: the turn that made the call.
  const made = analysis.turns.find((turn) => (order.get(turn.entryId) ?? -1) >= callAt) ?? null;
  const start = made ? made.turn : analysis.turns[analysis.turns.length - 1]!.turn;
  const last = analysis.turns[analysis.turns.length - 1]!.turn;
  for (let turn = Math.max(1, start - 1); turn <= Math.min(last, start + 2); turn++) {
    const index = messageWithCall(buildTurnRequest(parent, parentOptions, turn).messages, thread.spawnedBy.toolCallId);
    if (index >= 0) return { threadId: thread.parentThreadId, turn, messageIndex: index, toolCallId: thread.spawnedBy.toolCallId };
  }
  return made ? { threadId: thread.parentThreadId, turn: made.turn, messageIndex: null, toolCallId: thread.spawnedBy.toolCallId } : null;
}
