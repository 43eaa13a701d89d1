// The first lines of a file, read from its first bytes only: what format detection needs, without
// reading (or decoding as one string) a file that may be larger than a JavaScript string can hold.
import fs from "node:fs";
import { DETECTION_LINE_COUNT } from "../core/session/index";

/** Bytes read: enough for DETECTION_LINE_COUNT ordinary lines. */
const HEAD_BYTES = 256 * 1024;

export function headBytes(file: string, bytes = HEAD_BYTES): Uint8Array {
  const fd = fs.openSync(file, "r");
  try {
    const buffer = new Uint8Array(bytes);
    const read = fs.readSync(fd, buffer, 0, bytes, 0);
    return buffer.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}

/** The first non-blank lines of `bytes` (a file's head); a line cut by the end of the head is left out. */
export function headLines(bytes: Uint8Array): string[] {
  const lines = new TextDecoder("utf-8").decode(bytes).split("\n").slice(0, DETECTION_LINE_COUNT + 1);
  if (bytes.length === HEAD_BYTES && lines.length > 1) lines.pop();
  return lines.slice(0, DETECTION_LINE_COUNT).filter((line) => line.trim() !== "");
}
