// File operations a compaction records (PI-K19) and the file-list sections appended to its
// summary (PI-K30). Paths come from the `path` argument of `read`, `write` and `edit` tool calls,
// plus what the previous compaction already listed.
import type { PiProfileId } from "../profile";
import type { AgentMessage } from "../../../model";

/** Working sets, kept as sorted-on-output arrays of unique paths (plain data, no Sets). */
export interface FileOperations {
  read: string[];
  written: string[];
  edited: string[];
}

export interface FileLists {
  readFiles: string[];
  modifiedFiles: string[];
}

export function emptyFileOperations(): FileOperations {
  return { read: [], written: [], edited: [] };
}

function addUnique(list: string[], path: string): void {
  if (!list.includes(path)) list.push(path);
}

/** Tool calls of one assistant message → read / written / edited paths (PI-K19). */
export function collectFileOperations(message: AgentMessage, into: FileOperations, profile: PiProfileId = "pi"): void {
  if (message.role !== "assistant") return;
  for (const block of message.content ?? []) {
    if (block.type !== "toolCall") continue;
    const args = block.arguments ?? {};
    const path = typeof args.path === "string" ? args.path : null;
    if (block.name === "read" && path !== null) addUnique(into.read, path);
    else if (block.name === "write" && path !== null) addUnique(into.written, path);
    else if (block.name === "edit" && path !== null) addUnique(into.edited, path);
    else if (profile === "senpi" && block.name === "apply_patch") {
      // senpi also collects apply_patch paths (PI-K19); which argument holds them is not
      // specified, so only an explicit `path` / `paths` argument is read. [INF]
      if (path !== null) addUnique(into.edited, path);
      if (Array.isArray(args.paths)) for (const p of args.paths) if (typeof p === "string") addUnique(into.edited, p);
    }
  }
}

/** The previous compaction's details: readFiles → read, modifiedFiles → edited (PI-K19). */
export function inheritFileOperations(details: unknown, into: FileOperations): void {
  if (typeof details !== "object" || details === null) return;
  const { readFiles, modifiedFiles } = details as { readFiles?: unknown; modifiedFiles?: unknown };
  if (Array.isArray(readFiles)) for (const p of readFiles) if (typeof p === "string") addUnique(into.read, p);
  if (Array.isArray(modifiedFiles)) for (const p of modifiedFiles) if (typeof p === "string") addUnique(into.edited, p);
}

/** modified = edited ∪ written; read-only = read − modified; both sorted by UTF-16 code units. */
export function computeFileLists(ops: FileOperations): FileLists {
  const modified = new Set<string>([...ops.edited, ...ops.written]);
  const readFiles = ops.read.filter((p) => !modified.has(p)).sort();
  return { readFiles, modifiedFiles: [...modified].sort() };
}

/** The text appended to a summary: "" or `\n\n` + the non-empty sections (PI-K30). */
export function formatFileLists(lists: FileLists): string {
  const sections: string[] = [];
  if (lists.readFiles.length > 0) sections.push(`<read-files>\n${lists.readFiles.join("\n")}\n</read-files>`);
  if (lists.modifiedFiles.length > 0) sections.push(`<modified-files>\n${lists.modifiedFiles.join("\n")}\n</modified-files>`);
  return sections.length === 0 ? "" : `\n\n${sections.join("\n\n")}`;
}
