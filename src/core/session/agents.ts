// The one place that asks the agent registry. Everything else — the rest of this folder, the app,
// the worker and the CLI — finds an agent, its readers, profiles and policies through here, so no
// module outside src/core/agents/ names an agent.
import type { AgentDescriptor, PolicyOnlyAgent } from "../agents/descriptor";
import { AGENTS, POLICY_ONLY_AGENTS } from "../agents/registry";
import type { ProfileId, Session } from "../model";

/** Every agent whose sessions are read, in detection order. */
export function allAgents(): readonly AgentDescriptor[] {
  return AGENTS;
}

/** The agents whose compaction policies the simulator runs without reading their sessions. */
export function policyOnlyAgents(): readonly PolicyOnlyAgent[] {
  return POLICY_ONLY_AGENTS;
}

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

/** The profile the file itself shows it was written with (a senpi file read by pi's reader), or null. */
export function sessionProfileOf(session: Session): ProfileId | null {
  return findAgent(session.formatId)?.sessionProfile?.(session) ?? null;
}

/**
 * The profile a view of `session` names when the options name none: the one the file shows it was
 * written with, else the agent's first, else the default profile (a share link always names one).
 */
export function defaultProfileOf(session: Session): ProfileId {
  return sessionProfileOf(session) ?? findAgent(session.formatId)?.profiles?.[0]?.id ?? defaultProfileId();
}

/** Every pipeline profile an agent offers ("pi", "senpi"), for option lists. */
export const PROFILE_IDS: readonly ProfileId[] = AGENTS.flatMap((agent) => (agent.profiles ?? []).map((profile) => profile.id));

/**
 * The profile views name when no session decides it (the CLI's `--profile` default): the one a
 * descriptor marks `default` among its profiles. Throws when no profile, or more than one, is marked.
 */
export function defaultProfileId(): ProfileId {
  const marked = AGENTS.flatMap((agent) => (agent.profiles ?? []).filter((profile) => profile.default === true));
  const [only] = marked;
  if (marked.length !== 1 || !only) throw new Error(`exactly one agent profile must be marked default (found ${marked.length})`);
  return only.id;
}
