// Raw control characters inside JSON strings. JSON forbids U+0000–U+001F unescaped in a string,
// so one raw CR or NUL byte (a hand edit, a tool that wrote bytes as they came) makes JSON.parse
// refuse a whole document. The repair escapes each such character where it stands inside a string
// (`\r` → `\u000d`), which keeps its value, and names the UTF-8 byte offset of each, so a reader
// can parse the document again and say what it changed. Characters outside strings are left for
// JSON.parse to judge. One linear pass.

export interface ControlCharRepair {
  /** The text with every raw control character inside a string escaped. */
  text: string;
  /** UTF-8 byte offsets (0-based) of the escaped characters in the original text. */
  byteOffsets: number[];
}

/** The repaired text, or null when no string holds a raw control character. */
export function escapeControlCharsInStrings(text: string): ControlCharRepair | null {
  const byteOffsets: number[] = [];
  let out = "";
  let copiedUpTo = 0;
  let inString = false;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 92 /* \ */) {
        // The escaped character is one ASCII byte in valid JSON; count it and step over it.
        bytes += 1;
        i++;
        if (i >= text.length) break;
        bytes += utf8Length(text.charCodeAt(i));
        continue;
      }
      if (code === 34 /* " */) inString = false;
      else if (code < 0x20) {
        out += text.slice(copiedUpTo, i) + `\\u${code.toString(16).padStart(4, "0")}`;
        copiedUpTo = i + 1;
        byteOffsets.push(bytes);
      }
    } else if (code === 34) inString = true;
    bytes += utf8Length(code);
  }
  if (byteOffsets.length === 0) return null;
  return { text: out + text.slice(copiedUpTo), byteOffsets };
}

/** Bytes of one UTF-16 unit in UTF-8 (a surrogate pair's two units count 2 + 2 = 4). */
function utf8Length(code: number): number {
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdfff) return 2;
  return 3;
}

/** Words for a warning: "byte offset 123" or "byte offsets 1, 2 and 3 more". */
export function describeByteOffsets(offsets: readonly number[]): string {
  const shown = offsets.slice(0, 5).join(", ");
  const more = offsets.length > 5 ? ` and ${offsets.length - 5} more` : "";
  return `byte offset${offsets.length === 1 ? "" : "s"} ${shown}${more}`;
}
