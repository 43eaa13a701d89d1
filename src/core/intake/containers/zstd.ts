// Zstandard (deepseek-harness writes `session.jsonl.zstd`, a chain of frames, one per write batch).
// A compressed file is recognised by its first four bytes (a frame's magic number, or a skippable
// frame's), whatever its name. Its frames are found from their headers first (./zstdFrames.ts) and
// decoded one by one into byte parts that go through the same line splitter as a plain file, so
// a damaged frame is named (its number and byte offset) and skipped, and the frames after it are
// read; skippable frames are passed over. The compressed bytes are held whole for that walk (a
// tenth or less of the decoded size); the decoded text never exists as one string.
//
// The decoder is zstddec's WebAssembly build (chosen by bench/zstd.bench.ts:
// docs/formats/deepseek-harness.md), loaded once, asynchronously, before a compressed file is
// read: hosts await the container's `loadDecoder()` when the intake says a file is this
// container; tests await it up front. Its module is imported then, so code that only asks what a
// file is (the page's folder walks) never loads it. It decodes two ways:
// - streaming, in parts of at most 128 KiB, for a large frame whose window it accepts (up to
//   128 MiB, zstd's default limit for streaming); it reports no error, it stops making progress,
//   which is how damage is told;
// - in one pass into a buffer of the frame's whole output, for small frames and for frames whose
//   window is larger than streaming accepts (`zstd --long=28` to `--long=31`): then the window
//   does not bound memory, the output does. An error gives an empty result.
import type { ZSTDDecoder } from "zstddec/stream";
import type { Container, ContainerProblem } from "./container";
import { isFrameStart, zstdFrames, type ZstdFrame } from "./zstdFrames";
import { concatBytes } from "../../util/concat-bytes";

/** Frames that decode to at most this are decoded in one pass (no decoder state kept between calls). */
const ONE_PASS_BYTES = 8 * 1024 * 1024;
/** The largest output decoded in one pass, for a frame whose window streaming refuses. */
const MAX_ONE_PASS_BYTES = 512 * 1024 * 1024;
/** The largest window zstd accepts when streaming (ZSTD_WINDOWLOG_LIMIT_DEFAULT, 2^27). */
const MAX_STREAMING_WINDOW = 2 ** 27;
/** The largest window log the 32-bit decoder reads from a header (ZSTD_WINDOWLOG_MAX_32). */
const MAX_HEADER_WINDOW_LOG = 30;
/** Input handed to the streaming decoder per call: how stalls are told (see `streamFrame`). */
const STREAM_PIECE_BYTES = 1024 * 1024;
/** Damaged large frames tolerated: a stalled streaming decoder keeps its memory (zstddec cannot free it). */
const MAX_STALLED_FRAMES = 8;

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

function whole(chunks: Iterable<Uint8Array>): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const chunk of chunks) {
    // A caller may reuse its chunk's buffer once the next one is taken: keep a copy.
    parts.push(chunk.slice());
  }
  return concatBytes(parts);
}

/** Where a frame is, as a warning says it. */
function where(frame: ZstdFrame): string {
  return `Zstandard frame ${frame.index} (at byte ${frame.offset})`;
}

const MIB = 1024 * 1024;

/**
 * The frame decoded in one pass, or null when the decoder failed (it hands back nothing then).
 * A header saying a 2 GiB window (`--long=31`) is read as 1 GiB: one pass writes into a buffer of
 * the whole output, so the window bounds nothing here, and the 32-bit decoder refuses that log.
 */
function onePass(zstd: ZSTDDecoder, bytes: Uint8Array, frame: ZstdFrame): Uint8Array | null {
  let input = bytes.subarray(frame.offset, frame.end);
  if (frame.windowDescriptorAt !== null && frame.windowLog > MAX_HEADER_WINDOW_LOG) {
    input = input.slice();
    const at = frame.windowDescriptorAt - frame.offset;
    input[at] = ((MAX_HEADER_WINDOW_LOG - 10) << 3) | (input[at]! & 7);
  }
  const out = zstd.decode(input, Math.max(frame.decodedBound, 1));
  if (out.byteLength === 0 && frame.decodedBound > 0) return null;
  if (frame.contentSize !== null && out.byteLength !== frame.contentSize) return null;
  return out;
}

/**
 * The frame's parts from the streaming decoder; `stalled()` tells afterwards whether it stopped
 * on damage. zstddec calls the decoder while a piece has input left and reports no error: on
 * damage it goes on handing back empty parts for the same piece. A healthy call that hands back
 * nothing has used up its piece, so empty parts in a row for one piece are damage.
 */
function* streamFrame(zstd: ZSTDDecoder, bytes: Uint8Array, frame: ZstdFrame, state: { stalled: boolean }): Generator<Uint8Array> {
  let pulled = 0;
  const pieces = function* () {
    for (let at = frame.offset; at < frame.end; at += STREAM_PIECE_BYTES) {
      pulled++;
      yield bytes.subarray(at, Math.min(at + STREAM_PIECE_BYTES, frame.end));
    }
  };
  let emptyFrom = -1;
  let empties = 0;
  for (const part of zstd.decodeStreaming(pieces())) {
    if (part.byteLength > 0) {
      empties = 0;
      yield part;
      continue;
    }
    if (emptyFrom !== pulled) {
      emptyFrom = pulled;
      empties = 0;
    }
    if (++empties >= 3) {
      state.stalled = true;
      return;
    }
  }
}

/** Decodes one data frame; problems through `onProblem`. Returns false when decoding must stop. */
function* decodeFrame(zstd: ZSTDDecoder, bytes: Uint8Array, frame: ZstdFrame, onProblem: (problem: ContainerProblem) => void, stalls: { count: number }): Generator<Uint8Array, boolean> {
  const skipped = (why: string) => onProblem({ reason: `${where(frame)} ${why}: skipped; the lines of the other frames are kept` });
  if (frame.dictionary) {
    skipped("needs a dictionary, which the file does not carry");
    return true;
  }
  const streams = frame.windowSize <= MAX_STREAMING_WINDOW && frame.decodedBound > ONE_PASS_BYTES;
  if (!streams) {
    if (frame.decodedBound > MAX_ONE_PASS_BYTES) {
      skipped(`uses a window of ${Math.round(frame.windowSize / MIB)} MiB and may decode to ${Math.round(frame.decodedBound / MIB)} MiB, more than can be decoded in one pass (${MAX_ONE_PASS_BYTES / MIB} MiB)`);
      return true;
    }
    const out = onePass(zstd, bytes, frame);
    if (out) yield out;
    else skipped("is damaged (it does not decode)");
    return true;
  }
  const state = { stalled: false };
  yield* streamFrame(zstd, bytes, frame, state);
  if (!state.stalled) return true;
  skipped("is damaged (decoding stopped inside it; the lines it gave before are kept)");
  if (++stalls.count < MAX_STALLED_FRAMES) return true;
  onProblem({ reason: `${MAX_STALLED_FRAMES} large Zstandard frames were damaged: decoding stopped after ${where(frame)}; the lines before are kept` });
  return false;
}

/** A frame decoded in one pass that may share the call with its neighbours (see `decodeBatch`). */
function batchable(frame: ZstdFrame): boolean {
  return frame.kind === "data" && !frame.dictionary && frame.windowLog <= MAX_HEADER_WINDOW_LOG && frame.decodedBound <= ONE_PASS_BYTES;
}

/**
 * Adjacent small frames decoded in one call (deepseek-harness writes a frame per write batch:
 * one call each would cost more than the decoding); when that call fails, one frame at a time,
 * so only the damaged one is skipped.
 */
function* decodeBatch(zstd: ZSTDDecoder, bytes: Uint8Array, batch: ZstdFrame[], onProblem: (problem: ContainerProblem) => void, stalls: { count: number }): Generator<Uint8Array, boolean> {
  if (batch.length > 1) {
    const bound = batch.reduce((sum, frame) => sum + frame.decodedBound, 0);
    const declared = batch.every((frame) => frame.contentSize !== null) ? batch.reduce((sum, frame) => sum + frame.contentSize!, 0) : null;
    const out = zstd.decode(bytes.subarray(batch[0]!.offset, batch.at(-1)!.end), Math.max(bound, 1));
    if ((out.byteLength > 0 || bound === 0) && (declared === null || out.byteLength === declared)) {
      yield out;
      return true;
    }
  }
  for (const frame of batch) if (!(yield* decodeFrame(zstd, bytes, frame, onProblem, stalls))) return false;
  return true;
}

/**
 * The decoded bytes of compressed `chunks`, in parts, every frame in order. A damaged frame is
 * named and skipped; a cut last frame (a crash while writing) gives what it holds and is named.
 */
function* decodeZstdChunks(chunks: Iterable<Uint8Array>, fileName: string, onProblem: (problem: ContainerProblem) => void): Generator<Uint8Array> {
  const zstd = decoder;
  if (!zstd) throw new ZstdNotLoadedError(fileName);
  const bytes = whole(chunks);
  const stalls = { count: 0 };
  let batch: ZstdFrame[] = [];
  let batchBound = 0;
  for (const frame of zstdFrames(bytes)) {
    if (batchable(frame) && (batch.length === 0 || (batchBound + frame.decodedBound <= ONE_PASS_BYTES && batch.at(-1)!.end === frame.offset))) {
      batch.push(frame);
      batchBound += frame.decodedBound;
      continue;
    }
    if (!(yield* decodeBatch(zstd, bytes, batch, onProblem, stalls))) return;
    batch = [];
    batchBound = 0;
    if (batchable(frame)) {
      batch.push(frame);
      batchBound = frame.decodedBound;
      continue;
    }
    if (frame.kind === "skippable") continue;
    if (frame.kind === "damaged") {
      const next = frame.end < bytes.length ? `reading goes on at byte ${frame.end}` : "it is the last one";
      onProblem({ reason: `${where(frame)} is damaged (${frame.problem ?? "unreadable"}): skipped; ${next}; the lines of the other frames are kept` });
      continue;
    }
    if (frame.kind === "cut") {
      yield* decodeCut(zstd, bytes, frame);
      onProblem({ reason: `the last Zstandard frame, ${where(frame).slice("Zstandard ".length)}, is incomplete: a torn tail, as a crash while writing leaves it; the lines before it are kept` });
      return;
    }
    if (!(yield* decodeFrame(zstd, bytes, frame, onProblem, stalls))) return;
  }
  yield* decodeBatch(zstd, bytes, batch, onProblem, stalls);
}

/** What a cut last frame holds: the streaming decoder gives it, then ends with "more data expected". */
function* decodeCut(zstd: ZSTDDecoder, bytes: Uint8Array, frame: ZstdFrame): Generator<Uint8Array> {
  if (frame.end - frame.offset <= 8 || frame.windowSize > MAX_STREAMING_WINDOW) return;
  try {
    yield* streamFrame(zstd, bytes, frame, { stalled: false });
  } catch {
    // The decoder's "more data expected": the caller says it in words.
  }
}

export const zstdContainer: Container = {
  id: "zstd",
  label: "Zstandard",
  namePattern: /\.(zstd|zst)$/i,
  matches: (head) => isFrameStart(head, 0),
  loadDecoder: loadZstdDecoder,
  decode: decodeZstdChunks,
};
