// Whether dropped `.json` files are sessions, told in the worker (where the readers are; the
// page's own code holds none of them). A `.json` file is normally a captured request (a header or
// a summariser request), but opencode's `opencode export` is JSON too (FM-OC-4), so the first
// few KB of each are checked with the readers' own detection.
import { detectFormatOrPretty, mayCompanionFileName, ownedCompanionFile, splitTextLines } from "../../core/session/index";

/** Bytes looked at: enough for the first lines of an export, cheap for a large capture. */
const SNIFF_BYTES = 16 * 1024;
/**
 * Bytes looked at when the head is JSON spread over lines: a pretty-printed JSONL session (a Codex
 * rollout through `jq .`) is told by its first whole values, and its first value (Codex's
 * session_meta with the base instructions) can be tens of KB.
 */
const PRETTY_SNIFF_BYTES = 1024 * 1024;
/** An agent's companion file is read whole to be told (a JSON document); a larger one is left to the other checks. */
const COMPANION_SNIFF_BYTES = 64 * 1024 * 1024;

/** True when `file` starts like a session a reader recognises (e.g. an opencode export). */
async function headLines(file: File, bytes: number): Promise<string[]> {
  const lines = splitTextLines(await file.slice(0, bytes).text());
  // The last line may be cut in the middle: only complete lines are given to detection, unless
  // the file is one long line (a compact JSON document), whose head is all there is to look at.
  if (file.size > bytes && lines.length > 1) lines.pop();
  return lines;
}

/** What a dropped `.json` file is: a session a reader recognises, an agent's side file, or neither (a capture). */
export type SniffedKind = "session" | "side file" | null;

async function sniffedKind(file: File): Promise<SniffedKind> {
  try {
    // An agent's file beside its sessions (Gemini CLI's projects.json, logs.json) opens with the session, never as a capture.
    if (mayCompanionFileName(file.name) && file.size <= COMPANION_SNIFF_BYTES && ownedCompanionFile({ name: file.name, text: await file.text() })) return "side file";
    const lines = await headLines(file, SNIFF_BYTES);
    if (detectFormatOrPretty(lines, file.name) !== null) return "session";
    const first = lines.find((line) => line.trim() !== "")?.trim() ?? "";
    // JSON spread over lines whose first value did not fit: look further.
    if (file.size <= SNIFF_BYTES || (first !== "{" && first !== "[")) return null;
    return detectFormatOrPretty(await headLines(file, PRETTY_SNIFF_BYTES), file.name) !== null ? "session" : null;
  } catch {
    return null;
  }
}

/** For each file, in order, what it is: a session a reader recognises, an agent's side file, or neither. */
export async function sniffSessions(files: readonly File[]): Promise<SniffedKind[]> {
  const found: SniffedKind[] = [];
  for (const file of files) found.push(await sniffedKind(file));
  return found;
}
