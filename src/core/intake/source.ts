// What the intake is given of each file: its name, its size and its first bytes, and how many of
// them it needs. Hosts read that many bytes (a `File.slice`, an `fs.readSync`) and hand them over;
// the intake never reads a file itself, so it stays pure and the same for the page, the workers
// and the CLI.
import { maySideFileName } from "../session/index";

/** One file offered to the intake. */
export interface IntakeSource {
  /** Its path relative to the dropped (or given) folder, "/" between parts, or a plain file name. */
  name: string;
  size: number;
  /** Its first bytes: `intakeHeadLength(name, size, context)` of them (fewer when the file is shorter). */
  head: Uint8Array;
}

/** How the files are opened, which changes what is looked at. */
export interface IntakeContext {
  /** Several files opened together (a drop, a library row): an agent's store files among them are looked for. */
  together: boolean;
  /** The files are followed as they grow: only a database or line files are followed, never a store of side files. */
  follow?: boolean;
}

/** The bytes a session's agent is told from: enough for the detection lines of ordinary files. */
const DETECT_HEAD_BYTES = 256 * 1024;
/**
 * Bytes looked at for a `.json` file: a pretty-printed JSONL session (a Codex rollout through
 * `jq .`) is told by its first whole values, and its first value can be tens of KB.
 */
export const JSON_HEAD_BYTES = 1024 * 1024;
/** A side file of notes is read whole to be told (a JSON document); a larger one is left to the other checks. */
export const NOTE_FILE_MAX_BYTES = 64 * 1024 * 1024;

/** The base name of a source's path. */
export function baseName(name: string): string {
  return name.slice(name.lastIndexOf("/") + 1);
}

/** How many first bytes of the file `name` (of `size` bytes) the intake needs to place it. */
export function intakeHeadLength(name: string, size: number, context: IntakeContext): number {
  const base = baseName(name);
  if (maySideFileName(base, "session-notes") && size <= NOTE_FILE_MAX_BYTES) return size;
  if (context.together && !context.follow && maySideFileName(base, "session-store")) return size;
  return Math.min(size, base.toLowerCase().endsWith(".json") ? JSON_HEAD_BYTES : DETECT_HEAD_BYTES);
}

/** True when the source's head is the whole file. */
export function isWhole(source: IntakeSource): boolean {
  return source.head.byteLength >= source.size;
}
