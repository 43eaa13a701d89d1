// Reader for Codex CLI rollout files (JSONL, formats.md §2): one `{timestamp, type, payload}`
// object per line, `session_meta` first (FM-CX-2). Entries are kept in file order as a linear
// chain with synthetic ids from their line numbers (the rollout has no entry ids). Lenient: bad
// lines become warnings with their line number (FM-GEN-2).
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { firstObjects, finishLineWarnings, parseObjectLine } from "../../readers/jsonl-object";
import { isObject } from "../../util/is-object";
import type { FormatReader, LineReader } from "../../readers/types";

export const CODEX_FORMAT_ID = "codex";

const EXPECTATION =
  'a Codex CLI rollout (~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl): JSONL objects {"timestamp","type","payload"} whose first line has "type":"session_meta"';

export function detectCodex(firstLines: string[]): boolean {
  const first = firstObjects(firstLines, 1)[0];
  return first !== undefined && first.type === "session_meta" && isObject(first.payload);
}

/** Stable synthetic id of the entry on `line`. */
export function codexEntryId(line: number): string {
  return `L${line}`;
}

class CodexLineReader implements LineReader {
  private readonly fileName: string;
  private readonly entries: SessionEntry[] = [];
  private readonly warnings: ReaderWarning[] = [];
  private header: Record<string, unknown> | null = null;
  private previousId: string | null = null;
  private lastLine = 0;
  private lastBadLine = -1;

  constructor(fileName: string) {
    this.fileName = fileName;
  }

  pushLine(text: string, lineNumber: number): void {
    this.lastLine = lineNumber;
    if (text.trim() === "") return;
    const parsed = parseObjectLine(text);
    if ("reason" in parsed) {
      this.lastBadLine = lineNumber;
      this.warnings.push({ line: lineNumber, reason: parsed.reason });
      return;
    }
    if (parsed.note) this.warnings.push({ line: lineNumber, reason: parsed.note });
    const raw = parsed.value;
    if (typeof raw.type !== "string" || !isObject(raw.payload)) {
      this.lastBadLine = lineNumber;
      this.warnings.push({ line: lineNumber, reason: "not a rollout line ({timestamp, type, payload}), line skipped" });
      return;
    }
    if (raw.type === "session_meta") {
      if (this.header === null) {
        if (this.entries.length > 0) {
          this.warnings.push({ line: lineNumber, reason: "session_meta is not the first line" });
        }
        this.header = { agent: "codex", ...raw.payload };
      } else {
        this.warnings.push({ line: lineNumber, reason: "another session_meta (resumed or forked thread): kept, header unchanged" });
      }
    } else if (this.header === null && this.entries.length === 0) {
      this.warnings.push({ line: lineNumber, reason: "rollout does not start with session_meta: session facts unknown" });
    }
    const id = codexEntryId(lineNumber);
    this.entries.push({
      id,
      parentId: this.previousId,
      type: raw.type,
      timestamp: typeof raw.timestamp === "string" ? raw.timestamp : null,
      line: lineNumber,
      raw,
    });
    this.previousId = id;
  }

  finish(): Session {
    finishLineWarnings(this.warnings, this.lastLine, this.lastBadLine);
    if (this.lastLine > 0 && this.entries.length === 0) {
      this.warnings.push({ line: 0, reason: `no rollout lines found: expected ${EXPECTATION}` });
    }
    return {
      formatId: CODEX_FORMAT_ID,
      formatLabel: "Codex CLI rollout",
      fileName: this.fileName,
      formatVersion: null,
      header: this.header,
      entries: this.entries,
      warnings: this.warnings,
      lineCount: this.lastLine,
    };
  }
}

export const codexReader: FormatReader = {
  id: CODEX_FORMAT_ID,
  label: "Codex CLI rollout (JSONL)",
  mismatchMessage: `not a Codex session: expected ${EXPECTATION}`,
  detect: (firstLines) => detectCodex(firstLines),
  createLineReader: (fileName) => new CodexLineReader(fileName),
};
