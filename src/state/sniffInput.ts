// Sorting dropped files before anything is read in full: a `.json` file is normally a captured
// request (header or summariser request), but opencode's `opencode export` is JSON too (FM-OC-4),
// so the first few KB of each `.json` file are checked with the readers' own detection.
import { detectFormat, splitTextLines } from "../core/session/index";
import { isBundle } from "../core/share/bundle";

/** Bytes looked at: enough for the first lines of an export, cheap for a large capture. */
const SNIFF_BYTES = 16 * 1024;

/** True when `file` starts like a session a reader recognises (e.g. an opencode export). */
export async function looksLikeSession(file: File): Promise<boolean> {
  try {
    const head = await file.slice(0, SNIFF_BYTES).text();
    const lines = splitTextLines(head);
    // The last line may be cut in the middle: only complete lines are given to detection, unless
    // the file is one long line (a compact JSON document), whose head is all there is to look at.
    if (file.size > SNIFF_BYTES && lines.length > 1) lines.pop();
    return detectFormat(lines, file.name) !== null;
  } catch {
    return false;
  }
}

/** True when `file` starts like a reproduction bundle (`{"contextscope":"bundle"`). */
export async function isBundleFile(file: File): Promise<boolean> {
  try {
    return isBundle(await file.slice(0, 512).text());
  } catch {
    return false;
  }
}
