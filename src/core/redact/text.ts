// Redaction of one plain string (a curl command, a pasted request, a line of text): the same scan
// as every string of a JSON value gets (./json.ts), JSON strings and base64 text read too.
import { redactJson } from "./json";
import type { RedactOptions, RedactedText } from "./types";

export function redactText(text: string, options: RedactOptions = {}): RedactedText {
  const redacted = redactJson(text, options);
  return { text: redacted.value, findings: redacted.findings };
}
