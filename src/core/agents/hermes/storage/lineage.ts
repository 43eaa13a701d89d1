// Lineage of hermes sessions (HS-23, HS-24): a parent that ended with `end_reason = compression`
// and its child (`parent_session_id`) are one conversation; following children from the root
// gives the chain shown as one timeline. Other children (branch `_branched_from` / parent
// `branched`, sub-agent `_delegate_from`, reset `_reset_from`) are sessions of their own; the
// picker names how each one is linked.
import type { HermesStoredSession } from "./store";

const COMPRESSION_END_REASON = "compression";

function byId(sessions: readonly HermesStoredSession[]): Map<string, HermesStoredSession> {
  return new Map(sessions.map((s) => [s.id, s]));
}

/** True when `child` continues `parent` after a compression (HS-24). */
function isCompressionChild(parent: HermesStoredSession, child: HermesStoredSession): boolean {
  if (child.parentId !== parent.id || parent.endReason !== COMPRESSION_END_REASON) return false;
  if (child.modelConfig && ("_branched_from" in child.modelConfig || "_delegate_from" in child.modelConfig)) return false;
  return parent.endedAt === null || child.startedAt === null || child.startedAt >= parent.endedAt - 1e-6;
}

function continuation(sessions: readonly HermesStoredSession[], parent: HermesStoredSession): HermesStoredSession | null {
  const children = sessions.filter((s) => isCompressionChild(parent, s));
  children.sort((a, b) => (a.startedAt ?? 0) - (b.startedAt ?? 0));
  return children[0] ?? null;
}

/** The compression chain (root → tip) that session `id` belongs to. */
export function compressionChain(sessions: readonly HermesStoredSession[], id: string): HermesStoredSession[] {
  const index = byId(sessions);
  const start = index.get(id);
  if (!start) return [];
  let root: HermesStoredSession = start;
  const seen = new Set<string>([root.id]);
  for (;;) {
    const parent: HermesStoredSession | undefined = root.parentId ? index.get(root.parentId) : undefined;
    if (!parent || seen.has(parent.id) || !isCompressionChild(parent, root)) break;
    seen.add(parent.id);
    root = parent;
  }
  const chain: HermesStoredSession[] = [root];
  for (;;) {
    const next = continuation(sessions, chain[chain.length - 1]!);
    if (!next || chain.includes(next)) break;
    chain.push(next);
  }
  return chain;
}

/** How a session is linked to its parent, for the picker ("compression #2 of …", "branch of …"). */
export function lineageLabel(sessions: readonly HermesStoredSession[], session: HermesStoredSession): string | null {
  const index = byId(sessions);
  const parts: string[] = [];
  const parent = session.parentId ? index.get(session.parentId) : undefined;
  const config = session.modelConfig ?? {};
  if (session.parentId) {
    const name = parent?.title ?? session.parentId;
    if (parent && isCompressionChild(parent, session)) parts.push(`continues "${name}" after compression`);
    else if ("_delegate_from" in config) parts.push(`sub-agent of "${name}"`);
    else if ("_branched_from" in config || parent?.endReason === "branched") parts.push(`branch of "${name}"`);
    else if ("_reset_from" in config) parts.push(`reset of "${name}"`);
    else parts.push(`child of "${name}"${parent ? "" : " (not in this storage)"}`);
  }
  if (session.endReason === COMPRESSION_END_REASON) parts.push("compressed, continued in a new session");
  return parts.length > 0 ? parts.join("; ") : null;
}

/** The session shown by default: the tip of the chain of the most recently started session. */
export function defaultSessionId(sessions: readonly HermesStoredSession[]): string | null {
  const newest = [...sessions].sort((a, b) => (b.startedAt ?? 0) - (a.startedAt ?? 0))[0];
  return newest ? newest.id : null;
}
