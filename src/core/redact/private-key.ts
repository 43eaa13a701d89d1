// Scanner for PEM private key blocks (`-----BEGIN RSA PRIVATE KEY-----` … `-----END …-----`),
// also when the newlines are JSON escapes (`\n`) as in a service-account file printed by a tool.
// The BEGIN and END lines stay visible; the body between them is the secret. A block whose END
// is missing (output cut short) is masked up to the end of its base64 run. Written as a scanner
// rather than one regex so that it is linear: every search for an END marker starts after the
// previous one, whatever the labels, so no character is visited twice by END searches.
import type { ScanStats } from "./types";

const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const END_PREFIX = "-----END ";

/** Characters of a PEM body: base64, whitespace, `\n` escapes, and `Proc-Type:` header text. */
function isBodyChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || // 0-9
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    code === 43 || // +
    code === 47 || // /
    code === 61 || // =
    code === 92 || // \ (escaped newline in JSON text)
    code === 58 || // :
    code === 44 || // ,
    code === 45 || // - (not the start of a ----- marker, checked by the caller)
    code === 32 ||
    code === 9 ||
    code === 10 ||
    code === 13
  );
}

export function scanPrivateKeyBlocks(text: string, stats?: ScanStats): { start: number; end: number }[] {
  const blocks: { start: number; end: number }[] = [];
  if (!text.includes("PRIVATE KEY")) return blocks;
  const begin = new RegExp(PRIVATE_KEY_BEGIN.source, "g");
  // Result of the last END search: no "-----END " lies in [searchedFrom, foundAt).
  let searchedFrom = -1;
  let foundAt = -1;
  let match: RegExpExecArray | null;
  while ((match = begin.exec(text)) !== null) {
    const bodyStart = match.index + match[0].length;
    if (!(searchedFrom >= 0 && searchedFrom <= bodyStart && (foundAt === -1 || foundAt >= bodyStart))) {
      searchedFrom = bodyStart;
      foundAt = text.indexOf(END_PREFIX, bodyStart);
      if (stats) stats.visited += (foundAt === -1 ? text.length : foundAt + END_PREFIX.length) - bodyStart;
    }
    let bodyEnd: number;
    // Consecutive searches cover disjoint ranges: the next BEGIN is at or before the next block.
    const nextBegin = text.indexOf("-----BEGIN ", bodyStart);
    if (stats) stats.visited += (nextBegin === -1 ? text.length : nextBegin) - bodyStart;
    if (foundAt !== -1 && (nextBegin === -1 || foundAt < nextBegin)) {
      bodyEnd = foundAt;
    } else {
      // No END before the next block: mask the body run (a key cut short).
      bodyEnd = bodyStart;
      while (bodyEnd < text.length) {
        const code = text.charCodeAt(bodyEnd);
        if (!isBodyChar(code)) break;
        if (code === 45 && text.startsWith("-----", bodyEnd)) break;
        bodyEnd++;
      }
      if (stats) stats.visited += bodyEnd - bodyStart;
    }
    const [start, end] = trimBody(text, bodyStart, bodyEnd);
    if (end > start) blocks.push({ start, end });
    if (bodyEnd > begin.lastIndex) begin.lastIndex = bodyEnd;
  }
  return blocks;
}

/** Keeps the line breaks (real or `\n` escapes) around the body visible, for readability. */
function trimBody(text: string, start: number, end: number): [number, number] {
  const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;
  for (;;) {
    if (start < end && isSpace(text.charCodeAt(start))) start++;
    else if (start + 1 < end && text.charCodeAt(start) === 92 && "nr".includes(text.charAt(start + 1))) start += 2;
    else break;
  }
  for (;;) {
    if (end > start && isSpace(text.charCodeAt(end - 1))) end--;
    else if (end - 1 > start && text.charCodeAt(end - 2) === 92 && "nr".includes(text.charAt(end - 1))) end -= 2;
    else break;
  }
  return [start, end];
}
