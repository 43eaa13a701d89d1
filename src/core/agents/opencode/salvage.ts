// Salvage of a truncated or damaged `opencode export` document (FM-GEN-2: keep what was good).
// When the whole document does not parse, a string-aware bracket scanner finds the top-level
// `info` value and each complete element of the top-level `messages` array; each is parsed on its
// own, so a file cut off in the middle of message 12 still yields messages 1–11.

export interface SalvagedExport {
  info: unknown;
  messages: unknown[];
  /** Number of `messages` elements that were present but could not be parsed (cut off or bad). */
  lostMessages: number;
  /** Characters between the messages that belong to none of them (a stray `}` or `,`), stepped over. */
  strayCharacters: number;
}

/** Index just past the JSON string starting at `start` (a `"`), or -1 when it is unterminated. */
function skipString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 92 /* \ */) i++;
    else if (ch === 34 /* " */) return i + 1;
  }
  return -1;
}

/** Index just past the JSON value starting at `start`, or -1 when it does not end in `text`. */
function skipValue(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return skipString(text, start);
  if (first !== "{" && first !== "[") {
    let i = start;
    while (i < text.length && !/[,}\]\s]/.test(text[i] as string)) i++;
    return i < text.length ? i : -1;
  }
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      const end = skipString(text, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (ch === "{" || ch === "[") depth++;
    else if (ch === "}" || ch === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i] as string)) i++;
  return i;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * Elements of the array starting at `start` (a `[`); stops at the first incomplete one. Every
 * pass of the loop moves `i` forward by at least one character (a value is at least one
 * character; a character that cannot start one, such as a stray `}`, is stepped over and
 * counted), so the loop ends on any input.
 */
function salvageArray(text: string, start: number): { values: unknown[]; lost: number; stray: number } {
  const values: unknown[] = [];
  let lost = 0;
  let stray = 0;
  let i = skipSpace(text, start + 1);
  while (i < text.length && text[i] !== "]") {
    const ch = text[i];
    if (ch === "," || ch === "}" || ch === ":") {
      // Not the start of a value: a separator out of place or a bracket left over from an edit.
      stray++;
      i = skipSpace(text, i + 1);
      continue;
    }
    const end = skipValue(text, i);
    if (end < 0) {
      lost++;
      break;
    }
    if (end <= i) {
      stray++;
      i = skipSpace(text, i + 1);
      continue;
    }
    const parsed = tryParse(text.slice(i, end));
    if (parsed.ok) values.push(parsed.value);
    else lost++;
    i = skipSpace(text, end);
    if (text[i] === ",") i = skipSpace(text, i + 1);
  }
  return { values, lost, stray };
}

/** Best-effort reading of an export document that JSON.parse rejected; null when nothing is usable. */
export function salvageExport(text: string): SalvagedExport | null {
  let i = skipSpace(text, 0);
  if (text[i] !== "{") return null;
  i = skipSpace(text, i + 1);
  let info: unknown = undefined;
  let messages: unknown[] = [];
  let lostMessages = 0;
  let strayCharacters = 0;
  while (i < text.length && text[i] === '"') {
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) break;
    const key = tryParse(text.slice(i, keyEnd));
    i = skipSpace(text, keyEnd);
    if (text[i] !== ":") break;
    i = skipSpace(text, i + 1);
    if (key.ok && key.value === "messages" && text[i] === "[") {
      const salvaged = salvageArray(text, i);
      messages = salvaged.values;
      lostMessages = salvaged.lost;
      strayCharacters = salvaged.stray;
    }
    const end = skipValue(text, i);
    // A value ends after it starts; anything else (a stray character) ends the salvage here.
    if (end <= i) break;
    if (key.ok && key.value === "info") {
      const parsed = tryParse(text.slice(i, end));
      if (parsed.ok) info = parsed.value;
    }
    i = skipSpace(text, end);
    if (text[i] !== ",") break;
    i = skipSpace(text, i + 1);
  }
  if (info === undefined && messages.length === 0) return null;
  return { info, messages, lostMessages, strayCharacters };
}
