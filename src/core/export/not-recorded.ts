// Finds the `{"$notRecorded": "…"}` markers (src/core/model.ts) a rebuilt request carries where
// the session does not record a part (system prompt, tools). An exported request with markers is
// not what the agent sent, and a provider would reject or misread it: exports warn about them.
import { isNotRecorded } from "../model";

/** The labels of every marker in the body, in document order, without duplicates. */
export function findNotRecorded(body: unknown): string[] {
  const labels: string[] = [];
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== "object" || value === null) continue;
    if (isNotRecorded(value)) {
      const label = String(value.$notRecorded);
      if (!labels.includes(label)) labels.push(label);
      continue;
    }
    const children = Array.isArray(value) ? value : Object.values(value);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return labels;
}

/** The export warning for a body with markers, or null when it has none. */
export function notRecordedWarning(labels: readonly string[]): string | null {
  if (labels.length === 0) return null;
  return (
    `The session does not record ${labels.join(", ")}: the export holds {"$notRecorded": …} placeholders there, ` +
    "so it is not the exact request and a provider will reject it until they are replaced (attach a request header to fill them)."
  );
}
