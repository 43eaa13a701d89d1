// What a file found on a folder walk is, for the CLI's `scan`: a session (a database, a compressed
// file whose lines are known once decoded, or a file whose first lines an agent's reader
// recognises), an agent's note file (read with the sessions in its folder and below), or skipped
// with a reason; and which folders a home's database reads itself (hermes-agent: `sessions/`
// beside `state.db`), so a walk leaves them out.
import { sideFileLayouts } from "../session/index";
import { headRole } from "./head";
import { noteFilesAmong, plannedSession } from "./plan";
import type { IntakeSource } from "./source";

/** A session's agent is the one its first lines say (null: known once read, a database or a compressed file). */
export type ScanRole = { kind: "session"; agentId: string | null } | { kind: "side file" } | { kind: "skipped"; reason: string };

/** What `source` is for a scan (its head: `intakeHeadLength` bytes of it, the whole file for a possible note file). */
export function scanRole(source: IntakeSource): ScanRole {
  if (source.size === 0) return { kind: "skipped", reason: "empty file" };
  const role = headRole(source.head);
  // A database is read with its -wal; a compressed file's lines are known once decoded, when read.
  if (role.kind === "database" || role.kind === "compressed") return { kind: "session", agentId: null };
  const agentId = plannedSession(source).agentId;
  if (agentId !== null) return { kind: "session", agentId };
  if (noteFilesAmong([source]).length > 0) return { kind: "side file" };
  return { kind: "skipped", reason: "not a session file of a supported agent" };
}

/** The sub-folders of a folder holding `fileNames` that its agent's database reads with it (never walked on their own). */
export function foldersReadWithDatabase(fileNames: readonly string[]): Set<string> {
  return new Set(sideFileLayouts()
    .filter((layout) => fileNames.includes(layout.homeDatabaseName))
    .map((layout) => layout.folderBesideDatabase));
}

/** True when the note file at `sideFilePath` goes with the session at `sessionPath`: it is in the session's folder or one above (`sep` between parts). */
export function sideFileNear(sideFilePath: string, sessionPath: string, sep = "/"): boolean {
  const folder = sideFilePath.slice(0, sideFilePath.lastIndexOf(sep) + 1);
  return sessionPath.startsWith(folder);
}
