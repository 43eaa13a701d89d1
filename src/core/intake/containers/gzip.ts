// gzip (`session.jsonl.gz`: any agent's session file compressed with `gzip`, as log rotation and
// archives leave them). Recognised by its first bytes (1F 8B, then deflate's method 08), whatever
// its name, and inflated with fflate's streaming Gunzip (pure JavaScript), member
// after member (`cat a.gz b.gz` is one stream), into the same line splitter as a plain file.
// The input is fed in small slices so one step never inflates to more than a few megabytes (a
// small file can inflate enormously): the decoded text never exists as one buffer. fflate is
// imported when the decoder is loaded, so code that only asks what a file is does not load it.
// A cut or damaged file is named in our words (../../util/inflateFailure.ts), with the member and
// where it starts, never with fflate's own error text; what inflated before it is kept.
import type { Gunzip as GunzipStream } from "fflate";
import type { Container, ContainerProblem } from "./container";
import { inflateFailure, type InflateFailure } from "../../util/inflateFailure";

/** Input fed per step: deflate inflates at most ~1032× its size, so a step yields at most ~16 MiB. */
const SLICE_BYTES = 16 * 1024;

/** A gzip member starts with 1F 8B and compression method 8 (deflate), RFC 1952 §2.3. */
function isGzipHeader(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 0x08;
}

let Gunzip: typeof GunzipStream | null = null;
let loading: Promise<void> | null = null;

function loadGunzip(): Promise<void> {
  loading ??= import("fflate").then((fflate) => {
    Gunzip = fflate.Gunzip;
  });
  return loading;
}

/** The last four bytes of a gzip member: its decoded size modulo 2^32 (ISIZE, RFC 1952 §2.3.1), little-endian. */
function trailerSize(tail: Uint8Array): number {
  return ((tail[0]! | (tail[1]! << 8) | (tail[2]! << 16) | (tail[3]! << 24)) >>> 0);
}

function* decodeGzipChunks(chunks: Iterable<Uint8Array>, fileName: string, onProblem: (problem: ContainerProblem) => void): Generator<Uint8Array> {
  if (!Gunzip) throw new Error(`${fileName}: gzip-compressed input, but the decoder is not loaded (await the container's loadDecoder() before reading)`);
  let parts: Uint8Array[] = [];
  let decoded = 0;
  /** Bytes decoded when the last member started: fflate names each member after the first. */
  let memberStart = 0;
  /** The member being inflated (1 for the first) and the file's byte it starts at. */
  let member = 1;
  let memberOffset = 0;
  /** The last four input bytes: the last member's trailer, when the file is whole. */
  const tail = new Uint8Array(4);
  let seen = 0;
  const gunzip = new Gunzip((part) => {
    decoded += part.byteLength;
    if (part.byteLength > 0) parts.push(part);
  });
  gunzip.onmember = (offset) => {
    memberStart = decoded;
    member++;
    memberOffset = offset;
  };
  const taken = (): Uint8Array[] => {
    const out = parts;
    parts = [];
    return out;
  };
  const remember = (slice: Uint8Array) => {
    for (const byte of slice.byteLength > 4 ? slice.subarray(slice.byteLength - 4) : slice) {
      tail.copyWithin(0, 1);
      tail[3] = byte;
    }
    seen += slice.byteLength;
  };
  const stopped = ({ kind, what }: InflateFailure) => {
    const where = `gzip member ${member} (from byte ${memberOffset})`;
    const kept = decoded === 0 ? "nothing could be decoded" : "the lines before it are kept";
    const reasons: Record<InflateFailure["kind"], string> = {
      cut: `${where} ends early (${what}): a cut file, as a copy taken mid-write leaves it; ${kept}`,
      damaged: `${where} is damaged before byte ${seen} (${what}): decoding stopped there; ${kept}`,
      "not gzip": `the bytes after ${where} are not another gzip member (found before byte ${seen}): decoding stopped there; ${kept}`,
    };
    onProblem({ reason: reasons[kind] });
  };
  try {
    for (const chunk of chunks) {
      for (let offset = 0; offset < chunk.byteLength; offset += SLICE_BYTES) {
        // The chunk may be reused by the caller once the next one is taken: fflate keeps what it needs.
        const slice = chunk.subarray(offset, Math.min(offset + SLICE_BYTES, chunk.byteLength));
        remember(slice);
        gunzip.push(slice, false);
        yield* taken();
      }
    }
    gunzip.push(new Uint8Array(0), true);
    yield* taken();
    // fflate does not always notice a stream cut between two deflate blocks: the trailer says.
    if (seen < 4 || ((decoded - memberStart) >>> 0) !== trailerSize(tail)) stopped({ kind: "cut", what: "the size its end records is not the size decoded" });
  } catch (error) {
    // What inflated before the damage is still handed on, then the problem is named.
    yield* taken();
    stopped(inflateFailure(error));
  }
}

export const gzipContainer: Container = {
  id: "gzip",
  label: "gzip",
  namePattern: /\.gz$/i,
  matches: isGzipHeader,
  loadDecoder: loadGunzip,
  decode: decodeGzipChunks,
};
