// Whether a Claude Code text begins with a marker ("<system-reminder>", "<command-name>", the
// compaction summary's first words), without decoding a text kept as bytes when its bytes say it:
// a canonical stored text's bytes are JSON.stringify's rendering of it, in which printable ASCII
// other than `"` and `\` stands for itself, so such a marker is the text's start exactly when it
// is the bytes' start. Other stored texts are decoded for the test.
import { decodeStoredText, storedTextBytes } from "../../text/storedText";
import type { Text } from "../../text/text";

/** Printable ASCII that JSON.stringify writes as itself. */
function isPlainAscii(marker: string): boolean {
  for (let i = 0; i < marker.length; i++) {
    const code = marker.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return false;
  }
  return true;
}

export function textStartsWith(text: Text, marker: string): boolean {
  if (typeof text === "string") return text.startsWith(marker);
  if (!text.canonical || !isPlainAscii(marker)) return decodeStoredText(text).startsWith(marker);
  const bytes = storedTextBytes(text);
  if (bytes.length < marker.length) return false;
  for (let i = 0; i < marker.length; i++) if (bytes[i] !== marker.charCodeAt(i)) return false;
  return true;
}
