// Incremental line splitting over byte chunks (design.md §3 "stream the input"). Splits on byte
// 0x0A, so a multi-byte UTF-8 character cut by a chunk boundary is never decoded in halves, and
// hands on each line's bytes (`pushBytes`: a range of the chunk, no copy unless the line was cut
// by a chunk boundary) or decodes each line separately (`push`), which is faster than building
// one huge string and works for files larger than a JavaScript string can hold. Core stays free
// of TextDecoder: the caller passes the decode function.
import { concatBytes } from "../util/concat-bytes";

/** Decodes the bytes of one line (without its line terminator) to text. */
export type DecodeFn = (bytes: Uint8Array) => string;

/** Receives one line (without `\n` / `\r\n`) and its 1-based line number. */
export type LineCallback = (text: string, lineNumber: number) => void;

/**
 * Receives one line as its bytes `bytes[start, end)` (valid during the call only), its 1-based
 * line number, and the offset of `bytes[start]` in the input (the bytes pushed, a BOM included).
 */
export type LineBytesCallback = (bytes: Uint8Array, start: number, end: number, lineNumber: number, offset: number) => void;

/** Receives a line skipped for being longer than the bound: its 1-based number and its size in bytes. */
export type LongLineCallback = (lineNumber: number, bytes: number) => void;

const LF = 0x0a;
const CR = 0x0d;
const BOM_BYTES = [0xef, 0xbb, 0xbf];
const BOM_CHAR = "\uFEFF";

export class LineSplitter {
  private readonly decode: DecodeFn;
  /** Bytes of the current, not yet terminated line, kept across chunks. */
  private pending: Uint8Array[] = [];
  private pendingLength = 0;
  private lineNumber = 0;
  /** Bytes seen at the very start of the input, until we know whether they are a BOM. */
  private atStart = true;
  private ended = false;
  /** Bytes pushed before the current chunk. */
  private pushed = 0;
  /** Offset in the input of the current line's first byte. */
  private lineOffset = 0;
  /** Bytes of the current line once it went over `maxLineBytes` (its bytes are no longer kept), else -1. */
  private skipped = -1;

  /**
   * With `maxLineBytes`, a line longer than that is never gathered: its bytes are counted and
   * dropped, and `onLongLine` is told its number and size (the line is not handed on).
   */
  constructor(decode: DecodeFn, private readonly maxLineBytes = Infinity, private readonly onLongLine: LongLineCallback = () => {}) {
    this.decode = decode;
  }

  /** Number of lines emitted so far. */
  get linesEmitted(): number {
    return this.lineNumber;
  }

  push(chunk: Uint8Array, onLine: LineCallback): void {
    this.pushBytes(chunk, this.decoding(onLine));
  }

  /** Flushes a final line that has no terminating newline. */
  end(onLine: LineCallback): void {
    this.endBytes(this.decoding(onLine));
  }

  /** `push`, handing on each line's bytes instead of its text. */
  pushBytes(chunk: Uint8Array, onLine: LineBytesCallback): void {
    if (this.ended) throw new Error("LineSplitter: push after end");
    let data = chunk;
    // The input offset of data[0].
    let base = this.pushed;
    this.pushed += chunk.length;
    if (this.atStart) {
      data = this.stripLeadingBom(data);
      if (this.atStart) return; // still undecided (fewer than 3 bytes so far)
      // `data` now starts with the bytes that waited, or right after a BOM, and ends with the chunk's.
      base = this.pushed - data.length;
      this.lineOffset = base;
    }
    let start = 0;
    for (let index = data.indexOf(LF, start); index !== -1; index = data.indexOf(LF, start)) {
      if (this.skipped >= 0 || this.pendingLength + index - start > this.maxLineBytes) this.skipLine(index - start);
      else this.emit(data, start, index, onLine);
      start = index + 1;
      this.lineOffset = base + start;
    }
    if (this.skipped >= 0) this.skipped += data.length - start;
    else if (this.pendingLength + data.length - start > this.maxLineBytes) {
      // Over the bound before its end: count the rest, keep nothing.
      this.skipped = this.pendingLength + data.length - start;
      this.pending = [];
      this.pendingLength = 0;
    } else if (start < data.length) {
      // Copy: the caller may reuse or transfer its buffer after push returns.
      this.pending.push(data.slice(start));
      this.pendingLength += data.length - start;
    }
  }

  /** `end`, handing on the last line's bytes. */
  endBytes(onLine: LineBytesCallback): void {
    if (this.ended) return;
    this.ended = true;
    if (this.atStart) {
      // Input shorter than a BOM: whatever is pending is real content.
      this.atStart = false;
    }
    if (this.skipped >= 0) this.skipLine(0);
    else if (this.pendingLength > 0) this.emit(new Uint8Array(0), 0, 0, onLine);
  }

  /**
   * Forgets the line not ended yet (its bytes so far): the input was cut on purpose (a decoding
   * bound), so that part of a line is not a line of the file and is not handed on.
   */
  discardPending(): void {
    this.pending = [];
    this.pendingLength = 0;
    this.skipped = -1;
  }

  /** Ends a line over the bound (`tail` more bytes up to its newline): numbered, said, not handed on. */
  private skipLine(tail: number): void {
    const bytes = (this.skipped >= 0 ? this.skipped : this.pendingLength) + tail;
    this.skipped = -1;
    this.pending = [];
    this.pendingLength = 0;
    this.lineNumber += 1;
    this.onLongLine(this.lineNumber, bytes);
  }

  private decoding(onLine: LineCallback): LineBytesCallback {
    return (bytes, start, end, lineNumber) => onLine(end === start ? "" : this.decode(bytes.subarray(start, end)), lineNumber);
  }

  /**
   * Buffers the first bytes until three are known, then drops a UTF-8 BOM. Returns the bytes
   * still to be processed (the buffered prefix is moved into `pending` handling).
   */
  private stripLeadingBom(chunk: Uint8Array): Uint8Array {
    const head = concatBytes([...this.pending, chunk]);
    this.pending = [];
    this.pendingLength = 0;
    if (head.length < BOM_BYTES.length && BOM_BYTES.slice(0, head.length).every((b, i) => head[i] === b)) {
      // Could still become a BOM: keep waiting.
      if (head.length > 0) {
        this.pending.push(head.slice()); // the caller may reuse its buffer
        this.pendingLength = head.length;
      }
      return new Uint8Array(0);
    }
    this.atStart = false;
    if (head[0] === BOM_BYTES[0] && head[1] === BOM_BYTES[1] && head[2] === BOM_BYTES[2]) return head.subarray(3);
    return head;
  }

  /** Hands on the line ending at `data[end]` (a newline, or the input's end), whose bytes from `start` follow the pending ones. */
  private emit(data: Uint8Array, start: number, end: number, onLine: LineBytesCallback): void {
    let bytes = data;
    let from = start;
    let to = end;
    if (this.pendingLength > 0) {
      bytes = concatBytes([...this.pending, data.subarray(start, end)]);
      from = 0;
      to = bytes.length;
      this.pending = [];
      this.pendingLength = 0;
    }
    if (to > from && bytes[to - 1] === CR) to--;
    this.lineNumber += 1;
    onLine(bytes, from, to, this.lineNumber, this.lineOffset);
  }
}

/** Splits all of `bytes` into lines (convenience over LineSplitter). */
export function splitBytesLines(bytes: Uint8Array, decode: DecodeFn, onLine: LineCallback): number {
  const splitter = new LineSplitter(decode);
  splitter.push(bytes, onLine);
  splitter.end(onLine);
  return splitter.linesEmitted;
}

/**
 * Splits already-decoded text into lines: drops a leading BOM, accepts `\n` and `\r\n`, and does
 * not produce an extra empty line after a final newline.
 */
export function splitTextLines(text: string): string[] {
  let body = text.startsWith(BOM_CHAR) ? text.slice(1) : text;
  if (body.length === 0) return [];
  if (body.endsWith("\n")) body = body.slice(0, -1);
  const lines = body.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.endsWith("\r")) lines[i] = line.slice(0, -1);
  }
  return lines;
}
