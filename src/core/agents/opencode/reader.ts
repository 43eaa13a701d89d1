// Reader for `opencode export <sessionId>` JSON documents (formats.md FM-OC-4). The export is one
// pretty-printed JSON document, not JSONL, so the line reader only collects lines and parses the
// whole text at the end (`readWhole`); a truncated document is salvaged message by message
// (./../opencode/salvage.ts). The SQLite database (FM-OC-1) is not a text format: the worker and
// the CLI open it with sql.js and call src/core/agents/opencode/database.ts.
import { cutDeepValues, MAX_JSON_DEPTH, nestsDeeperThan } from "../../util/json-depth";
import type { ReaderWarning, Session } from "../../model";
import { salvageExport } from "./salvage";
import { exportFromShareLines } from "./share-lines";
import { OPENCODE_FORMAT_ID, OPENCODE_EXPORT_LABEL, sessionFromExport } from "./session";
import type { FormatReader, LineReader } from "../../readers/types";

/** SQLite files start with these 16 bytes ("SQLite format 3" and a NUL), FM-GEN-1. */
const DETECT_LINES = 20;

/**
 * An export starts `{` then `"info": {` then `"id": "ses_…"` (pretty-printed), or is one line
 * `{"info":{"id":"ses_…` (compact). Detection looks only at the first lines.
 */
function detectOpencodeExport(firstLines: string[]): boolean {
  // Only the first 4,096 characters of the trimmed lines joined are looked at, so only they are
  // joined: a file of large lines (a transcript's tool results) costs no more than a small one.
  let head = "";
  for (const line of firstLines.slice(0, DETECT_LINES)) {
    if (head.length >= 4096) break;
    head += line.trim().slice(0, 4096);
  }
  head = head.slice(0, 4096);
  return /^\{\s*"info"\s*:\s*\{/.test(head) && /"id"\s*:\s*"ses_/.test(head);
}

/** Reads an export document held as one string. Never throws. */
export function readOpencodeExportText(text: string, fileName: string, lineCount = 0): Session {
  const warnings: ReaderWarning[] = [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    // A share payload's lines (header, then one record per line) are read as the export they carry.
    const shared = exportFromShareLines(text);
    if (shared) return sessionFromExport(shared, fileName, lineCount, warnings);
    const salvaged = salvageExport(text);
    if (!salvaged) {
      warnings.push({ line: 0, reason: `not valid JSON and nothing could be salvaged (${detail})` });
      return sessionFromExport(null, fileName, lineCount, warnings);
    }
    warnings.push({
      line: 0,
      reason: `the export is truncated or damaged (${detail}); kept ${salvaged.messages.length} complete messages` +
        (salvaged.lostMessages > 0 ? `, lost ${salvaged.lostMessages}` : "") +
        (salvaged.strayCharacters > 0 ? `, stepped over ${salvaged.strayCharacters} stray characters between messages` : ""),
    });
    parsed = { info: salvaged.info, messages: salvaged.messages };
  }
  if (nestsDeeperThan(text)) {
    // Later stages walk values recursively: anything nested deeper than the cap is cut here.
    const capped = cutDeepValues(parsed);
    parsed = capped.value;
    warnings.push({ line: 0, reason: `${capped.cut} values nested more than ${MAX_JSON_DEPTH} levels deep left out` });
  }
  return sessionFromExport(parsed, fileName, lineCount, warnings);
}

class OpencodeExportLineReader implements LineReader {
  private readonly lines: string[] = [];
  private lastLine = 0;
  constructor(private readonly fileName: string) {}

  pushLine(text: string, lineNumber: number): void {
    this.lines.push(text);
    this.lastLine = lineNumber;
  }

  finish(): Session {
    return readOpencodeExportText(this.lines.join("\n"), this.fileName, this.lastLine);
  }
}

export const opencodeExportReader: FormatReader = {
  id: OPENCODE_FORMAT_ID,
  label: OPENCODE_EXPORT_LABEL,
  mismatchMessage:
    'not an opencode session: expected the JSON of `opencode export <id>` ({"info":{"id":"ses_…"},"messages":[…]}) or the SQLite database opencode.db (with its opencode.db-wal)',
  detect: (firstLines) => detectOpencodeExport(firstLines),
  createLineReader: (fileName) => new OpencodeExportLineReader(fileName),
  readWhole: (text, fileName) => readOpencodeExportText(text, fileName),
};
