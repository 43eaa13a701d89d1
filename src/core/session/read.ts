// Reading a session whose agent is not known yet: every agent's readers in registry order, format
// detection, and the entry points that detect, split and read a whole file or a stream of lines.
// Lines read from bytes reach a reader that takes bytes (`LineReader.pushLineBytes`) as bytes:
// only the first lines, which detection reads, are decoded (and lines for readers without it).
// Used by the worker, the CLI and the tests.
import { allAgents, findAgent } from "./agents";
import type { ReaderWarning, Session } from "../model";
import type { AgentDescriptor } from "../agents/descriptor";
import { containerOf } from "../intake/containers/index";
import { LineSplitter, splitTextLines, type DecodeFn, type LineBytesCallback } from "../readers/lines";
import { DEFAULT_READ_BOUNDS, boundedDecoding, longLineReason, type ReadBounds } from "../intake/bounds";
import { capWarningsPerKind } from "../readers/finish";
import { duringDetection } from "../readers/jsonl-object";
import { utf8Decode } from "../util/utf8";
import type { TextSource } from "../text/storedText";
import type { FormatReader, LineReader } from "../readers/types";
import { looksPrettyPrinted, PrettyJsonJoiner } from "../readers/pretty-lines";

/** Every supported format, in detection order: each agent's readers, in registry order. */
export const FORMAT_READERS: readonly FormatReader[] = allAgents().flatMap((agent) => agent.readers);

/** Lines handed to `detect`: enough to skip a few bad or blank lines at the top. */
export const DETECTION_LINE_COUNT = 20;

export class UnsupportedFormatError extends Error {
  readonly fileName: string;
  constructor(fileName: string, detail?: string) {
    const expected = FORMAT_READERS.map((reader) => reader.mismatchMessage).join("; ");
    super(`${fileName ? `${fileName}: ` : ""}${detail ? `${detail}; ` : ""}${expected}`);
    this.name = "UnsupportedFormatError";
    this.fileName = fileName;
  }
}

export function detectFormat(firstLines: string[], fileName: string): FormatReader | null {
  return duringDetection(() => FORMAT_READERS.find((reader) => reader.detect(firstLines, fileName)) ?? null);
}

/** The agent whose reader recognises these first lines, or null. */
export function detectAgent(firstLines: string[], fileName: string): AgentDescriptor | null {
  const reader = detectFormat(firstLines, fileName);
  return reader ? (allAgents().find((agent) => agent.readers.includes(reader)) ?? null) : null;
}

/**
 * Detection that also recognises a pretty-printed JSONL file (readers/pretty-lines.ts): the first
 * lines' complete values are given to detection as lines. For a look at the head of a file.
 */
export function detectFormatOrPretty(firstLines: string[], fileName: string): FormatReader | null {
  const direct = detectFormat(firstLines, fileName);
  if (direct || !looksPrettyPrinted(firstLines)) return direct;
  const values: string[] = [];
  const joiner = new PrettyJsonJoiner();
  for (const line of firstLines) {
    joiner.push(line, 0, (text) => values.push(text));
    if (values.length >= DETECTION_LINE_COUNT) break;
  }
  return values.length > 0 ? detectFormat(values, fileName) : null;
}

/**
 * The reader for a forced format: `id` names a reader, or an agent (a share link names the
 * session's agent), whose readers are then tried in order on the first lines, the first one
 * standing in when none recognises them.
 */
export function getFormatReader(id: string, firstLines: string[] = [], fileName = ""): FormatReader | null {
  const byId = FORMAT_READERS.find((reader) => reader.id === id);
  if (byId) return byId;
  const readers = findAgent(id)?.readers ?? [];
  return readers.find((reader) => reader.detect(firstLines, fileName)) ?? readers[0] ?? null;
}

/** The Session for an input without a single non-blank line: not an error (nothing to show). */
export function emptySession(fileName: string, lineCount: number): Session {
  return {
    formatId: "none",
    formatLabel: "empty file",
    fileName,
    formatVersion: null,
    header: null,
    entries: [],
    warnings: [{ line: 0, reason: "empty file: no lines to read" }],
    lineCount,
  };
}

/**
 * What a streamed read in the browser asks of detection beyond the defaults (the CLI and the
 * tests use none): a bound on what is buffered before detecting, and its own errors.
 */
export interface SessionReaderOptions {
  /** Detect once the buffered lines hold this many characters, whatever their count: a single line can be huge. */
  detectAfterChars?: number;
  /** The error for an input without a non-blank line; without it, such an input reads as emptySession. */
  emptyError?: (fileName: string) => Error;
  /** The error for an input no reader recognises (the lines detection saw); without it, UnsupportedFormatError. */
  unsupportedError?: (fileName: string, firstLines: string[]) => Error;
  /** Set on the reader of a pretty-printed file's values, so it does not try the same again. */
  relined?: boolean;
  /** Decodes a line handed as bytes (`pushLineBytes`) where a string is needed; default: the platform's UTF-8 decoder. */
  decode?: DecodeFn;
  /** The input, readable again at the offsets lines are handed with (LineReaderOptions.textSource). */
  textSource?: TextSource;
}

/**
 * The reader of a JSONL file that was pretty-printed (readers/pretty-lines.ts): each JSON value is
 * handed on as one line, numbered by the line it starts on, to a reader that detects the format
 * from those values.
 */
function relinedReader(fileName: string, forcedFormat: string | undefined, options: SessionReaderOptions): LineReader {
  const values = openSessionReader(fileName, forcedFormat, { ...options, relined: true });
  const joiner = new PrettyJsonJoiner();
  const onValue = (text: string, line: number) => values.pushLine(text, line);
  return {
    pushLine: (text, lineNumber) => joiner.push(text, lineNumber, onValue),
    finish() {
      joiner.end(onValue);
      return values.finish();
    },
  };
}

/** A line reader that takes lines as bytes as well as strings. */
export type ByteLineReader = LineReader & Required<Pick<LineReader, "pushLineBytes">>;

/**
 * A LineReader for a file whose format is not known yet: it buffers the first lines, detects
 * the format, then streams into that format's reader. Throws UnsupportedFormatError (from
 * pushLine once enough lines were seen, or from finish) when no reader recognises the input.
 * Once the format is known, the reader has `snapshot` when that format's reader has one.
 */
export function openSessionReader(fileName: string, forcedFormat?: string, options: SessionReaderOptions = {}): ByteLineReader {
  let reader: LineReader | null = null;
  // The first lines, kept for detection; a line handed as bytes keeps a copy of them too, so the
  // chosen reader gets it as bytes like every later line.
  const buffered: { text: string; line: number; bytes?: Uint8Array; offset?: number }[] = [];
  let bufferedChars = 0;
  let nonBlank = 0;
  let lastLine = 0;
  const decode = options.decode ?? utf8Decode;

  const choose = (): LineReader => {
    if (nonBlank === 0 && options.emptyError) throw options.emptyError(fileName);
    const firstLines = buffered.map((item) => item.text);
    const chosen = forcedFormat ? getFormatReader(forcedFormat, firstLines, fileName) : detectFormat(firstLines, fileName);
    if (!chosen && !options.relined && looksPrettyPrinted(firstLines)) {
      const relined = relinedReader(fileName, forcedFormat, options);
      for (const item of buffered) relined.pushLine(item.text, item.line);
      buffered.length = 0;
      return relined;
    }
    if (!chosen) throw options.unsupportedError ? options.unsupportedError(fileName, firstLines) : new UnsupportedFormatError(fileName);
    const created = chosen.createLineReader(fileName, options.textSource ? { textSource: options.textSource } : {});
    for (const item of buffered) {
      if (item.bytes && created.pushLineBytes) created.pushLineBytes(item.bytes, 0, item.bytes.length, item.line, item.offset);
      else created.pushLine(item.text, item.line);
    }
    buffered.length = 0;
    const snapshot = created.snapshot;
    if (snapshot) detecting.snapshot = () => snapshot.call(created);
    return created;
  };

  const buffer = (text: string, lineNumber: number, bytes?: Uint8Array, offset?: number) => {
    buffered.push(bytes ? { text, line: lineNumber, bytes, ...(offset === undefined ? {} : { offset }) } : { text, line: lineNumber });
    bufferedChars += text.length;
    if (text.trim() !== "") nonBlank += 1;
    if (nonBlank >= DETECTION_LINE_COUNT || bufferedChars >= (options.detectAfterChars ?? Infinity)) reader = choose();
  };

  const detecting: ByteLineReader = {
    pushLine(text, lineNumber) {
      lastLine = lineNumber;
      if (reader) return reader.pushLine(text, lineNumber);
      buffer(text, lineNumber);
    },
    pushLineBytes(bytes, start, end, lineNumber, offset) {
      lastLine = lineNumber;
      if (reader) {
        if (reader.pushLineBytes) return reader.pushLineBytes(bytes, start, end, lineNumber, offset);
        return reader.pushLine(start === end ? "" : decode(bytes.subarray(start, end)), lineNumber);
      }
      buffer(start === end ? "" : decode(bytes.subarray(start, end)), lineNumber, bytes.slice(start, end), offset);
    },
    finish() {
      if (!reader) {
        if (nonBlank === 0 && !options.emptyError) return emptySession(fileName, lastLine);
        reader = choose();
      }
      return reader.finish();
    },
  };
  return detecting;
}

/** Detects and reads already-decoded text (BOM and CRLF handled). */
export function readSessionText(text: string, fileName: string, forcedFormat?: string): Session {
  const reader = openSessionReader(fileName, forcedFormat);
  const lines = splitTextLines(text);
  for (let i = 0; i < lines.length; i++) reader.pushLine(lines[i] as string, i + 1);
  return reader.finish();
}

/** Detects and reads raw bytes, decoding each line separately with `decode`. */
export function readSessionBytes(bytes: Uint8Array, fileName: string, decode: DecodeFn, forcedFormat?: string): Session {
  return readSessionChunks([bytes], fileName, decode, forcedFormat);
}

/**
 * Detects and reads a file given as consecutive byte chunks (a chunk may reuse the previous one's
 * buffer: lines are read, and a cut line's bytes copied, before the next chunk is taken), so
 * the whole file never has to be in memory at once. Lines reach the reader as bytes. With
 * `textSource` (the same bytes, readable again), a reader may leave its large texts in it.
 */
export function readSessionChunks(
  chunks: Iterable<Uint8Array>,
  fileName: string,
  decode: DecodeFn,
  forcedFormat?: string,
  textSource?: TextSource,
  bounds: ReadBounds = DEFAULT_READ_BOUNDS,
): Session {
  const problems: ReaderWarning[] = [];
  let cut = false;
  const input = decompressedChunks(chunks, fileName, problems, bounds, () => (cut = true));
  // Offsets in decompressed bytes are not offsets in the file: a compressed input is copied.
  const source = textSource && !input.compressed ? { textSource } : {};
  const reader = openSessionReader(fileName, forcedFormat, { decode, ...source });
  const splitter = new LineSplitter(decode, bounds.maxLineBytes, (line, bytes) => problems.push({ line, reason: longLineReason(bytes, bounds.maxLineBytes) }));
  const onLine: LineBytesCallback = source.textSource
    ? (bytes, start, end, lineNumber, offset) => reader.pushLineBytes(bytes, start, end, lineNumber, offset)
    : (bytes, start, end, lineNumber) => reader.pushLineBytes(bytes, start, end, lineNumber);
  for (const chunk of input.chunks) splitter.pushBytes(chunk, onLine);
  // Decoding stopped at its bound inside a line: the part of it decoded is not read.
  if (cut) splitter.discardPending();
  splitter.endBytes(onLine);
  const session = reader.finish();
  return problems.length === 0 ? session : { ...session, warnings: capWarningsPerKind([...session.warnings, ...problems], bounds.maxWarningsPerKind) };
}

/**
 * The chunks as they are, or decoded when the first bytes are a container's (Zstandard, gzip: a
 * compressed file is known by its bytes, not its name; its decoder loaded by the host first);
 * decoding problems are added to `problems`.
 */
function decompressedChunks(chunks: Iterable<Uint8Array>, fileName: string, problems: ReaderWarning[], bounds: ReadBounds, onCut: () => void): { chunks: Iterable<Uint8Array>; compressed: boolean } {
  const iterator = chunks[Symbol.iterator]();
  const first = iterator.next();
  if (first.done === true) return { chunks: [], compressed: false };
  let compressed = 0;
  const all: Iterable<Uint8Array> = {
    *[Symbol.iterator]() {
      compressed += first.value.byteLength;
      yield first.value;
      for (let next = iterator.next(); next.done !== true; next = iterator.next()) {
        compressed += next.value.byteLength;
        yield next.value;
      }
    },
  };
  const container = containerOf(first.value);
  if (!container) return { chunks: all, compressed: false };
  const decoded = container.decode(all, fileName, (problem) => problems.push({ line: 0, reason: problem.reason }));
  return { chunks: boundedDecoding(decoded, () => compressed, bounds, (reason) => {
    problems.push({ line: 0, reason });
    onCut();
  }), compressed: true };
}
