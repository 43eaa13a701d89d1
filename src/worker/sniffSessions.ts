// Whether dropped `.json` files are sessions, told in the worker (where the readers are; the
// page's own code holds none of them). A `.json` file is normally a captured request (a header or
// a summariser request), but opencode's `opencode export` is JSON too (FM-OC-4), so the first
// few KB of each are checked with the readers' own detection.
import { detectFormat, splitTextLines } from "../core/session/index";

/** Bytes looked at: enough for the first lines of an export, cheap for a large capture. */
const SNIFF_BYTES = 16 * 1024;

/** True when `file` starts like a session a reader recognises (e.g. an opencode export). */
async function looksLikeSession(file: File): Promise<boolean> {
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

/** For each file, in order, whether it starts like a session a reader recognises. */
export async function sniffSessions(files: readonly File[]): Promise<boolean[]> {
  const found: boolean[] = [];
  for (const file of files) found.push(await looksLikeSession(file));
  return found;
}
