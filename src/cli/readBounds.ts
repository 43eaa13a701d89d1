// The CLI's read bounds (src/core/intake/bounds.ts): the defaults, each changed by an environment
// variable (docs/cli.md "Bounds"), and the bound on bytes read from a file that is not a regular
// file (a FIFO, /dev/zero), whose size is not known before it is read.
import fs from "node:fs";
import { DEFAULT_READ_BOUNDS, byteSize, type ReadBounds } from "../core/intake/bounds";

/** Bytes read from a non-regular file before reading stops (CONTEXTSCOPE_MAX_STREAM_BYTES). */
const DEFAULT_MAX_STREAM_BYTES = 1024 * 1024 * 1024;

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

export function readBoundsFromEnv(env: NodeJS.ProcessEnv = process.env): ReadBounds {
  return {
    maxLineBytes: positive(env, "CONTEXTSCOPE_MAX_LINE_BYTES", DEFAULT_READ_BOUNDS.maxLineBytes),
    maxDecodedRatio: positive(env, "CONTEXTSCOPE_MAX_DECODED_RATIO", DEFAULT_READ_BOUNDS.maxDecodedRatio),
    maxDecodedBytes: positive(env, "CONTEXTSCOPE_MAX_DECODED_BYTES", DEFAULT_READ_BOUNDS.maxDecodedBytes),
    maxWarningsPerKind: DEFAULT_READ_BOUNDS.maxWarningsPerKind,
  };
}

/** True when `file` exists and is not a regular file (a FIFO, a character device). */
export function isNonRegularFile(file: string): boolean {
  try {
    const stat = fs.statSync(file);
    return !stat.isFile() && !stat.isDirectory();
  } catch {
    return false;
  }
}

/**
 * The chunks of a non-regular file, stopped once `max` bytes were read, with `onStop` told (the
 * bytes before the bound are read as the session).
 */
export function* boundedStream(chunks: Iterable<Uint8Array>, onStop: (reason: string) => void, max = positive(process.env, "CONTEXTSCOPE_MAX_STREAM_BYTES", DEFAULT_MAX_STREAM_BYTES)): Generator<Uint8Array> {
  let read = 0;
  for (const chunk of chunks) {
    if (read + chunk.byteLength > max) {
      if (max > read) yield chunk.subarray(0, max - read);
      onStop(`read ${byteSize(max)} from a file that is not a regular file (a FIFO or a device), the bound for such input (CONTEXTSCOPE_MAX_STREAM_BYTES): reading stopped; the lines before are read`);
      return;
    }
    read += chunk.byteLength;
    yield chunk;
  }
}
