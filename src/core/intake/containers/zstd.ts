// Zstandard (deepseek-harness writes `session.jsonl.zstd`, a chain of frames, one per write batch).
// A compressed file is recognised by its first four bytes, whatever its name, and decoded frame
// after frame into byte parts that go through the same line splitter as a plain file, so the
// decoded text never has to exist as one string. The decoder is zstddec's streaming WebAssembly
// build (chosen by bench/zstd.bench.ts: docs/formats/deepseek-harness.md), which has to be loaded
// once, asynchronously, before a compressed file is read: hosts await the container's
// `loadDecoder()` when the intake says a file is this container; tests await it up front. The
// decoder's module is imported then, so code that only asks what a file is (the page's folder
// walks) never loads it.
import type { ZSTDDecoder } from "zstddec/stream";
import type { Container, ContainerProblem } from "./container";

/** A Zstandard frame starts with 28 B5 2F FD (the magic number 0xFD2FB528, little-endian). */
const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

/** Parts in a row that decode to nothing before the data is taken as corrupt (the decoder made no progress). */
const STALLED_PARTS = 4096;

function isZstdHeader(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && ZSTD_MAGIC.every((byte, index) => bytes[index] === byte);
}

let decoder: ZSTDDecoder | null = null;
let loading: Promise<void> | null = null;

/** Loads the decoder (once); a compressed input can be read synchronously afterwards. */
function loadZstdDecoder(): Promise<void> {
  loading ??= (async () => {
    const { ZSTDDecoder } = await import("zstddec/stream");
    const created = new ZSTDDecoder();
    await created.init();
    decoder = created;
  })();
  return loading;
}

class ZstdNotLoadedError extends Error {
  constructor(fileName: string) {
    super(`${fileName}: Zstandard-compressed input, but the decoder is not loaded (await the container's loadDecoder() before reading)`);
    this.name = "ZstdNotLoadedError";
  }
}

/**
 * The decoded bytes of compressed `chunks`, in parts, every frame in order. A torn last frame (a
 * crash while writing) or corrupt data ends the parts early and is reported through `onProblem`:
 * the parts decoded before it are kept.
 */
function* decodeZstdChunks(chunks: Iterable<Uint8Array>, fileName: string, onProblem: (problem: ContainerProblem) => void): Generator<Uint8Array> {
  if (!decoder) throw new ZstdNotLoadedError(fileName);
  let emptyInARow = 0;
  try {
    for (const part of decoder.decodeStreaming(chunks)) {
      if (part.byteLength === 0) {
        // zstddec loops while input is left; on corrupt data the decoder stops consuming it.
        if (++emptyInARow >= STALLED_PARTS) {
          onProblem({ reason: "corrupt Zstandard data: decoding stopped here; the lines decoded before it are kept" });
          return;
        }
        continue;
      }
      emptyInARow = 0;
      yield part;
    }
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    onProblem({ reason: `the last Zstandard frame is incomplete (${detail}): a torn tail, as a crash while writing leaves it; the lines before it are kept` });
  }
}

export const zstdContainer: Container = {
  id: "zstd",
  label: "Zstandard",
  namePattern: /\.(zstd|zst)$/i,
  matches: isZstdHeader,
  loadDecoder: loadZstdDecoder,
  decode: decodeZstdChunks,
};
