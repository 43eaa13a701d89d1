// Turns opencode records into the shared Session shape (FM-GEN-4): one entry per stored message
// (in stored order, chained linearly: opencode sessions are not trees), the session `info` and
// the picker listing in the header. Used by both inputs: the export JSON (FM-OC-4, read here) and
// the database rows (./database.ts). Lenient (FM-GEN-2): a malformed message or part becomes a
// warning and is skipped, every good record is kept.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { readerSession } from "../../readers/finish";
import {
  type OpencodeMessageRecord,
  type OpencodePart,
  type OpencodeSessionInfo,
  type OpencodeSessionListing,
} from "./records";
import { isObject } from "../../util/is-object";
import { isoFromEpochMs } from "../../util/iso-time";

export const OPENCODE_FORMAT_ID = "opencode";
export const OPENCODE_EXPORT_LABEL = "opencode export";
const OPENCODE_DATABASE_LABEL = "opencode database";

/** Where the records came from; shown in the header and used by the warnings. */
type OpencodeSource = "export" | "database";

/** What `Session.header` holds for an opencode session. */
export interface OpencodeSessionHeader {
  agent: "opencode";
  source: OpencodeSource;
  /** The session `info` (export) or the session row in the export's shape (database). */
  info: OpencodeSessionInfo;
  id: string;
  title: string | null;
  version: string | null;
  cwd: string | null;
  /** Every session of the input, for the session picker (one entry for an export). */
  sessions: OpencodeSessionListing[];
  /** Database only: true when the `-wal` file was applied (FM-OC-1). */
  walApplied?: boolean;
  /** Export only: `--sanitize` redaction detected (FM-OC-4) [INF]. */
  sanitized?: boolean;
}

/** Checks one `{info, parts}` object; returns the record or the reason it is unusable. */
export function normalizeMessageRecord(value: unknown, where: string, warnings: ReaderWarning[]): OpencodeMessageRecord | null {
  if (!isObject(value) || !isObject(value.info)) {
    warnings.push({ line: 0, reason: `${where}: not a {info, parts} message object, skipped` });
    return null;
  }
  const info = value.info;
  if (typeof info.id !== "string" || info.id === "") {
    warnings.push({ line: 0, reason: `${where}: message without an id, skipped` });
    return null;
  }
  if (typeof info.role !== "string") {
    warnings.push({ line: 0, reason: `${where} (${info.id}): message without a role, skipped` });
    return null;
  }
  const parts: OpencodePart[] = [];
  const rawParts = Array.isArray(value.parts) ? value.parts : [];
  if (!Array.isArray(value.parts)) warnings.push({ line: 0, reason: `${where} (${info.id}): no parts array; read as empty` });
  rawParts.forEach((part, index) => {
    if (!isObject(part) || typeof part.type !== "string") {
      warnings.push({ line: 0, reason: `${where} (${info.id}) part ${index + 1}: not a part object with a type, skipped` });
      return;
    }
    parts.push({ ...part, id: typeof part.id === "string" ? part.id : `${info.id}:part${index + 1}` } as OpencodePart);
  });
  return { info: info as OpencodeMessageRecord["info"], parts };
}

const isoOf = isoFromEpochMs;

/** `opencode export --sanitize` replaces text with placeholders; look for the tell-tale marker. [INF] */
function looksSanitized(records: readonly OpencodeMessageRecord[]): boolean {
  for (const record of records) {
    for (const part of record.parts) {
      if (typeof part.text === "string" && /^\[redacted[^\]]*\]$/i.test(part.text.trim())) return true;
    }
  }
  return false;
}

export interface BuildSessionInput {
  fileName: string;
  source: OpencodeSource;
  info: OpencodeSessionInfo;
  records: OpencodeMessageRecord[];
  sessions: OpencodeSessionListing[];
  warnings: ReaderWarning[];
  lineCount: number;
  walApplied?: boolean;
}

export function buildOpencodeSession(input: BuildSessionInput): Session {
  const entries: SessionEntry[] = [];
  const seen = new Set<string>();
  let previous: string | null = null;
  for (const record of input.records) {
    if (seen.has(record.info.id)) {
      input.warnings.push({ line: 0, reason: `message ${record.info.id} appears twice; the second copy is skipped` });
      continue;
    }
    seen.add(record.info.id);
    entries.push({
      id: record.info.id,
      parentId: previous,
      type: `message:${record.info.role}`,
      timestamp: isoOf(record.info.time?.created),
      line: 0,
      raw: record as unknown as Record<string, unknown>,
    });
    previous = record.info.id;
  }
  const header: OpencodeSessionHeader = {
    agent: "opencode",
    source: input.source,
    info: input.info,
    id: input.info.id,
    title: typeof input.info.title === "string" ? input.info.title : null,
    version: typeof input.info.version === "string" ? input.info.version : null,
    cwd: typeof input.info.directory === "string" ? input.info.directory : null,
    sessions: input.sessions,
  };
  if (input.walApplied !== undefined) header.walApplied = input.walApplied;
  if (input.source === "export" && looksSanitized(input.records)) {
    header.sanitized = true;
    input.warnings.push({
      line: 0,
      reason: "this export looks sanitized (opencode export --sanitize): text is redacted, token counts derived from it are unreliable (recorded tokens stay valid)",
    });
  }
  const facts = {
    formatId: OPENCODE_FORMAT_ID,
    formatLabel: input.source === "export" ? OPENCODE_EXPORT_LABEL : OPENCODE_DATABASE_LABEL,
    fileName: input.fileName,
    formatVersion: null,
    header: header as unknown as Record<string, unknown>,
    lineCount: input.lineCount,
  };
  return readerSession(facts, entries, input.warnings);
}

/** The opencode header of a Session read by this module, or null for other formats. */
export function opencodeHeaderOf(session: Session): OpencodeSessionHeader | null {
  const header = session.header;
  if (session.formatId !== OPENCODE_FORMAT_ID || !header || header.agent !== "opencode") return null;
  return header as unknown as OpencodeSessionHeader;
}

/** The records of a Session read by this module, in stored order. */
export function opencodeRecordsOf(session: Session): OpencodeMessageRecord[] {
  return session.entries.map((entry) => entry.raw as unknown as OpencodeMessageRecord);
}

function listingOf(info: OpencodeSessionInfo, messageCount: number): OpencodeSessionListing {
  return {
    id: info.id,
    title: typeof info.title === "string" ? info.title : "",
    parentId: typeof info.parentID === "string" ? info.parentID : null,
    directory: typeof info.directory === "string" ? info.directory : null,
    timeCreated: typeof info.time?.created === "number" ? info.time.created : null,
    timeUpdated: typeof info.time?.updated === "number" ? info.time.updated : null,
    messageCount,
  };
}

/**
 * Reads the parsed `opencode export` document (FM-OC-4). `parsed` is whatever JSON.parse gave;
 * a document that is not an export yields a Session with no entries and a warning saying why.
 */
export function sessionFromExport(parsed: unknown, fileName: string, lineCount: number, warnings: ReaderWarning[] = []): Session {
  const doc = isObject(parsed) ? parsed : null;
  const rawInfo = doc && isObject(doc.info) ? doc.info : null;
  const info: OpencodeSessionInfo =
    rawInfo && typeof rawInfo.id === "string" ? (rawInfo as OpencodeSessionInfo) : { id: "unknown-session" };
  if (!rawInfo || typeof rawInfo.id !== "string") {
    warnings.push({ line: 0, reason: "not an opencode export: expected {info:{id:\"ses_…\"}, messages:[{info, parts}]}" });
  }
  const records: OpencodeMessageRecord[] = [];
  if (doc && Array.isArray(doc.messages)) {
    doc.messages.forEach((value, index) => {
      const record = normalizeMessageRecord(value, `messages[${index}]`, warnings);
      if (record) records.push(record);
    });
  } else if (doc) {
    warnings.push({ line: 0, reason: "export without a messages array: no messages read" });
  }
  return buildOpencodeSession({
    fileName,
    source: "export",
    info,
    records,
    sessions: [listingOf(info, records.length)],
    warnings,
    lineCount,
  });
}

