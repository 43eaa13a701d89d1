// Bounds on the work one input can cause, each with a named warning when it is hit, so a hostile
// file (a 1 KB Zstandard bomb of blank lines, one 8 GiB line, a file with a million bad lines)
// costs bounded time and memory and says what was left out and where. Defaults below; a host
// passes its own (the CLI from environment variables: docs/cli.md "Bounds"); the page reads with
// these defaults (its worker has no environment).

export interface ReadBounds {
  /** Longest line read, in bytes: a longer line is skipped (its number and size said), every other line kept. */
  maxLineBytes: number;
  /** Decoded bytes of a container (gzip, Zstandard) allowed per byte of the file. */
  maxDecodedRatio: number;
  /** Decoded bytes of a container allowed in all, whatever the file's size. */
  maxDecodedBytes: number;
  /** Warnings of one kind kept in full; those beyond are counted in one summary warning. */
  maxWarningsPerKind: number;
}

export const DEFAULT_READ_BOUNDS: ReadBounds = {
  // V8 cannot hold a string of 512 Mi characters; a line is decoded to one string.
  maxLineBytes: 256 * 1024 * 1024,
  // Session JSONL compresses about 10:1 with gzip and Zstandard; 1,000:1 is a bomb (blank lines).
  maxDecodedRatio: 1000,
  maxDecodedBytes: 8 * 1024 * 1024 * 1024,
  maxWarningsPerKind: 100,
};

/** The bytes as a reader says them: `1.2 MB`, `830 bytes`. */
export function byteSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  const units = ["kB", "MB", "GB", "TB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** The warning of a line over the line bound. */
export function longLineReason(bytes: number, bound: number): string {
  return `a line of ${byteSize(bytes)} is over the line bound (${byteSize(bound)}): skipped; every other line is read`;
}

/** The warning of a container whose decoded size went over its bound. */
function decodedBoundReason(decoded: number, fileBytes: number, bounds: ReadBounds): string {
  return `the decoded data reached ${byteSize(decoded)} from ${byteSize(fileBytes)} of file, over the bound (${bounds.maxDecodedRatio} × the file, at most ${byteSize(bounds.maxDecodedBytes)}): decoding stopped; the lines before it are kept`;
}

/**
 * The decoded parts of a container, stopped with `onStop` told once they pass the decoded-size
 * bound: `maxDecodedRatio` × the compressed bytes read so far (past the first megabyte, so a small
 * file's first parts are never cut) or `maxDecodedBytes` in all. The part up to the bound is
 * handed on, so the lines before it are kept.
 */
export function* boundedDecoding(parts: Iterable<Uint8Array>, compressedSoFar: () => number, bounds: ReadBounds, onStop: (reason: string) => void): Generator<Uint8Array> {
  let decoded = 0;
  for (const part of parts) {
    const file = compressedSoFar();
    const limit = Math.min(bounds.maxDecodedBytes, Math.max(1024 * 1024, bounds.maxDecodedRatio * file));
    if (decoded + part.byteLength > limit) {
      if (limit > decoded) yield part.subarray(0, limit - decoded);
      onStop(decodedBoundReason(limit, file, bounds));
      return;
    }
    decoded += part.byteLength;
    yield part;
  }
}
