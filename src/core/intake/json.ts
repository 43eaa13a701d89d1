// What a `.json` file is, told from its head: a session a reader recognises (an opencode export, a
// pretty-printed JSONL session), an agent's side file of notes (Gemini CLI's projects.json), or
// neither — then a captured request (or a bundle, which the page tells itself). A `.json` file is
// normally a captured request, so the readers' own detection decides.
import { detectFormatOrPretty, ownedSideFile, splitTextLines } from "../session/index";
import { utf8Decode } from "../util/utf8";
import { baseName, isWhole, JSON_HEAD_BYTES, NOTE_FILE_MAX_BYTES, type IntakeSource } from "./source";

/** Bytes looked at first: enough for the first lines of an export, cheap for a large capture. */
const FIRST_LOOK_BYTES = 16 * 1024;

export type JsonRole = "session" | "side file" | null;

/** The head's complete lines (the last one may be cut, unless the head is one long line: a compact document). */
function headLines(source: IntakeSource, bytes: number): string[] {
  const lines = splitTextLines(utf8Decode(source.head.subarray(0, bytes)));
  if (source.size > bytes && lines.length > 1) lines.pop();
  return lines;
}

/** What the `.json` source is (its head: `intakeHeadLength` bytes of it). */
export function jsonRole(source: IntakeSource): JsonRole {
  const name = baseName(source.name);
  try {
    // An agent's file beside its sessions (Gemini CLI's projects.json, logs.json) opens with the session, never as a capture.
    if (source.size <= NOTE_FILE_MAX_BYTES && isWhole(source) && ownedSideFile({ name, text: utf8Decode(source.head) }, "session-notes")) return "side file";
    const lines = headLines(source, FIRST_LOOK_BYTES);
    if (detectFormatOrPretty(lines, name) !== null) return "session";
    const first = lines.find((line) => line.trim() !== "")?.trim() ?? "";
    // JSON spread over lines whose first value did not fit: look further.
    if (source.size <= FIRST_LOOK_BYTES || (first !== "{" && first !== "[")) return null;
    return detectFormatOrPretty(headLines(source, JSON_HEAD_BYTES), name) !== null ? "session" : null;
  } catch {
    return null;
  }
}
