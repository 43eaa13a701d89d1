// A session file's lines from its bytes for the summary pass of `scan`: each line decoded on its
// own, and, when the summariser says which markers its lines hold, the other lines stepped over
// without being decoded (most of a Claude Code transcript's bytes are tool results no call is on).
import type { LineWanted } from "../../core/agents/descriptor";

/**
 * Every line of the bytes, decoded one at a time (a line's \r dropped). With `wanted`, a line it
 * refuses is stepped over undecoded: its markers are found by native searches within the line
 * alone (a marker asked of few lines costs only those lines' bytes), and its head is read as
 * Latin-1, one byte per character.
 */
export function* byteLines(bytes: Uint8Array, wanted?: LineWanted): Generator<string> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let start = 0;
  let last = 0;
  let line: Buffer | null = null;
  const contains = (marker: string): boolean => {
    line ??= buffer.subarray(start, last);
    return line.indexOf(markerBytes(marker)) >= 0;
  };
  const head = (length: number): string => buffer.toString("latin1", start, Math.min(last, start + length));
  while (start < buffer.length) {
    let end = buffer.indexOf(10, start);
    if (end < 0) end = buffer.length;
    last = end > start && buffer[end - 1] === 13 ? end - 1 : end;
    line = null;
    if (!wanted || wanted(contains, head)) yield buffer.toString("utf8", start, last);
    start = end + 1;
  }
}

/** Each marker's bytes, made once: a search for a string encodes it again on every call. */
const MARKER_BYTES = new Map<string, Buffer>();

function markerBytes(marker: string): Buffer {
  let bytes = MARKER_BYTES.get(marker);
  if (!bytes) MARKER_BYTES.set(marker, (bytes = Buffer.from(marker, "latin1")));
  return bytes;
}
