// Raw-deflate decompression with a hard cap on the output size (a "zip bomb" guard): the input is
// fed to fflate's streaming Inflate in small slices and the running output count is checked after
// each slice, so decoding stops soon after the cap is passed instead of after allocating the whole
// output. One slice of SLICE_BYTES can inflate to at most ~1032× its size (deflate's limit), which
// bounds the overshoot to about 1 MiB.
import { Inflate } from "fflate";
import { ShareDecodeFailure, fail } from "./errors";
import { inflateFailure } from "../util/inflateFailure";
import { concatBytes } from "../util/concat-bytes";

export const INFLATE_SLICE_BYTES = 1024;

export function inflateCapped(compressed: Uint8Array, maxBytes: number): Uint8Array {
  if (compressed.length === 0) fail("corrupted", "no compressed data");
  const chunks: Uint8Array[] = [];
  let total = 0;
  let exceeded = false;
  const inflater = new Inflate((chunk) => {
    total += chunk.length;
    if (total > maxBytes) exceeded = true;
    else chunks.push(chunk);
  });
  try {
    for (let offset = 0; offset < compressed.length; offset += INFLATE_SLICE_BYTES) {
      const end = Math.min(offset + INFLATE_SLICE_BYTES, compressed.length);
      inflater.push(compressed.subarray(offset, end), end === compressed.length);
      if (exceeded) break;
    }
  } catch (error) {
    if (error instanceof ShareDecodeFailure) throw error;
    // Our words for what was wrong, never the inflater's own text.
    const { kind, what } = inflateFailure(error);
    fail("corrupted", `compressed data is ${kind === "cut" ? "cut short" : "damaged"}: ${what}`);
  }
  if (exceeded) fail("too-large", `more than ${maxBytes} bytes once decompressed`, { inflatedBytes: total });
  return concatBytes(chunks);
}
