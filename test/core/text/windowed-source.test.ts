// The windowed text source (src/core/text/windowedSource.ts) reads an input in few, well-sized
// reads: texts in file order share a megabyte window, two places read in turn keep a window each,
// scattered short texts cost a small read each (not a megabyte), a long text is read on its own,
// and a text no longer between its quotes fails loudly.
import { describe, expect, it } from "vitest";
import { windowedTextSource } from "../../../src/core/text/windowedSource";

/** An input of `size` bytes: a quoted text `"xxxx"` of `textBytes` every `every` bytes; its reads recorded. */
function input(size: number, every: number, textBytes: number) {
  const bytes = new Uint8Array(size).fill(0x20);
  const offsets: number[] = [];
  for (let at = 1; at + textBytes + 1 < size; at += every) {
    bytes[at - 1] = 0x22;
    bytes.fill(0x78, at, at + textBytes);
    bytes[at + textBytes] = 0x22;
    offsets.push(at);
  }
  const reads: { offset: number; length: number }[] = [];
  const source = windowedTextSource({
    name: "session.jsonl",
    readRange(offset, length) {
      reads.push({ offset, length });
      return bytes.slice(offset, offset + length);
    },
  });
  return { bytes, offsets, reads, source };
}

describe("a windowed text source", () => {
  it("reads texts in file order through megabyte windows", () => {
    const { offsets, reads, source } = input(8 * 1024 * 1024, 4096, 1000);
    for (const offset of offsets) expect(source.read(offset, 1000).every((byte) => byte === 0x78)).toBe(true);
    // 2,048 texts over 8 MB: the first window small, then about one read a megabyte.
    expect(reads.length).toBeLessThanOrEqual(10);
  });

  it("keeps a window for each of two places read in turn", () => {
    const { offsets, reads, source } = input(8 * 1024 * 1024, 4096, 1000);
    const half = offsets.length / 2;
    for (let i = 0; i < 200; i++) {
      source.read(offsets[i]!, 1000);
      source.read(offsets[half + i]!, 1000);
    }
    // 400 texts from two places 4 MB apart: each place's windows, not a window per text.
    expect(reads.length).toBeLessThanOrEqual(8);
  });

  it("reads a small window for texts scattered across the input", () => {
    const { offsets, reads, source } = input(64 * 1024 * 1024, 1024 * 1024, 2000);
    for (const offset of offsets) source.read(offset, 2000);
    expect(reads.length).toBe(offsets.length);
    // After the first read, each is the small window, not a megabyte.
    expect(reads.slice(1).every((read) => read.length === 64 * 1024)).toBe(true);
  });

  it("reads a long text on its own, exactly its bytes and quotes", () => {
    const { offsets, reads, source } = input(4 * 1024 * 1024, 1024 * 1024, 512 * 1024);
    source.read(offsets[1]!, 512 * 1024);
    expect(reads).toEqual([{ offset: offsets[1]! - 1, length: 512 * 1024 + 2 }]);
  });

  it("fails loudly when a text no longer stands between its quotes", () => {
    const { bytes, offsets, source } = input(1024 * 1024, 4096, 100);
    bytes[offsets[3]! + 100] = 0x78;
    expect(() => source.read(offsets[3]!, 100)).toThrow(/session\.jsonl changed while it was being read: the text at byte \d+ is no longer there/);
    source.close?.();
    expect(() => source.read(offsets[0]!, 100)).toThrow(/is closed/);
  });
});
