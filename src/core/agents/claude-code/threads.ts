// Sub-agent threads of a Claude Code session (FM-CC-8). A sub-agent started by the `Task` (later
// `Agent`) tool leaves its messages in one of three places, depending on the Claude Code version:
// sidechain entries of the main file (`isSidechain: true`), `agent_progress` lines of the main
// chain carrying each sub-agent message inline (`data.message`, 2.1.x), or its own file
// `<session>/subagents/agent-<id>.jsonl` (older: `agent-<id>.jsonl` beside the session). An
// asynchronous sub-agent writes nothing into the main file but its launch result. Each becomes a
// SessionThread linked to the tool call that started it, found through the tool result's
// `toolUseResult.agentId` or, for old sidechains, the prompt the call passed.
import type { Session, SessionEntry, SessionThread, ThreadSpawn } from "../../model";
import { isObject } from "../../util/is-object";
import { isText, textString } from "../../text/text";
import { contentBlocks, entryMessage, isConversationEntry, isSidechain, stringField } from "./records";

interface SpawnCall extends ThreadSpawn {
  description: string | null;
  /** The entry holding the call is a sidechain entry of this agent (a nested sub-agent). */
  inAgent: string | null;
}

/** Where each sub-agent was started: tool calls by id, and the call behind each agent id and prompt. */
interface SpawnIndex {
  calls: Map<string, SpawnCall>;
  callByAgent: Map<string, string>;
  callByPrompt: Map<string, string>;
}

function promptText(content: unknown): string {
  if (isText(content)) return textString(content);
  return contentBlocks(content)
    .map((block) => (isObject(block) && isText(block.text) ? textString(block.text) : ""))
    .join("\n");
}

function addSpawns(index: SpawnIndex, entries: readonly SessionEntry[]): void {
  for (const entry of entries) {
    const message = entryMessage(entry);
    if (!message) continue;
    if (entry.type === "assistant") {
      for (const block of contentBlocks(message.content)) {
        if (!isObject(block) || block.type !== "tool_use" || typeof block.id !== "string") continue;
        const input = isObject(block.input) ? block.input : {};
        index.calls.set(block.id, {
          entryId: entry.id,
          toolCallId: block.id,
          toolName: typeof block.name === "string" ? block.name : "tool",
          description: stringField(input, "description"),
          inAgent: isSidechain(entry) ? stringField(entry.raw, "agentId") : null,
        });
        const prompt = stringField(input, "prompt");
        if (prompt !== null && !index.callByPrompt.has(prompt)) index.callByPrompt.set(prompt, block.id);
      }
    } else if (entry.type === "user") {
      const result = entry.raw.toolUseResult;
      const agentId = isObject(result) ? stringField(result, "agentId") : null;
      if (agentId === null) continue;
      const block = contentBlocks(message.content).find((item) => isObject(item) && item.type === "tool_result");
      if (isObject(block) && typeof block.tool_use_id === "string") index.callByAgent.set(agentId, block.tool_use_id);
    }
  }
}

function spawnIndexOf(sessions: readonly Session[]): SpawnIndex {
  const index: SpawnIndex = { calls: new Map(), callByAgent: new Map(), callByPrompt: new Map() };
  for (const session of sessions) addSpawns(index, session.entries);
  return index;
}

/** The thread's entries as a session of the main session's format. */
function threadSession(main: Session, fileName: string, entries: SessionEntry[]): Session {
  return {
    formatId: main.formatId,
    formatLabel: main.formatLabel,
    fileName,
    formatVersion: main.formatVersion,
    header: main.header,
    entries,
    warnings: [],
    lineCount: main.lineCount,
    // The thread's entries are the main file's: their stored texts are in its store.
    ...(main.textStore ? { textStore: main.textStore } : {}),
  };
}

function firstPrompt(entries: readonly SessionEntry[]): string {
  const first = entries.find((entry) => entry.type === "user");
  return first ? promptText(entryMessage(first)?.content) : "";
}

/**
 * Sub-agents Claude Code starts for itself, without a tool call, by the prefix of their id (their
 * file is `agent-<id>.jsonl` like any other): the summariser of a compaction (`acompact-`) and the
 * answer to a side question asked while the agent works (`aside_question-`). Both are sent the
 * main conversation again, then their own request.
 */
const INTERNAL_AGENTS: readonly { prefix: string; label: string }[] = [
  { prefix: "acompact-", label: "compaction summariser" },
  { prefix: "aside_question-", label: "side question" },
];

function labelOf(agentId: string, call: SpawnCall | undefined, entries: readonly SessionEntry[]): string {
  const internal = call ? undefined : INTERNAL_AGENTS.find((agent) => agentId.startsWith(agent.prefix));
  if (internal) return `${internal.label} (${agentId})`;
  const what = call?.description ?? firstPrompt(entries).replace(/\s+/g, " ").trim().slice(0, 60);
  return `${call ? call.toolName : "sub-agent"}${what ? `: ${what}` : ""} (${agentId})`;
}

function linked(agentId: string, spawns: SpawnIndex, entries: readonly SessionEntry[]): SpawnCall | undefined {
  const callId = spawns.callByAgent.get(agentId) ?? spawns.callByPrompt.get(firstPrompt(entries));
  return callId === undefined ? undefined : spawns.calls.get(callId);
}

function makeThread(
  main: Session,
  spawns: SpawnIndex,
  agentId: string,
  origin: SessionThread["origin"],
  session: Session,
): SessionThread {
  const call = linked(agentId, spawns, session.entries);
  const spawnedBy: ThreadSpawn | null = call ? { entryId: call.entryId, toolCallId: call.toolCallId, toolName: call.toolName } : null;
  return { id: agentId, label: labelOf(agentId, call, session.entries), parentThreadId: call?.inAgent ?? null, spawnedBy, origin, session };
}

/** Sidechain entries of the main file, by agent id (old files without one: by chain root). */
function sidechainGroups(session: Session): Map<string, SessionEntry[]> {
  const rootOf = new Map<string, string>();
  const groups = new Map<string, SessionEntry[]>();
  for (const entry of session.entries) {
    if (!isConversationEntry(entry) || !isSidechain(entry)) continue;
    const key = stringField(entry.raw, "agentId") ?? (entry.parentId !== null ? rootOf.get(entry.parentId) : undefined) ?? entry.id;
    rootOf.set(entry.id, key);
    const group = groups.get(key);
    if (group) group.push(entry);
    else groups.set(key, [entry]);
  }
  return groups;
}

/**
 * The sub-agent messages carried by `agent_progress` lines, by agent id, as a linear chain of
 * entries (each message's parent is the one before it; the lines' own line numbers).
 */
function progressGroups(session: Session): Map<string, SessionEntry[]> {
  const groups = new Map<string, SessionEntry[]>();
  const seen = new Set<string>();
  for (const entry of session.entries) {
    if (entry.type !== "progress" || !isObject(entry.raw.data) || entry.raw.data.type !== "agent_progress") continue;
    const data = entry.raw.data;
    const agentId = stringField(data, "agentId") ?? stringField(entry.raw, "parentToolUseID");
    const message = data.message;
    if (agentId === null || !isObject(message) || (message.type !== "user" && message.type !== "assistant") || !isObject(message.message)) continue;
    const id = stringField(message, "uuid") ?? `${agentId}@${entry.line}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const group = groups.get(agentId) ?? [];
    const parentId = group.length > 0 ? (group[group.length - 1] as SessionEntry).id : null;
    group.push({
      id,
      parentId,
      type: message.type,
      timestamp: stringField(message, "timestamp") ?? entry.timestamp,
      line: entry.line,
      raw: { ...message, uuid: id, parentUuid: parentId, isSidechain: true, agentId, sessionId: entry.raw.sessionId },
    });
    groups.set(agentId, group);
  }
  return groups;
}

/**
 * Threads found in one file: sidechains, `agent_progress` messages, and sub-agents whose launch
 * is recorded (`toolUseResult.agentId`) but whose messages are in a file not opened with it.
 */
export function inFileThreads(session: Session): SessionThread[] {
  const spawns = spawnIndexOf([session]);
  const threads: SessionThread[] = [];
  const found = new Set<string>();
  for (const [agentId, entries] of sidechainGroups(session)) {
    threads.push(makeThread(session, spawns, agentId, "sidechain", threadSession(session, `${session.fileName}#${agentId}`, entries)));
    found.add(agentId);
  }
  for (const [agentId, entries] of progressGroups(session)) {
    if (found.has(agentId)) continue;
    threads.push(makeThread(session, spawns, agentId, "progress", threadSession(session, `${session.fileName}#${agentId}`, entries)));
    found.add(agentId);
  }
  for (const agentId of spawns.callByAgent.keys()) {
    if (found.has(agentId)) continue;
    threads.push(makeThread(session, spawns, agentId, "elsewhere", threadSession(session, `agent-${agentId}.jsonl`, [])));
    found.add(agentId);
  }
  return threads;
}

const AGENT_FILE = /(?:^|[\\/])agent-([A-Za-z0-9_-]+)\.jsonl$/;

/** The agent id of a sub-agent file: its entries' `agentId`, else its name `agent-<id>.jsonl`. */
function agentIdOf(session: Session): string | null {
  for (const entry of session.entries) {
    const agentId = stringField(entry.raw, "agentId");
    if (agentId !== null && isConversationEntry(entry)) return agentId;
  }
  return AGENT_FILE.exec(session.fileName)?.[1] ?? null;
}

function isMainSession(session: Session): boolean {
  return session.entries.some((entry) => isConversationEntry(entry) && !isSidechain(entry));
}

function sessionIdOf(session: Session): string | null {
  return session.header && typeof session.header.sessionId === "string" ? session.header.sessionId : null;
}

/** The main transcript among files opened together: the main-chain file most others share a session id with. */
function mainOf(sessions: readonly Session[]): Session {
  const candidates = sessions.filter(isMainSession);
  let best: Session = candidates[0] ?? (sessions[0] as Session);
  let bestShared = -1;
  for (const candidate of candidates) {
    const id = sessionIdOf(candidate);
    const shared = sessions.filter((other) => other !== candidate && id !== null && sessionIdOf(other) === id).length;
    if (shared > bestShared) {
      best = candidate;
      bestShared = shared;
    }
  }
  return best;
}

/**
 * Files opened together: the main transcript (the one with main-chain entries, else the first)
 * with each sub-agent file as a thread, replacing what the main file held of that sub-agent
 * (its own file has every message). Files of another session or without an agent id are unlinked.
 */
export function linkClaudeFiles(sessions: readonly Session[]): { session: Session; unlinked: Session[] } {
  const main = mainOf(sessions);
  const sessionId = sessionIdOf(main);
  const unlinked: Session[] = [];
  const files: { agentId: string; session: Session }[] = [];
  for (const other of sessions) {
    if (other === main) continue;
    const agentId = agentIdOf(other);
    const otherId = sessionIdOf(other);
    if (other.formatId !== main.formatId || agentId === null || (sessionId !== null && otherId !== null && otherId !== sessionId)) {
      unlinked.push(other);
      continue;
    }
    files.push({ agentId, session: other });
  }
  const spawns = spawnIndexOf([main, ...files.map((file) => file.session)]);
  const threads = (main.threads ?? []).filter((thread) => !files.some((file) => file.agentId === thread.id));
  for (const file of files) threads.push(makeThread(main, spawns, file.agentId, "file", file.session));
  return { session: { ...main, threads }, unlinked };
}
