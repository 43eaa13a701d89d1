// A file's first bytes only: what the intake needs to tell what it is (src/core/intake/), without
// reading (or decoding as one string) a file that may be larger than a JavaScript string can hold.
import fs from "node:fs";

/** Bytes read by default: enough for the detection lines of ordinary files. */
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
