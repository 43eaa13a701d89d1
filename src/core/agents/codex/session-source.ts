// Who started a Codex thread, from its session_meta (docs/formats/codex.md, "Session metadata"):
// `originator` names the client ("codex_cli_rs", "codex_exec", "Codex Desktop", "codex_vscode", …)
// and `source` how the thread began: a plain string ("cli", "vscode", "exec", "mcp", "unknown")
// or an object for a sub-agent, `{"subagent": "review" | "compact" | {"thread_spawn": {...}} |
// {"other": name}}`. A spawned child names its parent thread there (`parent_thread_id`); some
// versions also write `parent_thread_id` at the top of the meta.
import { isObject } from "../../util/is-object";

interface CodexThreadSpawnSource {
  parentThreadId: string | null;
  depth: number | null;
  /** The task name a MultiAgentV2 `spawn_agent` call returns. */
  agentPath: string | null;
  nickname: string | null;
  role: string | null;
}

export interface CodexSessionSource {
  /** The thread's id (session_meta `id`, or `session_id`). */
  threadId: string | null;
  originator: string | null;
  /** "cli", "vscode", "exec", "mcp", "subagent", "unknown", or another string a version wrote. */
  kind: string | null;
  /** For a sub-agent: "thread_spawn", "review", "compact", "memory_consolidation", "other", …. */
  subagent: string | null;
  spawn: CodexThreadSpawnSource | null;
}

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

export function codexSessionSource(meta: Record<string, unknown> | null): CodexSessionSource {
  const result: CodexSessionSource = {
    threadId: str(meta?.id) ?? str(meta?.session_id),
    originator: str(meta?.originator),
    kind: null,
    subagent: null,
    spawn: null,
  };
  const source = meta?.source;
  if (typeof source === "string") result.kind = source;
  else if (isObject(source)) {
    const key = Object.keys(source)[0] ?? null;
    result.kind = key;
    const sub = key === "subagent" ? source.subagent : null;
    if (typeof sub === "string") result.subagent = sub;
    else if (isObject(sub)) {
      result.subagent = Object.keys(sub)[0] ?? null;
      const spawn = isObject(sub.thread_spawn) ? sub.thread_spawn : null;
      if (spawn) {
        result.spawn = {
          parentThreadId: str(spawn.parent_thread_id),
          depth: typeof spawn.depth === "number" ? spawn.depth : null,
          agentPath: str(spawn.agent_path),
          nickname: str(spawn.agent_nickname),
          role: str(spawn.agent_role),
        };
      }
    }
  }
  const topParent = str(meta?.parent_thread_id);
  if (topParent !== null) {
    if (result.spawn === null) result.spawn = { parentThreadId: topParent, depth: null, agentPath: null, nickname: null, role: null };
    else if (result.spawn.parentThreadId === null) result.spawn.parentThreadId = topParent;
  }
  return result;
}
