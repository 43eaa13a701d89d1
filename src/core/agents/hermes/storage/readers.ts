// The file reader for hermes-agent's JSON side files opened on their own (HS-26 … HS-34,
// HS-46): a `session_<id>.json` snapshot, a gateway `<id>.jsonl` transcript, a
// `request_dump_*.json`, a `hermes sessions export` JSONL. Each becomes a storage session (the
// same pipeline as state.db); several of them dropped together are read as one store by the
// worker (src/worker/readHermes.ts). Never throws: what cannot be read is a warning.
import type { Session } from "../../../model";
import type { FormatReader, LineReader } from "../../../readers/types";
import { HERMES_FORMAT_ID, readMessageListText, sharedStorageHeader } from "../reader";
import { readHermesStorage } from "./open";
import { laterLinesAreTranscript, looksLikeExportLine, looksLikeTranscriptLine } from "./sideFiles";
import { HERMES_STORAGE_LABEL } from "./session";

const HERMES_FILES_READER_ID = "hermes-storage-files";

const DETECT_CHARS = 8192;

function hasKey(head: string, key: string): boolean {
  return new RegExp(`"${key}"\\s*:`).test(head);
}

/**
 * A snapshot opens `{"session_id": …, "model": …, "base_url": …, "platform": …` (HS-26); a dump
 * `{"timestamp": …, "session_id": …, "reason": …, "request": {` (HS-32); a transcript's first
 * line is a bare chat message without a `type` key (HS-30); an export line a sessions row with
 * `messages` (HS-46).
 */
function detectHermesFile(firstLines: string[], fileName: string): boolean {
  const first = firstLines.find((line) => line.trim() !== "")?.trim() ?? "";
  // A share link's session read from storage: its storage header, then its messages.
  if (sharedStorageHeader(first) !== null) return true;
  if (/\.jsonl$/i.test(fileName) || (first.startsWith("{") && first.endsWith("}"))) {
    if (looksLikeTranscriptLine(first) && /\.jsonl$/i.test(fileName)) return true;
    try {
      if (looksLikeExportLine(JSON.parse(first))) return true;
    } catch {
      // not one JSON line
    }
    // A transcript whose first line is damaged is recognised by the lines after it.
    if (/\.jsonl$/i.test(fileName) && laterLinesAreTranscript(firstLines)) return true;
  }
  const head = firstLines.join("\n").slice(0, DETECT_CHARS);
  if (!head.trimStart().startsWith("{")) return false;
  const snapshot = hasKey(head, "session_id") && (hasKey(head, "session_start") || hasKey(head, "base_url")) && hasKey(head, "platform");
  const dump = hasKey(head, "session_id") && hasKey(head, "reason") && hasKey(head, "request");
  return snapshot || dump;
}

/** Why a JSON side file (not a `.jsonl`) cannot be read: JSON.parse's words, or null when it parses. */
function jsonProblem(text: string, fileName: string): string | null {
  if (/\.jsonl$/i.test(fileName)) return null;
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
}

/** Reads one side file; a file that turns out not to be one is an empty session with a warning. */
function readHermesFileText(text: string, fileName: string): Session {
  // A share link's session read from storage (state.db, snapshots, transcripts): the storage
  // header it was read with (sessions, segments, models, tools), then its messages.
  if (sharedStorageHeader(text) !== null) return { ...readMessageListText(text, fileName), formatLabel: HERMES_STORAGE_LABEL };
  try {
    return readHermesStorage({ sideFiles: [{ name: fileName, text }] });
  } catch (error) {
    // A cut or damaged snapshot says so in JSON.parse's words rather than "not hermes storage".
    const reason = jsonProblem(text, fileName) ?? (error as Error).message;
    return {
      formatId: HERMES_FORMAT_ID,
      formatLabel: HERMES_STORAGE_LABEL,
      fileName,
      formatVersion: null,
      header: null,
      entries: [],
      warnings: [{ line: 0, reason }],
      lineCount: text.split("\n").length,
    };
  }
}

class HermesFileLineReader implements LineReader {
  private readonly lines: string[] = [];
  constructor(private readonly fileName: string) {}
  pushLine(text: string, lineNumber: number): void {
    while (this.lines.length < lineNumber - 1) this.lines.push("");
    this.lines.push(text);
  }
  finish(): Session {
    const session = readHermesFileText(this.lines.join("\n"), this.fileName);
    return { ...session, lineCount: this.lines.length };
  }
}

export const hermesFilesReader: FormatReader = {
  id: HERMES_FILES_READER_ID,
  label: "hermes-agent session snapshot / transcript / request dump",
  mismatchMessage:
    "not a hermes-agent side file: expected session_<id>.json ({\"session_id\",\"model\",\"base_url\",\"platform\",…}), a <id>.jsonl transcript (one chat message per line), a request_dump_*.json ({\"timestamp\",\"session_id\",\"reason\",\"request\"}) or a `hermes sessions export` JSONL",
  detect: (firstLines, fileName) => detectHermesFile(firstLines, fileName),
  createLineReader: (fileName) => new HermesFileLineReader(fileName),
  readWhole: (text, fileName) => readHermesFileText(text, fileName),
};
