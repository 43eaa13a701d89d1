// A Crush session carried by a share link: the link holds the session's header line and one line
// per stored message row (as ./database.ts read them), so the page reopens the same session
// without the database. Never chosen by detection: only a link that names Crush's format reads
// with it. Bad lines are warnings with their line numbers; every good row is kept.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import type { FormatReader, LineReader } from "../../readers/types";
import { isObject } from "../../util/is-object";
import { CRUSH_DATABASE_LABEL, CRUSH_FORMAT_ID, type CrushMessageRow } from "./session";

class CrushShareLineReader implements LineReader {
  private header: Record<string, unknown> | null = null;
  private readonly entries: SessionEntry[] = [];
  private readonly warnings: ReaderWarning[] = [];
  private lineCount = 0;

  constructor(private readonly fileName: string) {}

  pushLine(text: string, lineNumber: number): void {
    this.lineCount = lineNumber;
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.warnings.push({ line: lineNumber, reason: "not valid JSON, skipped" });
      return;
    }
    if (!isObject(value)) {
      this.warnings.push({ line: lineNumber, reason: "not a JSON object, skipped" });
      return;
    }
    if (this.header === null && this.entries.length === 0 && value.agent === "crush") {
      this.header = value;
      return;
    }
    const row = value as Partial<CrushMessageRow>;
    if (typeof row.id !== "string" || typeof row.role !== "string" || !Array.isArray(row.parts)) {
      this.warnings.push({ line: lineNumber, reason: "a message row without id, role or parts, skipped" });
      return;
    }
    const seconds = typeof row.createdAt === "number" ? row.createdAt : null;
    this.entries.push({
      id: row.id,
      parentId: null,
      type: `message:${row.role}`,
      timestamp: seconds === null ? null : new Date(seconds * 1000).toISOString(),
      line: lineNumber,
      raw: value,
    });
  }

  finish(): Session {
    return {
      formatId: CRUSH_FORMAT_ID,
      formatLabel: CRUSH_DATABASE_LABEL,
      fileName: this.fileName,
      formatVersion: null,
      header: this.header,
      entries: this.entries,
      warnings: this.warnings,
      lineCount: this.lineCount,
    };
  }
}

export const crushShareReader: FormatReader = {
  id: CRUSH_FORMAT_ID,
  label: CRUSH_DATABASE_LABEL,
  mismatchMessage: "not a Crush session: Crush's sessions are read from its project's .crush/crush.db database (with its crush.db-wal)",
  detect: () => false,
  createLineReader: (fileName) => new CrushShareLineReader(fileName),
};
