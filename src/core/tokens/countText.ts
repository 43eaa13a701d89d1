// A text as it travels to a counting worker (the browser's Web Workers, the CLI's threads): a
// string, or the parts of one, each a string or a copy of a stored text's escaped bytes. The copy
// is moved with the message (its buffer listed for transfer), and only the counting side decodes
// it: the thread that walks the session never holds the decoded text.
import { decodeLiteralBytes, storedTextBytes } from "../text/storedText";
import type { Text } from "../text/text";

export type CountText = string | (string | Uint8Array)[];

/** `parts` made ready to send: the message's text, its UTF-16 length, and the buffers to move with it. */
export function countTextOfParts(parts: readonly Text[]): { text: CountText; chars: number; moved: ArrayBuffer[] } {
  const moved: ArrayBuffer[] = [];
  let chars = 0;
  const text = parts.map((part) => {
    if (typeof part === "string") {
      chars += part.length;
      return part;
    }
    chars += part.units;
    const bytes = storedTextBytes(part).slice();
    moved.push(bytes.buffer);
    return bytes;
  });
  return { text, chars, moved };
}

/** The characters of a text received to count: byte parts decoded one at a time, then joined. */
export function countTextString(text: CountText): string {
  return typeof text === "string" ? text : text.map((part) => (typeof part === "string" ? part : decodeLiteralBytes(part))).join("");
}
