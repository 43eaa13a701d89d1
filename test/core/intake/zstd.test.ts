// Zstandard input that zstd itself or a plain streaming decoder would stop on: a damaged frame in
// the middle (skipped with its number and offset, every other frame's lines kept), a header with a
// reserved bit, garbage between frames, a damaged block inside a large frame read by streaming,
// frames with a long window (`zstd --long=27`, `--long=31`) and skippable frames. The small files
// are test/fixtures/hostile/zstd/ (made with the zstd CLI, README there); the large frames are
// built from raw, RLE and invalid compressed blocks (test/support/zstdBuild.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { zstdContainer } from "../../../src/core/intake/containers/zstd";
import { zstdFrames } from "../../../src/core/intake/containers/zstdFrames";
import { readSessionBytes } from "../../../src/core/session/read";
import { bombZstd, concatBytes as concat, zstdFrame } from "../../support/zstdBuild";

const DIR = path.resolve(__dirname, "../../fixtures/hostile/zstd");
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(path.join(DIR, name)));
const decoder = new TextDecoder();
const decode = (bytes: Uint8Array): string => decoder.decode(bytes);
const encoder = new TextEncoder();
/** Entry ids of the plain session the fixtures compress (13 lines: a header, u1/a1 … u6/a6). */
const ALL_IDS = ["u1", "a1", "u2", "a2", "u3", "a3", "u4", "a4", "u5", "a5", "u6", "a6"];

beforeAll(() => zstdContainer.loadDecoder());

function ids(bytes: Uint8Array, name = "s.jsonl.zst"): { ids: string[]; reasons: string[] } {
  const session = readSessionBytes(bytes, name, decode);
  return { ids: session.entries.map((entry) => entry.id), reasons: session.warnings.map((warning) => warning.reason) };
}

describe("Zstandard frames", () => {
  it("the plain session is what every fixture holds", () => {
    const plain = readSessionBytes(fixture("session.jsonl"), "session.jsonl", decode);
    expect(plain.entries.map((entry) => entry.id)).toEqual(ALL_IDS);
  });

  it("a damaged middle frame is skipped and named; the frames before and after are read", () => {
    const read = ids(fixture("bad-middle-frame.jsonl.zst"));
    // Frame 1 holds lines 1–5 (u1, a1, u2, a2), frame 2 lines 6–9 (u3, a3, u4, a4), frame 3 the rest.
    expect(read.ids).toEqual(["u1", "a1", "u2", "a2", "u5", "a5", "u6", "a6"]);
    expect(read.reasons.some((reason) => /^Zstandard frame 2 \(at byte 356\) is damaged .*skipped; the lines of the other frames are kept$/.test(reason))).toBe(true);
    // No raw decoder text.
    expect(read.reasons.join("\n")).not.toMatch(/Error|ZSTD|undefined/);
  });

  it("a frame header with a reserved bit set is damaged: reading goes on at the next frame", () => {
    const bytes = fixture("bad-middle-frame.jsonl.zst").slice();
    const frames = [...zstdFrames(bytes)];
    expect(frames.map((frame) => [frame.kind, frame.offset])).toEqual([["data", 0], ["data", 356], ["data", 678]]);
    bytes[356 + 4]! |= 0x08;
    const read = ids(bytes);
    expect(read.ids).toEqual(["u1", "a1", "u2", "a2", "u5", "a5", "u6", "a6"]);
    expect(read.reasons).toContain("Zstandard frame 2 (at byte 356) is damaged (a reserved bit of its header is set): skipped; reading goes on at byte 678; the lines of the other frames are kept");
  });

  it("garbage between frames is named with its offset and passed over", () => {
    const bytes = fixture("bad-middle-frame.jsonl.zst");
    const garbage = encoder.encode("not zstandard at all");
    const read = ids(concat(bytes.subarray(0, 356), garbage, bytes.subarray(678)));
    expect(read.ids).toEqual(["u1", "a1", "u2", "a2", "u5", "a5", "u6", "a6"]);
    expect(read.reasons).toContain(`Zstandard frame 2 (at byte 356) is damaged (no frame starts here): skipped; reading goes on at byte ${356 + garbage.length}; the lines of the other frames are kept`);
  });

  it.each(["long-window-27.jsonl.zst", "long-window-31.jsonl.zst"])("a long-window frame (%s) reads whole", (name) => {
    const frame = [...zstdFrames(fixture(name))][0]!;
    expect(frame.windowSize).toBeGreaterThan(8 * 1024 * 1024);
    const read = ids(fixture(name));
    expect(read.ids).toEqual(ALL_IDS);
    expect(read.reasons).toEqual([]);
  });

  it("skippable frames, first and last, are passed over without a warning", () => {
    const bytes = fixture("skippable-first.jsonl.zst");
    expect(zstdContainer.matches(bytes.subarray(0, 4))).toBe(true);
    expect([...zstdFrames(bytes)].map((frame) => frame.kind)).toEqual(["skippable", "data", "skippable"]);
    const read = ids(bytes);
    expect(read.ids).toEqual(ALL_IDS);
    expect(read.reasons).toEqual([]);
  });

  it("a streamed large frame with a damaged block keeps what it gave and the next frame's lines", () => {
    const lines = decoder.decode(fixture("session.jsonl")).split("\n");
    const firstText = `${lines.slice(0, 5).join("\n")}\n`;
    // An invalid compressed block (a literals header promising more than the block holds) after
    // 80 RLE blocks of spaces and a newline: one blank line of 10 MiB, streamed (too big for one pass).
    const bad = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    const damaged = zstdFrame([{ raw: firstText }, { rle: 0x20, blocks: 80 }, { raw: "\n" }, { compressed: bad }]);
    const second = zstdFrame([{ raw: `${lines.slice(5).join("\n")}\n` }]);
    expect([...zstdFrames(damaged)][0]!.decodedBound).toBeGreaterThan(8 * 1024 * 1024);
    const read = ids(concat(damaged, second));
    expect(read.ids).toEqual(ALL_IDS);
    expect(read.reasons).toContain("Zstandard frame 1 (at byte 0) is damaged (decoding stopped inside it; the lines it gave before are kept): skipped; the lines of the other frames are kept");
  });

  it("a cut last frame keeps the lines before and names the frame", () => {
    const bytes = fixture("bad-middle-frame.jsonl.zst");
    const read = ids(concat(bytes.subarray(0, 356), fixture("long-window-27.jsonl.zst").subarray(0, 200)));
    expect(read.ids).toEqual(["u1", "a1", "u2", "a2"]);
    expect(read.reasons.at(-1)).toBe("the last Zstandard frame, frame 2 (at byte 356), is incomplete: a torn tail, as a crash while writing leaves it; the lines before it are kept");
  });

  it("a bomb of one long line stops at the decoded-size bound; the line it stops inside is not read", () => {
    const lines = decoder.decode(fixture("session.jsonl")).trimEnd().split("\n");
    const read = ids(bombZstd(lines));
    expect(read.ids).toEqual(["u1", "a1", "u2", "a2"]);
    expect(read.reasons).toHaveLength(1);
    expect(read.reasons[0]).toMatch(/^the decoded data reached .* decoding stopped; the lines before it are kept$/);
  });
});
