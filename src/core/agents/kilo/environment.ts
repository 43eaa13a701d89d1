// The `<environment_details>` block Kilo appends to every user message of a request and never
// stores (docs/formats/kilo.md, FM-KI-4): a text part after the message's own parts, holding the
// message's creation time in UTC to the second, the working directory and the workspace root. The
// time is the stored message's `time.created`; the folders are those the answering assistant
// message records in `path` (`cwd`, `root`), else the session's directory.
import type { OpencodeMessageRecord } from "../opencode/index";

/** The folders an environment block names. */
export interface KiloFolders {
  cwd: string;
  root: string;
}

/** `2026-12-05T17:01:41Z`: the ISO time cut to the second (Kilo drops the milliseconds). */
function secondsIso(epochMs: number): string {
  return `${new Date(Math.floor(epochMs / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** The block for a user message created at `created` (epoch ms), or null when the time is not stored. */
export function environmentDetails(created: number | undefined, folders: KiloFolders): string | null {
  if (typeof created !== "number" || !Number.isFinite(created)) return null;
  return [
    "\n\n<environment_details>",
    `Message time: ${secondsIso(created)}`,
    `Working directory: ${folders.cwd}`,
    `Workspace root folder: ${folders.root}`,
    "</environment_details>",
  ].join("\n");
}

/** The folders an assistant message records (`path.cwd`, `path.root`), or null. */
export function recordedFolders(record: OpencodeMessageRecord): KiloFolders | null {
  const path = record.info.path as { cwd?: unknown; root?: unknown } | undefined;
  if (!path || typeof path.cwd !== "string" || typeof path.root !== "string") return null;
  return { cwd: path.cwd, root: path.root };
}
