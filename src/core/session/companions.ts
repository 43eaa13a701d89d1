// Files an agent keeps beside its session files that are not sessions themselves (Gemini CLI's
// projects.json and logs.json), generically: which agent a file is a companion of, the session
// opened with them read into by its agent (`companionFiles.attach`), and what a companion file
// opened alone is. Agent-specific reading lives in each agent's folder.
import type { AgentDescriptor, TextFile } from "../agents/descriptor";
import type { Session } from "../model";
import { allAgents, findAgent } from "./agents";

/** A companion file with the id of the agent it belongs to. */
export type OwnedCompanionFile = TextFile & { agentId: string };

function companionAgents(): (AgentDescriptor & { companionFiles: NonNullable<AgentDescriptor["companionFiles"]> })[] {
  return allAgents().filter((agent): agent is AgentDescriptor & { companionFiles: NonNullable<AgentDescriptor["companionFiles"]> } => agent.companionFiles !== undefined);
}

/** True when `name` may be an agent's companion file (cheap: the content is checked by `ownedCompanionFile`). */
export function mayCompanionFileName(name: string): boolean {
  return companionAgents().some((agent) => agent.companionFiles.namePattern.test(name));
}

/** The text file with the agent whose companion file it is, or null when it is none's. */
export function ownedCompanionFile(file: TextFile): OwnedCompanionFile | null {
  const agent = companionAgents().find((candidate) => candidate.companionFiles.namePattern.test(file.name) && candidate.companionFiles.accepts(file.name, file.text));
  return agent ? { ...file, agentId: agent.id } : null;
}

/**
 * `session` with the companion files opened with it: its agent reads its own into it; a file of
 * another agent is named in a note as not needed for this session (never a warning).
 */
export function attachCompanionFiles(session: Session, files: readonly OwnedCompanionFile[]): Session {
  if (files.length === 0) return session;
  const agent = findAgent(session.formatId);
  const own = files.filter((file) => file.agentId === session.formatId);
  const attached = own.length > 0 && agent?.companionFiles ? agent.companionFiles.attach(session, own) : session;
  const foreign = files
    .filter((file) => file.agentId !== session.formatId)
    .map((file) => ({
      fileName: file.name,
      note: `${file.name} is a file ${findAgent(file.agentId)?.label ?? file.agentId} keeps beside its chats; ${session.fileName} is not one of them, so it is not needed here.`,
    }));
  return foreign.length === 0 ? attached : { ...attached, companionNotes: [...(attached.companionNotes ?? []), ...foreign] };
}

/** What a companion file opened on its own is, and what to open with it. */
export function loneCompanionMessage(file: OwnedCompanionFile): string {
  return findAgent(file.agentId)?.companionFiles?.aloneMessage(file.name) ?? `${file.name} is not a session.`;
}
