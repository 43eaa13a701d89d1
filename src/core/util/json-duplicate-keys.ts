// Keys written twice in one JSON object. JSON.parse keeps the last value of a repeated key and
// drops the others without a word, so a file whose `messages` list is written twice reads as the
// second list alone. One pass over the text, tracking strings and the keys of each open object;
// the text is assumed to parse (call it after JSON.parse succeeded).

export interface DuplicateKey {
  key: string;
  /** 1-based line of the repeated key (counted from `firstLine`). */
  line: number;
}

const QUOTE = 34;
const BACKSLASH = 92;
const NEWLINE = 10;

/** The first `limit` repeated keys of `text`, and how many there are in all. */
export function duplicateKeys(text: string, limit = 5, firstLine = 1): { found: DuplicateKey[]; total: number } {
  const found: DuplicateKey[] = [];
  let total = 0;
  // One entry per open container: the keys seen (objects) or null (arrays).
  const open: (Set<string> | null)[] = [];
  let line = firstLine;
  let expectKey = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === NEWLINE) line++;
    else if (code === QUOTE) {
      const start = at;
      let escaped = false;
      for (at++; at < text.length && text.charCodeAt(at) !== QUOTE; at++) {
        if (text.charCodeAt(at) === BACKSLASH) {
          at++;
          escaped = true;
        } else if (text.charCodeAt(at) === NEWLINE) line++;
      }
      const keys = open[open.length - 1];
      if (expectKey && keys) {
        // A key without an escape is its own text: decoded only when it has one (most keys have none).
        let key: string = text.slice(start + 1, at);
        if (escaped) {
          try {
            key = JSON.parse(text.slice(start, at + 1)) as string;
          } catch {
            // Left as written.
          }
        }
        if (keys.has(key)) {
          total++;
          if (found.length < limit) found.push({ key, line });
        } else keys.add(key);
        expectKey = false;
      }
    } else if (code === 123) {
      open.push(new Set());
      expectKey = true;
    } else if (code === 91) {
      open.push(null);
      expectKey = false;
    } else if (code === 125 || code === 93) {
      open.pop();
      expectKey = false;
    } else if (code === 44) expectKey = open[open.length - 1] !== null && open.length > 0;
  }
  return { found, total };
}

/** A reader warning's words for the repeated keys of one text, or null when there are none. */
export function duplicateKeysReason(duplicates: { found: DuplicateKey[]; total: number }): string | null {
  if (duplicates.total === 0) return null;
  const listed = duplicates.found.map(({ key, line }) => `${JSON.stringify(key)} (line ${line})`).join(", ");
  const more = duplicates.total > duplicates.found.length ? ` and ${duplicates.total - duplicates.found.length} more` : "";
  return `a key written twice in one object: ${listed}${more}; JSON keeps the last value of each, so the earlier values are not read`;
}
