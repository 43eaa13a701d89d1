// Questions about a text that need few or none of its characters: is it blank, does it start with
// a given tag. A stored text answers from its first bytes when they settle the question, and is
// decoded (once, not kept) only when they do not, so a stage that tests every message of every
// turn does not turn the session's large texts back into strings.
import { decodeLiteralBytes, storedTextBytes, storedTextHead, type StoredText } from "./storedText";
import { textString, textUnits, type Text } from "./text";
import { utf8Encode } from "../util/utf8";

const SPACE = 0x20;
const BACKSLASH = 0x5c;
const LETTER_U = 0x75;
/** The most bytes one UTF-16 unit of a stored text takes: a `\uXXXX` escape. */
const BYTES_PER_UNIT = 6;

/**
 * The first characters of a text: a string that starts the text and holds at least `units` UTF-16
 * units of it (the whole text when it is shorter). A stored text decodes only the bytes that can
 * hold them (at most 6 a unit), cut where no escape or UTF-8 sequence is split, so a preview or a
 * prefix test of a large text costs the same as of a small one.
 */
export function textHead(text: Text, units: number): string {
  if (typeof text === "string") return text;
  const room = (units + 1) * BYTES_PER_UNIT;
  // The head copied in the store serves when it holds the text or the room (nothing past it is read).
  const head = storedTextHead(text);
  const bytes = head.length === text.byteLength || head.length >= room ? head : storedTextBytes(text);
  if (bytes.length === text.byteLength && bytes.length <= room) return decodeLiteralBytes(bytes);
  return decodeLiteralBytes(bytes.subarray(0, wholeCharactersEnd(bytes, room)));
}

/**
 * The longest start of a text that its bytes at hand hold: the whole text, or for a text kept in
 * the store's source the characters of the head copied in the store (its bytes cut where no escape
 * or UTF-8 sequence is split). Reads nothing from the source.
 */
export function textStart(text: Text): string {
  if (typeof text === "string") return text;
  const bytes = storedTextHead(text);
  if (bytes.length === text.byteLength) return decodeLiteralBytes(bytes);
  return decodeLiteralBytes(bytes.subarray(0, wholeCharactersEnd(bytes, bytes.length)));
}

/**
 * Where the longest start of a literal's bytes, at most `limit` bytes (≤ their length), ends
 * without splitting an escape or a UTF-8 sequence: the cut every partial decode makes.
 */
function wholeCharactersEnd(bytes: Uint8Array, limit: number): number {
  let end = 0;
  while (end < limit) {
    const byte = bytes[end]!;
    // A backslash as the last byte at hand reads `undefined` next: a two-byte step, past the limit.
    const step = byte === BACKSLASH ? (bytes[end + 1] === LETTER_U ? 6 : 2) : byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    if (end + step > limit) break;
    end += step;
  }
  return end;
}

/** Whether the byte, first of a stored text, makes the text's first character one `trim` keeps. */
function startsWithKeptCharacter(text: StoredText): boolean {
  const first = storedTextHead(text)[0];
  // An ASCII byte that is neither blank nor the start of an escape is itself the first character;
  // a non-ASCII byte may begin a Unicode space (U+00A0, U+FEFF, …): the text is then decoded.
  return first !== undefined && first < 0x80 && first !== SPACE && first !== BACKSLASH && (first < 0x09 || first > 0x0d);
}

/** Empty or only whitespace (what `!text || text.trim().length === 0` says of a string). */
export function isBlankText(text: Text | null | undefined): boolean {
  if (text === null || text === undefined) return true;
  if (typeof text === "string") return text.trim().length === 0;
  if (text.units === 0) return true;
  if (startsWithKeptCharacter(text)) return false;
  return textString(text).trim().length === 0;
}

/**
 * The UTF-8 bytes of the prefixes' renderings (`JSON.stringify` less its quotes), by prefix: the
 * stages ask with a few constant tags, once per message of every turn.
 */
const renderings = new Map<string, Uint8Array>();
const RENDERINGS_KEPT = 64;

function renderedBytes(prefix: string): Uint8Array {
  let bytes = renderings.get(prefix);
  if (bytes === undefined) {
    bytes = utf8Encode(JSON.stringify(prefix).slice(1, -1));
    if (renderings.size >= RENDERINGS_KEPT) renderings.clear();
    renderings.set(prefix, bytes);
  }
  return bytes;
}

/** `text.startsWith(prefix)`, reading a stored text's first bytes when they are `JSON.stringify`'s own. */
export function textStartsWith(text: Text, prefix: string): boolean {
  if (typeof text === "string") return text.startsWith(prefix);
  if (prefix.length > text.units) return false;
  const prefixWellFormed = (prefix as { isWellFormed?: () => boolean }).isWellFormed?.call(prefix) ?? false;
  // Other bytes are read as characters, only as many as the prefix has.
  if (!text.canonical || !prefixWellFormed) return textHead(text, prefix.length).startsWith(prefix);
  // Canonical bytes render each character on its own, so the text starts with `prefix` exactly
  // when its bytes start with the prefix's rendering.
  const wanted = renderedBytes(prefix);
  if (wanted.length > text.byteLength) return false;
  // The head copied in the store settles most tests (a prefix longer than it that differs within
  // it): the source, a read of the file, is read only for a text whose head matches.
  const head = storedTextHead(text);
  const inHead = Math.min(wanted.length, head.length);
  for (let i = 0; i < inHead; i++) if (head[i] !== wanted[i]) return false;
  if (inHead === wanted.length) return true;
  const bytes = storedTextBytes(text);
  for (let i = inHead; i < wanted.length; i++) if (bytes[i] !== wanted[i]) return false;
  return true;
}

/**
 * `text.trimStart().startsWith(prefix)` of a stored text when its first byte settles the trim
 * (an ASCII character `trimStart` keeps: the text is then tested as it is), else null (the caller
 * decodes it).
 */
export function trimmedTextStartsWith(text: StoredText, prefix: string): boolean | null {
  return startsWithKeptCharacter(text) ? textStartsWith(text, prefix) : null;
}

/** Bytes that begin or continue an escape of a JSON string literal (`\\`, the escape letters, hex digits, `"`, `/`). */
function mayBeInEscape(code: number): boolean {
  return code === BACKSLASH || code === 0x22 || code === 0x2f || (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66) || "nrtu".includes(String.fromCharCode(code));
}

/**
 * `text.includes(part)`, searching a stored text's bytes without decoding it when they are
 * `JSON.stringify`'s own and `part` renders as itself and starts with a character no escape holds
 * (a match then starts at a character of the text, and a character rendered as an escape, which
 * starts with a backslash, never matches one of `part`'s): `<state_snapshot>`, `<tag>`.
 */
export function textIncludes(text: Text, part: string): boolean {
  if (typeof text === "string") return text.includes(part);
  const rendered = JSON.stringify(part).slice(1, -1);
  const wellFormed = (part as { isWellFormed?: () => boolean }).isWellFormed?.call(part) ?? false;
  if (!text.canonical || !wellFormed || rendered !== part || part.length === 0 || rendered.includes("\\") || mayBeInEscape(part.charCodeAt(0))) return textString(text).includes(part);
  const wanted = utf8Encode(part);
  const bytes = storedTextBytes(text);
  const first = wanted[0]!;
  for (let at = bytes.indexOf(first); at !== -1 && at + wanted.length <= bytes.length; at = bytes.indexOf(first, at + 1)) {
    let i = 1;
    while (i < wanted.length && bytes[at + i] === wanted[i]) i++;
    if (i === wanted.length) return true;
  }
  return false;
}

/** The texts joined with `separator`: the one text itself when there is one (a stored text stays a reference). */
export function joinTexts(texts: readonly Text[], separator: string): Text {
  if (texts.length === 1) return texts[0]!;
  return texts.map(textString).join(separator);
}

/** Whether two texts hold the same characters (a stored text is decoded only when sizes agree). */
export function sameText(a: Text, b: Text): boolean {
  if (a === b) return true;
  if (typeof a === "string" && typeof b === "string") return false;
  if (textUnits(a) !== textUnits(b)) return false;
  return textString(a) === textString(b);
}
