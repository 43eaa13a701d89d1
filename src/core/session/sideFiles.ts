// Files agents keep beside their sessions (one descriptor field, `sideFiles`, of one of the kinds
// in SIDE_FILE_KINDS), generically: which agent's side file a text file is, several of a store
// read together (hermes-agent's snapshots, transcripts and request dumps), files of notes read into
// a session opened with them (Gemini CLI's projects.json and logs.json), what such a file opened
// alone is, and the folder layouts the CLI finds store files in. Which files of a drop are side
// files is decided by the intake (src/core/intake/); agent-specific reading lives in each agent's folder.
import type { AgentDescriptor, AgentSideFiles, SideFileKind, TextFile } from "../agents/descriptor";
import type { Session } from "../model";
import { allAgents, findAgent } from "./agents";

/** A side file with the id of the agent it belongs to and its kind. */
export type OwnedSideFile = TextFile & { agentId: string; kind: SideFileKind };

type WithSideFiles<K extends SideFileKind> = AgentDescriptor & { sideFiles: Extract<AgentSideFiles, { kind: K }> };

function sideFileAgents<K extends SideFileKind>(kind: K): WithSideFiles<K>[] {
  return allAgents().filter((agent): agent is WithSideFiles<K> => agent.sideFiles?.kind === kind);
}

/** True when `name` may be a side file of the kind `kind` of some agent (its content decides: `ownedSideFile`). */
export function maySideFileName(name: string, kind: SideFileKind): boolean {
  return sideFileAgents(kind).some((agent) => agent.sideFiles.namePattern.test(name));
}

/** The text file with the agent whose side file of the kind `kind` it is, or null when it is none's. */
export function ownedSideFile(file: TextFile, kind: SideFileKind): OwnedSideFile | null {
  const agent = sideFileAgents(kind).find((candidate) => candidate.sideFiles.namePattern.test(file.name) && candidate.sideFiles.accepts(file.name, file.text));
  return agent ? { ...file, agentId: agent.id, kind } : null;
}

/** Several store files without a database: read as one store by their agent; null when fewer than `atLeast` are one agent's. */
export function readSideFiles(files: readonly OwnedSideFile[], sessionId: string | null, atLeast = 2): Session | null {
  for (const agent of sideFileAgents("session-store")) {
    const own = files.filter((file) => file.agentId === agent.id && file.kind === "session-store");
    if (own.length > 0 && own.length >= atLeast) return agent.sideFiles.read(own, sessionId);
  }
  return null;
}

/** The folder layouts of the agents that keep store files (for the CLI, which finds them on disk). */
export function sideFileLayouts(): { agent: AgentDescriptor; folderBesideDatabase: string; homeDatabaseName: string; namePattern: RegExp; accepts: (name: string, text: string) => boolean; companions: (name: string, folderNames: readonly string[]) => string[]; read: (files: readonly TextFile[], sessionId: string | null) => Session }[] {
  return sideFileAgents("session-store").map((agent) => ({ agent, ...agent.sideFiles }));
}

/**
 * `session` with the note files opened with it: its agent reads its own into it; a file of
 * another agent is named in a note as not needed for this session (never a warning).
 */
export function attachSideFiles(session: Session, files: readonly OwnedSideFile[]): Session {
  const notes = files.filter((file) => file.kind === "session-notes");
  if (notes.length === 0) return session;
  const agent = findAgent(session.formatId);
  const own = notes.filter((file) => file.agentId === session.formatId);
  const attached = own.length > 0 && agent?.sideFiles?.kind === "session-notes" ? agent.sideFiles.attach(session, own) : session;
  const foreign = notes
    .filter((file) => file.agentId !== session.formatId)
    .map((file) => ({
      fileName: file.name,
      note: `${file.name} is a file ${findAgent(file.agentId)?.label ?? file.agentId} keeps beside its chats; ${session.fileName} is not one of them, so it is not needed here.`,
    }));
  return foreign.length === 0 ? attached : { ...attached, companionNotes: [...(attached.companionNotes ?? []), ...foreign] };
}

/** What a note file opened on its own is, and what to open with it. */
export function loneSideFileMessage(file: OwnedSideFile): string {
  const sideFiles = findAgent(file.agentId)?.sideFiles;
  return sideFiles?.kind === "session-notes" ? sideFiles.aloneMessage(file.name) : `${file.name} is not a session.`;
}
