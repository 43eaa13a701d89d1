// The first bytes of a gzip stream, for redaction: `gzip -c .env | base64` puts a `.env` behind
// base64 and gzip, so a base64 run whose bytes are gzip (magic 1f 8b) is inflated and its text
// scanned. The output is capped (a small run can inflate enormously) and a damaged or cut stream
// gives what inflated before the damage: what matters is the text, not a whole file.
import { Gunzip } from "fflate";
import { concatBytes } from "../util/concat-bytes";

/** At most this many inflated bytes are looked at. */
const MAX_GUNZIP_BYTES = 1 << 20;
/** Input fed per step, so the cap is checked often (one step inflates to at most ~1 MiB). */
const SLICE_BYTES = 1024;

export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 18 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** The inflated bytes (at most MAX_GUNZIP_BYTES), or null when nothing inflates. */
export function gunzipHead(bytes: Uint8Array): Uint8Array | null {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const gunzip = new Gunzip((chunk) => {
    if (total >= MAX_GUNZIP_BYTES) return;
    const kept = chunk.subarray(0, MAX_GUNZIP_BYTES - total);
    chunks.push(kept);
    total += kept.length;
  });
  try {
    for (let offset = 0; offset < bytes.length && total < MAX_GUNZIP_BYTES; offset += SLICE_BYTES) {
      const end = Math.min(offset + SLICE_BYTES, bytes.length);
      gunzip.push(bytes.subarray(offset, end), end === bytes.length);
    }
  } catch {
    // A damaged or cut stream: keep what inflated before it.
  }
  return total === 0 ? null : concatBytes(chunks);
}
