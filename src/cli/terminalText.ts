// Text the CLI writes never carries a control sequence from a session or a file name to the
// terminal (or to a GitHub annotation, or a log a terminal shows later): C0 controls other than
// line feed and tab, DEL, the C1 range (U+0080–U+009F, where U+009B alone starts a sequence) and
// the bidirectional controls that reorder what a reader sees (U+061C, U+200E/F, U+202A–U+202E,
// U+2066–U+2069) are written as visible escapes. C0 and DEL become `\x1b`-style, everything else
// `\u202e`-style — so JSON output stays valid JSON (JSON.stringify already escapes C0; a `\uXXXX`
// escape in place of a raw character inside a string is the same string) and text output shows
// what the file held. Standard error keeps carriage returns: the scan progress line redraws with them.

const UNSAFE_IN_OUTPUT = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_IN_ERRORS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(character: string): string {
  const code = character.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, "0")}`;
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

function escapeWith(pattern: RegExp, text: string): string {
  pattern.lastIndex = 0;
  // The common case — nothing to escape — costs one scan and no copy.
  if (!pattern.test(text)) return text;
  pattern.lastIndex = 0;
  return text.replace(pattern, visible);
}

/** `text` as written to standard output. */
export function safeOutputText(text: string): string {
  return escapeWith(UNSAFE_IN_OUTPUT, text);
}

/** `text` as written to standard error (carriage returns kept for progress lines). */
export function safeErrorText(text: string): string {
  return escapeWith(UNSAFE_IN_ERRORS, text);
}
