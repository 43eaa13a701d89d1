// Zstandard frames built by hand for the hostile-input tests (RFC 8878 §3.1): raw blocks of given
// text, RLE blocks (one byte repeated 128 KiB a block: a few bytes of file for a huge decoded
// size, as a bomb is made), a compressed block of given bytes (damage), and skippable frames (to
// pad a file, or as tools write them first). No compressor is needed.

import { joinedBytes as concatBytes } from "./joinedBytes";

export { concatBytes };

const encoder = new TextEncoder();
/** The most one block may decode to (Block_Maximum_Size). */
const BLOCK_BYTES = 128 * 1024;

export type Block = { raw: string } | { rle: number; blocks: number } | { compressed: Uint8Array };

function blockHeader(last: boolean, type: number, size: number): Uint8Array {
  const value = (size << 3) | (type << 1) | (last ? 1 : 0);
  return new Uint8Array([value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff]);
}

/** A frame with a 1 MiB window, no content size and no checksum, of these blocks in order. */
export function zstdFrame(blocks: Block[]): Uint8Array<ArrayBuffer> {
  const parts: Uint8Array[] = [new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x00, (20 - 10) << 3])];
  const flat: { type: number; size: number; body: Uint8Array }[] = [];
  for (const block of blocks) {
    if ("raw" in block) {
      const body = encoder.encode(block.raw);
      for (let at = 0; at < body.length || at === 0; at += BLOCK_BYTES) flat.push({ type: 0, size: Math.min(BLOCK_BYTES, body.length - at), body: body.subarray(at, at + BLOCK_BYTES) });
    } else if ("rle" in block) {
      for (let index = 0; index < block.blocks; index++) flat.push({ type: 1, size: BLOCK_BYTES, body: new Uint8Array([block.rle]) });
    } else flat.push({ type: 2, size: block.compressed.length, body: block.compressed });
  }
  flat.forEach((block, index) => parts.push(blockHeader(index === flat.length - 1, block.type, block.size), block.body));
  return concatBytes(...parts);
}

/** A skippable frame of `size` zero bytes. */
function skippableFrame(size: number): Uint8Array<ArrayBuffer> {
  const frame = new Uint8Array(8 + size);
  new DataView(frame.buffer).setUint32(0, 0x184d2a50, true);
  new DataView(frame.buffer).setUint32(4, size, true);
  return frame;
}

/**
 * A Zstandard session whose line 6 is 288 MB of `x` (2,200 RLE blocks), over the 256 MiB line
 * bound, between `lines` 1–5 and the rest; padded with a skippable frame to 300 kB so the
 * decoded-size bound (1,000 × the file) lets the whole line through to the line bound.
 */
export function longLineZstd(lines: string[]): Uint8Array<ArrayBuffer> {
  const frame = zstdFrame([{ raw: `${lines.slice(0, 5).join("\n")}\n` }, { rle: 0x78, blocks: 2200 }, { raw: `\n${lines.slice(5).join("\n")}\n` }]);
  return concatBytes(frame, skippableFrame(300_000));
}

/** A Zstandard bomb: `lines` 1–5, then 2,000 RLE blocks of `x` (262 MB from a few kilobytes), then the rest. */
export function bombZstd(lines: string[]): Uint8Array<ArrayBuffer> {
  return zstdFrame([{ raw: `${lines.slice(0, 5).join("\n")}\n` }, { rle: 0x78, blocks: 2000 }, { raw: `\n${lines.slice(5).join("\n")}\n` }]);
}
