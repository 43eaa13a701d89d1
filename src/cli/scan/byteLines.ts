// A session file's lines from its bytes for the summary pass of `scan`: each line decoded on its
// own, and, when the summariser says which markers its lines hold, the other lines stepped over
// without being decoded (most of a Claude Code transcript's bytes are tool results no call is on).
import type { LineWanted } from "../../core/agents/descriptor";

/**
 * Every line of the bytes, decoded one at a time (a line's \r dropped). With `wanted`, a line it
 * refuses is stepped over undecoded: its markers are found by native searches over the whole
 * buffer, each search going on from the last place it found, so each marker costs one pass over
 * the file whatever the number of lines.
 */
export function* byteLines(bytes: Uint8Array, wanted?: LineWanted): Generator<string> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nextAt = new Map<string, number>();
  let start = 0;
  let last = 0;
  const contains = (marker: string): boolean => {
    let at = nextAt.get(marker);
    if (at === undefined || at < start) {
      at = buffer.indexOf(marker, start, "latin1");
      if (at < 0) at = Number.POSITIVE_INFINITY;
      nextAt.set(marker, at);
    }
    // A marker holds no line break, so one that starts inside the line ends inside it.
    return at < last;
  };
  while (start < buffer.length) {
    let end = buffer.indexOf(10, start);
    if (end < 0) end = buffer.length;
    last = end > start && buffer[end - 1] === 13 ? end - 1 : end;
    if (!wanted || wanted(contains)) yield buffer.toString("utf8", start, last);
    start = end + 1;
  }
}
