// The frames of a Zstandard file, found from their headers alone (RFC 8878 §3.1), before any is
// decoded: where each starts and ends, its window and how much it can decode to at most. The
// decoder (./zstd.ts) then decodes each frame on its own, so a damaged frame is skipped and the
// frames after it are still read, and skippable frames (user data some tools write first) are
// passed over. A frame whose structure is broken is marked damaged and the walk goes on at the
// next frame's magic number.

/** A Zstandard frame starts with 28 B5 2F FD (0xFD2FB528, little-endian). */
const FRAME_MAGIC = 0xfd2fb528;
/** A skippable frame's magic is 0x184D2A50 to 0x184D2A5F, followed by the size of its data. */
const SKIPPABLE_MAGIC_HIGH = 0x184d2a5;
/** A block never decodes to more than 128 KiB (Block_Maximum_Size). */
const MAX_BLOCK_BYTES = 128 * 1024;
/** Bytes at least in a frame: magic, header descriptor, one block header. */
const MIN_FRAME_BYTES = 4 + 1 + 3;

export interface ZstdFrame {
  /** 1-based, in file order, skippable frames included. */
  index: number;
  /** Byte offset of the frame's magic number in the file. */
  offset: number;
  /** Byte offset just after the frame (its checksum included), or the file's end when cut. */
  end: number;
  kind: "data" | "skippable" | "damaged" | "cut";
  /** Why a damaged frame is damaged. */
  problem?: string;
  /** How far back a match may reach (the frame's content size for a single-segment frame). */
  windowSize: number;
  /** The window's log2 from the frame's window descriptor (0 for a single-segment frame). */
  windowLog: number;
  /** Offset of the window descriptor byte, when the frame has one. */
  windowDescriptorAt: number | null;
  /** The content size the header declares, or null when it declares none. */
  contentSize: number | null;
  /** The most the frame's blocks can decode to (raw and RLE blocks exactly, compressed ones 128 KiB at most). */
  decodedBound: number;
  /** The frame names a dictionary (this decoder has none). */
  dictionary: boolean;
}

function u32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

/** Little-endian unsigned value of `size` bytes (size ≤ 8; exact up to 2^53). */
function uint(bytes: Uint8Array, at: number, size: number): number {
  let value = 0;
  for (let index = size - 1; index >= 0; index--) value = value * 256 + bytes[at + index]!;
  return value;
}

/** True when a frame (a data frame or a skippable one) starts at `at`. */
export function isFrameStart(bytes: Uint8Array, at: number): boolean {
  if (at + 4 > bytes.length) return false;
  const magic = u32(bytes, at);
  return magic === FRAME_MAGIC || magic >>> 4 === SKIPPABLE_MAGIC_HIGH;
}

/** The next offset after `from` where a frame starts, or the file's end. */
function nextFrameStart(bytes: Uint8Array, from: number): number {
  for (let at = from; at + 4 <= bytes.length; at++) if (isFrameStart(bytes, at)) return at;
  return bytes.length;
}

type Header = Pick<ZstdFrame, "windowSize" | "windowLog" | "windowDescriptorAt" | "contentSize" | "dictionary"> & { blocksAt: number; checksum: boolean };

/** The frame header at `at` (after the magic), or the reason it cannot be one. */
function readHeader(bytes: Uint8Array, at: number): Header | string {
  const descriptor = bytes[at]!;
  if ((descriptor & 0x08) !== 0) return "a reserved bit of its header is set";
  const contentFlag = descriptor >> 6;
  const singleSegment = (descriptor & 0x20) !== 0;
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 3]!;
  const contentBytes = contentFlag === 0 ? (singleSegment ? 1 : 0) : [0, 2, 4, 8][contentFlag]!;
  let cursor = at + 1;
  const windowDescriptorAt = singleSegment ? null : cursor;
  if (!singleSegment) cursor += 1;
  const dictionaryAt = cursor;
  cursor += dictionaryBytes;
  const contentAt = cursor;
  cursor += contentBytes;
  if (cursor > bytes.length) return "cut";
  const contentSize = contentBytes === 0 ? null : uint(bytes, contentAt, contentBytes) + (contentBytes === 2 ? 256 : 0);
  let windowSize = contentSize ?? 0;
  let windowLog = 0;
  if (windowDescriptorAt !== null) {
    const window = bytes[windowDescriptorAt]!;
    windowLog = 10 + (window >> 3);
    const base = 2 ** windowLog;
    windowSize = base + (base / 8) * (window & 7);
  }
  const dictionary = dictionaryBytes > 0 && uint(bytes, dictionaryAt, dictionaryBytes) !== 0;
  return { windowSize, windowLog, windowDescriptorAt, contentSize, dictionary, blocksAt: cursor, checksum: (descriptor & 0x04) !== 0 };
}

/** Walks the blocks from `at`: where the frame ends and what it can decode to, or why it is damaged or cut. */
function walkBlocks(bytes: Uint8Array, header: Header): { end: number; decodedBound: number } | { problem: string } | { cut: number } {
  const maxBlock = Math.min(MAX_BLOCK_BYTES, Math.max(header.windowSize, 1));
  let at = header.blocksAt;
  let decodedBound = 0;
  for (let block = 1; ; block++) {
    if (at + 3 > bytes.length) return { cut: decodedBound };
    const value = bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
    const last = (value & 1) === 1;
    const type = (value >> 1) & 3;
    const size = value >>> 3;
    if (type === 3) return { problem: `block ${block} has the reserved block type` };
    if (size > maxBlock) return { problem: `block ${block} says ${size} bytes, more than a block may hold (${maxBlock})` };
    at += 3 + (type === 1 ? 1 : size);
    decodedBound += type === 2 ? maxBlock : size;
    if (at > bytes.length) return { cut: decodedBound };
    if (last) break;
  }
  if (header.checksum) at += 4;
  return at > bytes.length ? { cut: decodedBound } : { end: at, decodedBound };
}

/** A frame's facts; what its header does not say is zero or null. */
function frame(index: number, offset: number, end: number, kind: ZstdFrame["kind"], header: Header | null, decodedBound = 0, problem?: string): ZstdFrame {
  return {
    index,
    offset,
    end,
    kind,
    ...(problem === undefined ? {} : { problem }),
    windowSize: header?.windowSize ?? 0,
    windowLog: header?.windowLog ?? 0,
    windowDescriptorAt: header?.windowDescriptorAt ?? null,
    contentSize: header?.contentSize ?? null,
    decodedBound,
    dictionary: header?.dictionary ?? false,
  };
}

/** One frame from `offset` (a frame's magic is there). */
function frameAt(bytes: Uint8Array, offset: number, index: number): ZstdFrame {
  const magic = u32(bytes, offset);
  if (magic >>> 4 === SKIPPABLE_MAGIC_HIGH) {
    const end = offset + 8 + (offset + 8 <= bytes.length ? u32(bytes, offset + 4) : 0);
    return end > bytes.length ? frame(index, offset, bytes.length, "cut", null) : frame(index, offset, end, "skippable", null);
  }
  if (offset + MIN_FRAME_BYTES > bytes.length) return frame(index, offset, bytes.length, "cut", null);
  const header = readHeader(bytes, offset + 4);
  if (header === "cut") return frame(index, offset, bytes.length, "cut", null);
  if (typeof header === "string") return frame(index, offset, nextFrameStart(bytes, offset + 1), "damaged", null, 0, header);
  const walked = walkBlocks(bytes, header);
  if ("cut" in walked) return frame(index, offset, bytes.length, "cut", header, walked.cut);
  if ("problem" in walked) return frame(index, offset, nextFrameStart(bytes, offset + 1), "damaged", header, 0, walked.problem);
  return frame(index, offset, walked.end, "data", header, walked.decodedBound);
}

/**
 * Every frame of `bytes`, in order. Bytes between frames that start no frame (garbage, or the
 * rest of a damaged frame) are one damaged frame, and the walk goes on at the next magic number.
 */
export function* zstdFrames(bytes: Uint8Array): Generator<ZstdFrame> {
  let index = 0;
  for (let at = 0; at < bytes.length; ) {
    index++;
    if (!isFrameStart(bytes, at)) {
      const end = nextFrameStart(bytes, at + 1);
      yield frame(index, at, end, "damaged", null, 0, "no frame starts here");
      at = end;
      continue;
    }
    const found = frameAt(bytes, at, index);
    yield found;
    at = found.end;
  }
}
