// Codex rollouts opened together: a parent thread with the child threads its `spawn_agent` calls
// started (docs/formats/codex.md, "Sub-agent threads"). Each child rollout names its parent in
// session_meta (`source.subagent.thread_spawn.parent_thread_id`, session-source.ts); the parent
// names the child in the `spawn_agent` call's output (`{"agent_id": <thread id>}`, or
// `{"task_name": <agent path>}` with MultiAgentV2) or in a `collab_agent_spawn_end` event
// (`call_id`, `new_thread_id`). This is the Codex descriptor's `linkFiles`.
import type { Session, SessionEntry, SessionThread, ThreadSpawn } from "../../model";
import { isObject } from "../../util/is-object";
import { isText, textString } from "../../text/text";
import { linePayload } from "./lines";
import { codexSessionSource, type CodexSessionSource } from "./session-source";

interface Rollout {
  session: Session;
  source: CodexSessionSource;
}

function metaOf(session: Session): Record<string, unknown> | null {
  const entry = session.entries.find((e) => e.type === "session_meta");
  return entry ? linePayload(entry) : session.header;
}

/** The rollout's thread and, for a spawned child, its parent's thread (to put it with its parent in a listing). */
export function codexRolloutLineage(session: Session): { id: string | null; parentId: string | null } {
  const source = codexSessionSource(metaOf(session));
  return { id: source.threadId, parentId: source.spawn?.parentThreadId ?? null };
}

/** The thread id a session_meta line names; null for every other line. */
export function codexMetaId(entry: SessionEntry): string | null {
  if (entry.type !== "session_meta") return null;
  const id = linePayload(entry)?.id;
  return typeof id === "string" ? id : null;
}

/** The text of a function_call_output's `output` (a string, or content items in newer versions). */
function outputText(output: unknown): string | null {
  if (isText(output)) return textString(output);
  if (Array.isArray(output)) {
    const texts = output.filter(isObject).map((part) => (typeof part.text === "string" ? part.text : ""));
    return texts.join("");
  }
  if (isObject(output) && typeof output.content === "string") return output.content;
  return null;
}

function parseJsonObject(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** Every `spawn_agent` call of a parent rollout, with the child it names (thread id or agent path). */
function spawnCalls(parent: Session): { spawn: ThreadSpawn; childIds: string[] }[] {
  const calls = new Map<string, { spawn: ThreadSpawn; childIds: string[] }>();
  for (const entry of parent.entries) {
    const payload = linePayload(entry);
    if (!payload) continue;
    if (entry.type === "response_item" && payload.type === "function_call" && payload.name === "spawn_agent" && typeof payload.call_id === "string") {
      calls.set(payload.call_id, { spawn: { entryId: entry.id, toolCallId: payload.call_id, toolName: "spawn_agent" }, childIds: [] });
    }
  }
  const named = (callId: unknown, id: unknown) => {
    const call = typeof callId === "string" ? calls.get(callId) : undefined;
    if (call && typeof id === "string") call.childIds.push(id);
  };
  for (const entry of parent.entries) {
    const payload = linePayload(entry);
    if (!payload) continue;
    // Only the output of a spawn_agent call names a child (a large output need not be decoded).
    if (entry.type === "response_item" && payload.type === "function_call_output" && typeof payload.call_id === "string" && calls.has(payload.call_id)) {
      const result = parseJsonObject(outputText(payload.output));
      if (result) {
        named(payload.call_id, result.agent_id);
        named(payload.call_id, result.task_name);
      }
    } else if (entry.type === "event_msg" && payload.type === "collab_agent_spawn_end") {
      named(payload.call_id, payload.new_thread_id);
    }
  }
  return [...calls.values()];
}

function findSpawn(parent: Session, child: CodexSessionSource): ThreadSpawn | null {
  const ids = [child.threadId, child.spawn?.agentPath ?? null].filter((id): id is string => id !== null);
  for (const call of spawnCalls(parent)) if (call.childIds.some((id) => ids.includes(id))) return call.spawn;
  return null;
}

function label(rollout: Rollout): string {
  const spawn = rollout.source.spawn;
  const name = spawn?.nickname ?? spawn?.agentPath ?? `sub-agent ${(rollout.source.threadId ?? rollout.session.fileName).slice(0, 8)}`;
  return spawn?.role ? `${name} (${spawn.role})` : name;
}

/**
 * The main rollout of `sessions` with its descendants attached as `threads` (depth-first, in the
 * order the files were given), and the rollouts that belong to none of it. The main rollout is,
 * of the rollouts whose parent thread is not among the files, the one with the most descendants
 * (the first on a tie).
 */
export function linkCodexRollouts(sessions: readonly Session[]): { session: Session; unlinked: Session[] } {
  if (sessions.length === 0) throw new RangeError("linkCodexRollouts needs at least one session");
  const rollouts: Rollout[] = sessions.map((session) => ({ session, source: codexSessionSource(metaOf(session)) }));
  const byThread = new Map<string, Rollout>();
  for (const rollout of rollouts) if (rollout.source.threadId !== null && !byThread.has(rollout.source.threadId)) byThread.set(rollout.source.threadId, rollout);
  const parentOf = (rollout: Rollout): Rollout | null => {
    const parentId = rollout.source.spawn?.parentThreadId ?? null;
    const parent = parentId !== null ? byThread.get(parentId) : undefined;
    return parent && parent !== rollout ? parent : null;
  };
  const descendants = (root: Rollout, seen = new Set<Rollout>([root])): number => {
    let count = 0;
    for (const rollout of rollouts) {
      if (seen.has(rollout) || parentOf(rollout) !== root) continue;
      seen.add(rollout);
      count += 1 + descendants(rollout, seen);
    }
    return count;
  };
  let main = rollouts[0]!;
  let mainSize = -1;
  for (const rollout of rollouts) {
    if (parentOf(rollout) !== null) continue;
    const size = descendants(rollout);
    if (size > mainSize) [main, mainSize] = [rollout, size];
  }
  const threads: SessionThread[] = [];
  const placed = new Set<Rollout>([main]);
  const attachChildren = (parent: Rollout) => {
    for (const rollout of rollouts) {
      if (placed.has(rollout) || parentOf(rollout) !== parent) continue;
      placed.add(rollout);
      threads.push({
        id: rollout.source.threadId ?? rollout.session.fileName,
        label: label(rollout),
        parentThreadId: parent === main ? null : (parent.source.threadId ?? parent.session.fileName),
        spawnedBy: findSpawn(parent.session, rollout.source),
        origin: "file",
        session: rollout.session,
      });
      attachChildren(rollout);
    }
  };
  attachChildren(main);
  const session: Session = threads.length > 0 ? { ...main.session, threads: [...(main.session.threads ?? []), ...threads] } : main.session;
  return { session, unlinked: rollouts.filter((rollout) => !placed.has(rollout)).map((rollout) => rollout.session) };
}

