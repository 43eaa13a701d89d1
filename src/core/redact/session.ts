// Redaction of a whole Session before it is shared: the header and every entry's `raw`, with
// review paths `header.cwd`, `entries[12].raw.message.content[0].text`. Every field is scanned,
// the structural ones (`id`, `parentId`, `type`, `timestamp`) too: a file can hold a secret
// anywhere. Masking is a function of the value, so an id masked in one entry is masked the same
// way in the `parentId` that names it, and the tree stays intact.
import type { Session, SessionEntry } from "../model";
import { isOpaqueValue, redactJson, type RedactJsonOptions } from "./json";
import { childPath } from "./path";
import type { RedactedValue, RedactionFinding } from "./types";

export interface RedactSessionOptions extends RedactJsonOptions {
  /** Index used in review paths for an entry (default: its index in `session.entries`). */
  entryIndexOf?: (entry: SessionEntry, index: number) => number;
}

export function redactSession(session: Session, options: RedactSessionOptions = {}): RedactedValue<Session> {
  const findings: RedactionFinding[] = [];
  const base = options.path ?? "";
  let header = session.header;
  if (header) {
    const result = redactJson(header, { ...options, path: childPath(base, "header") });
    header = result.value;
    findings.push(...result.findings);
  }
  let entries: SessionEntry[] | null = null;
  session.entries.forEach((entry, index) => {
    const raw = entry.raw;
    const pathIndex = options.entryIndexOf ? options.entryIndexOf(entry, index) : index;
    const result = redactJson(raw, { ...options, skip: options.skip ?? isOpaqueValue, path: childPath(childPath(childPath(base, "entries"), pathIndex), "raw") });
    for (const finding of result.findings) findings.push(finding);
    if (result.value !== raw) {
      entries ??= session.entries.slice();
      entries[index] = { ...entry, raw: result.value };
    }
  });
  const changed = header !== session.header || entries !== null;
  return { value: changed ? { ...session, header, entries: entries ?? session.entries } : session, findings };
}

