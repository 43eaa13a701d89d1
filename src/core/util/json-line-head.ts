// A top-level field a JSON object line states before its first nested value, read from the line's
// first characters without parsing the rest. Agents write a record's plain fields (its type, its
// place in the chain) before its content, so a pass that only needs to know what kind of record a
// line is can tell most lines apart from a few hundred bytes.

/**
 * The value of `key` when `head` (the first characters of a line holding one JSON object) states
 * it at the top level before any nested value: a string without escapes, true, false or null.
 * Undefined when it cannot tell: the key is not there, comes after a `{` or `[` (even one inside a
 * string: telling would need a parse), or its value is of another kind or runs past the head.
 * A key repeated later in the line, past what was read, is not seen (JSON.parse would keep that
 * one): agents do not write them, and a reader of the whole line still sees the line as it is.
 */
export function leadingField(head: string, key: string): string | boolean | null | undefined {
  if (head.charCodeAt(0) !== OPEN_BRACE) return undefined;
  const name = `"${key}":`;
  const at = head.indexOf(name);
  // A quote inside a string is escaped, so `"key":` unescaped is a key; at the top level when no
  // bracket opens before it, and a whole key when a brace or a comma comes just before it.
  if (at < 1 || (at > 1 && head.charCodeAt(at - 1) !== COMMA)) return undefined;
  if (opensBefore(head, "{", at, 1) || opensBefore(head, "[", at, 0)) return undefined;
  const valueAt = at + name.length;
  if (head.charCodeAt(valueAt) === QUOTE) {
    const end = head.indexOf('"', valueAt + 1);
    if (end < 0) return undefined;
    const text = head.slice(valueAt + 1, end);
    return text.includes("\\") ? undefined : text;
  }
  for (const [literal, value] of LITERALS) if (head.startsWith(literal, valueAt) && isValueEnd(head.charCodeAt(valueAt + literal.length))) return value;
  return undefined;
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const LITERALS: readonly (readonly [string, boolean | null])[] = [
  ["true", true],
  ["false", false],
  ["null", null],
];

const opensBefore = (head: string, bracket: string, at: number, from: number): boolean => {
  const found = head.indexOf(bracket, from);
  return found >= 0 && found < at;
};

const isValueEnd = (code: number): boolean => code === COMMA || code === CLOSE_BRACE;
