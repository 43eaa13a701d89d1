// Redaction of one plain string (a curl command, a pasted request, a line of text).
import { applyMasks } from "./apply";
import { findSecrets } from "./find";
import type { RedactOptions, RedactedText } from "./types";

export function redactText(text: string, options: RedactOptions = {}): RedactedText {
  const matches = findSecrets(text, options.catalogue);
  return applyMasks(text, matches, options.path ?? "", new Set(options.unmasked ?? []));
}
