// The agent registry: one line per agent, in file-detection order (the chat-message list last:
// it never looks like the JSONL formats before it). Everything that differs between agents is
// reached through the descriptor found here.
import type { AgentDescriptor } from "./descriptor";
import type { AgentId } from "./ids";
import type { ProfileId, Session } from "../model";
import { claudeCodeAgent } from "./claude-code/agent";
import { codexAgent } from "./codex/agent";
import { hermesAgent } from "./hermes/agent";
import { opencodeAgent } from "./opencode/agent";
import { piAgent } from "./pi/agent";

export const AGENTS = [piAgent, opencodeAgent, claudeCodeAgent, codexAgent, hermesAgent] as const satisfies readonly AgentDescriptor[];

/** The ids the registry lists: must be every AgentId (agents/ids.ts), checked just below. */
export type RegisteredAgentId = (typeof AGENTS)[number]["id"];
/** Fails to compile when an AgentId has no descriptor in AGENTS. */
export const EVERY_AGENT_REGISTERED: [Exclude<AgentId, RegisteredAgentId>] extends [never] ? true : never = true;

/** Every pipeline profile an agent offers ("pi", "senpi"), for option lists. */
export const PROFILE_IDS: readonly ProfileId[] = AGENTS.flatMap((agent) => agent.profiles.map((profile) => profile.id));

/** The agent with this id, or null (an unknown id, or the empty file's "none"). */
export function findAgent(id: string): AgentDescriptor | null {
  return AGENTS.find((agent) => agent.id === id) ?? null;
}

/** The agent whose reader made this session; throws for a session no agent wrote (empty input). */
export function agentOf(session: Session): AgentDescriptor {
  const agent = findAgent(session.formatId);
  if (!agent) throw new Error(`No agent reads sessions of format "${session.formatId}" (${session.formatLabel})`);
  return agent;
}
