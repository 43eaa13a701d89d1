// A text as it travels to a counting worker (the browser's Web Workers, the CLI's threads): a
// string, or the parts of one, each a string or the escaped bytes of a stored text (a copy the
// sender makes: the browser's batches gather them in one buffer moved to the worker and back, the
// CLI copies them with the message). Only the counting side decodes them: the thread that walks
// the session never holds the decoded text.
import { decodeLiteralBytes, storedTextBytes } from "../text/storedText";
import type { Text } from "../text/text";

export type CountText = string | (string | Uint8Array)[];

/**
 * `parts` made ready to send: each stored part replaced by what `copyBytes` makes of its bytes (a
 * view of the store, valid only until the next read), and the text's UTF-16 length.
 */
export function countTextOfParts<Copy>(parts: readonly Text[], copyBytes: (bytes: Uint8Array) => Copy): { text: (string | Copy)[]; chars: number } {
  let chars = 0;
  const text = parts.map((part) => {
    if (typeof part === "string") {
      chars += part.length;
      return part;
    }
    chars += part.units;
    return copyBytes(storedTextBytes(part));
  });
  return { text, chars };
}

/** The characters of a text received to count: byte parts decoded one at a time, then joined. */
export function countTextString(text: CountText): string {
  return typeof text === "string" ? text : text.map((part) => (typeof part === "string" ? part : decodeLiteralBytes(part))).join("");
}
