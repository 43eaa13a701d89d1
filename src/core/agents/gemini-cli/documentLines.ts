// The lines of Gemini CLI's older chat form (one pretty-printed JSON object), gathered until the
// file ends and then read as one document. Lines handed as bytes stay bytes, joined by newlines in
// one growing buffer, and are decoded once at the end: decoding each of a document's hundred
// thousand short lines on its own cost as much as parsing it. The text is the one the lines
// decoded one by one and joined would give: a newline ends any unfinished UTF-8 sequence in both,
// and where a line starts with a byte-order mark (dropped when a line is decoded on its own, not
// inside a document) each line is decoded on its own, as before.
import { utf8Decode, utf8Encode } from "../../util/utf8";

const NEWLINE = 10;

export class DocumentLines {
  /** Lines given as text (those read before the form was known), in order, before the bytes' lines. */
  private readonly texts: string[] = [];
  private bytes = new Uint8Array(0);
  private length = 0;
  /** Lines held in `bytes`. */
  private byteLines = 0;
  /** A line in `bytes` starts with a UTF-8 byte-order mark. */
  private markedLine = false;

  /** Lines held so far. */
  get count(): number {
    return this.texts.length + this.byteLines;
  }

  addText(text: string): void {
    if (this.byteLines === 0) this.texts.push(text);
    else {
      const bytes = utf8Encode(text);
      this.addBytes(bytes, 0, bytes.length);
    }
  }

  addBytes(source: Uint8Array, start: number, end: number): void {
    const separator = this.count > 0 ? 1 : 0;
    this.room(separator + end - start);
    if (separator) this.bytes[this.length++] = NEWLINE;
    this.bytes.set(source.subarray(start, end), this.length);
    this.length += end - start;
    this.byteLines += 1;
    if (end - start >= 3 && source[start] === 0xef && source[start + 1] === 0xbb && source[start + 2] === 0xbf) this.markedLine = true;
  }

  /** The lines joined by newlines. */
  text(): string {
    const head = this.texts.join("\n");
    if (this.byteLines === 0) return head;
    const bytes = this.bytes.subarray(0, this.length);
    if (!this.markedLine) return head + utf8Decode(bytes);
    const lines: string[] = [];
    let start = 0;
    for (let at = bytes.indexOf(NEWLINE); at >= 0; at = bytes.indexOf(NEWLINE, start)) {
      lines.push(at === start ? "" : utf8Decode(bytes.subarray(start, at)));
      start = at + 1;
    }
    lines.push(start === bytes.length ? "" : utf8Decode(bytes.subarray(start)));
    return head + lines.join("\n");
  }

  private room(more: number): void {
    if (this.length + more <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.length + more, this.bytes.length * 2, 1 << 16));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}
