// Reader of a Kimi Code wire file (docs/formats/kimi-code.md): ~/.kimi-code/sessions/<workDirKey>/
// session_<id>/agents/main/wire.jsonl. Line 1 is `{"type":"metadata","protocol_version",
// "created_at"}`; every other line is one record `{type, …payload, time}` (a durable event of the
// agent: context messages and loop events, each request's `llm.request`, the tool list's
// `llm.tools_snapshot`, usage, compactions) or one of the UI events it writes beside them
// (`agent.message.appended`, `agent.turn.started`, … with `"kind":"event"`). Every line becomes one
// entry in file order; history.ts folds them into the context of each request. Lenient: a bad line
// is a warning with its line number, never an exception.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { firstObjects } from "../../readers/jsonl-object";
import { readerSession } from "../../readers/finish";
import { LineTally } from "../../readers/line-tally";
import type { FormatReader, LineReader } from "../../readers/types";
import { KIMI_KNOWN_TYPES } from "./recordTypes";

export const KIMI_CODE_FORMAT_ID = "kimi-code";
const FORMAT_LABEL = "Kimi Code wire file";

const EXPECTATION =
  'a Kimi Code wire file (~/.kimi-code/sessions/<folder>/session_<id>/agents/main/wire.jsonl): a "metadata" line with a "protocol_version", then records such as "context.append_message" and "llm.request"';

/** The metadata line: `type: "metadata"` with a `protocol_version` string. */
function isMetadata(value: Record<string, unknown>): boolean {
  return value.type === "metadata" && typeof value.protocol_version === "string";
}

/** A durable record of Kimi Code's own vocabulary, with the agent it belongs to and a numeric time. */
function isKimiRecord(value: Record<string, unknown>): boolean {
  return typeof value.type === "string" && KIMI_KNOWN_TYPES.has(value.type) && typeof value.agentId === "string" && typeof value.time === "number";
}

function detectKimiCode(firstLines: string[]): boolean {
  const objects = firstObjects(firstLines, 10);
  const first = objects[0];
  if (!first) return false;
  return isMetadata(first) || objects.filter(isKimiRecord).length >= 2;
}

class KimiLineReader implements LineReader {
  private readonly entries: SessionEntry[] = [];
  private readonly unknownTypes = new Set<string>();
  private header: Record<string, unknown> | null = null;
  private readonly lines = new LineTally();

  constructor(private readonly fileName: string) {}

  pushLine(text: string, lineNumber: number): void {
    const raw = this.lines.record(text, lineNumber, "not a Kimi Code record (no type), line skipped");
    if (raw === null) return;
    if (this.header === null && isMetadata(raw)) {
      // Kept as an entry too: the header below is made from several lines, so a session written
      // back as lines (a share link) writes the metadata line as it was.
      this.header = { agent: KIMI_CODE_FORMAT_ID, protocolVersion: raw.protocol_version, createdAt: typeof raw.created_at === "number" ? raw.created_at : null, sessionId: sessionIdOfPath(this.fileName), cwd: null };
    }
    this.noteCwd(raw);
    if (!KIMI_KNOWN_TYPES.has(raw.type) && !this.unknownTypes.has(raw.type)) {
      this.unknownTypes.add(raw.type);
      this.lines.warn(lineNumber, `record type "${raw.type}" is not one Kimi Code 2.1 writes: kept, not interpreted`);
    }
    const previous = this.entries[this.entries.length - 1]?.id ?? null;
    const timestamp = typeof raw.time === "number" && Number.isFinite(raw.time) ? new Date(raw.time).toISOString() : null;
    this.entries.push({ id: `L${lineNumber}`, parentId: previous, type: raw.type, timestamp, line: lineNumber, raw });
  }

  /** The folder the agent worked in, from the first profile record that names it (for the sessions library and `scan`). */
  private noteCwd(raw: Record<string, unknown>): void {
    if (raw.type !== "profile.bind" && raw.type !== "config.update") return;
    const disclosure = raw.environmentDisclosure;
    const cwd = typeof raw.cwd === "string" ? raw.cwd : disclosure !== null && typeof disclosure === "object" && typeof (disclosure as Record<string, unknown>).cwd === "string" ? ((disclosure as Record<string, unknown>).cwd as string) : null;
    if (cwd === null) return;
    this.header ??= { agent: KIMI_CODE_FORMAT_ID, protocolVersion: null, createdAt: null, sessionId: sessionIdOfPath(this.fileName), cwd: null };
    this.header.cwd ??= cwd;
  }

  private session(entries: SessionEntry[], warnings: ReaderWarning[]): Session {
    const version = typeof this.header?.protocolVersion === "string" ? Number.parseFloat(this.header.protocolVersion) : NaN;
    return readerSession(
      { formatId: KIMI_CODE_FORMAT_ID, formatLabel: FORMAT_LABEL, fileName: this.fileName, formatVersion: Number.isFinite(version) ? version : null, header: this.header, headerIsLine: false, lineCount: this.lines.lineCount },
      entries,
      warnings,
    );
  }

  finish(): Session {
    this.lines.finish(this.entries.length === 0 ? `no Kimi Code records found: expected ${EXPECTATION}` : null);
    return this.session(this.entries, this.lines.warnings);
  }

  snapshot(): Session {
    return this.session(this.entries.slice(), this.lines.warnings.slice());
  }
}

/** The session id a wire file's path names (`…/session_<id>/agents/main/wire.jsonl`), or null for a bare name. */
export function sessionIdOfPath(fileName: string): string | null {
  const match = /(?:^|[\\/])(session_[^\\/]+)[\\/]agents[\\/][^\\/]+[\\/]wire\.jsonl$/.exec(fileName);
  return match ? match[1]! : null;
}

export const kimiCodeReader: FormatReader = {
  id: KIMI_CODE_FORMAT_ID,
  label: FORMAT_LABEL,
  mismatchMessage: `not a Kimi Code wire file: expected ${EXPECTATION}`,
  detect: (firstLines) => detectKimiCode(firstLines),
  createLineReader: (fileName) => new KimiLineReader(fileName),
};
