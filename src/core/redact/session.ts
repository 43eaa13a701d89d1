// Redaction of a whole Session before it is shared: the header and every entry's `raw`, with
// review paths `header.cwd`, `entries[12].raw.message.content[0].text`. The structural fields of
// an entry (`id`, `parentId`, `type`, `timestamp`) are never touched so the tree stays intact.
import type { Session, SessionEntry } from "../model";
import { isOpaqueValue, redactJson, type RedactJsonOptions } from "./json";
import { childPath } from "./path";
import type { RedactedValue, RedactionFinding } from "./types";

const STRUCTURAL_KEYS: ReadonlySet<string> = new Set(["id", "parentId", "type", "timestamp"]);

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
  const baseSkip = options.skip;
  let entries: SessionEntry[] | null = null;
  session.entries.forEach((entry, index) => {
    const raw = entry.raw;
    const pathIndex = options.entryIndexOf ? options.entryIndexOf(entry, index) : index;
    const skip = (key: string, parent: Readonly<Record<string, unknown>>): boolean =>
      (parent === raw && STRUCTURAL_KEYS.has(key)) || (baseSkip ? baseSkip(key, parent) : isOpaqueValue(key, parent));
    const result = redactJson(raw, { ...options, skip, path: childPath(childPath(childPath(base, "entries"), pathIndex), "raw") });
    for (const finding of result.findings) findings.push(finding);
    if (result.value !== raw) {
      entries ??= session.entries.slice();
      entries[index] = { ...entry, raw: result.value };
    }
  });
  const changed = header !== session.header || entries !== null;
  return { value: changed ? { ...session, header, entries: entries ?? session.entries } : session, findings };
}

