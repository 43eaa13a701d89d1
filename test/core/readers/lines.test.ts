import { describe, expect, it } from "vitest";
import { LineSplitter, splitBytesLines, splitTextLines } from "../../../src/core/readers/lines";

const decoder = new TextDecoder("utf-8");
const decode = (bytes: Uint8Array) => decoder.decode(bytes);
const encode = (text: string) => new TextEncoder().encode(text);

function splitInChunks(bytes: Uint8Array, size: number): [string, number][] {
  const out: [string, number][] = [];
  const splitter = new LineSplitter(decode);
  const onLine = (text: string, line: number) => out.push([text, line]);
  for (let i = 0; i < bytes.length; i += size) splitter.push(bytes.subarray(i, i + size), onLine);
  splitter.end(onLine);
  return out;
}

describe("LineSplitter", () => {
  it("numbers lines from 1 and handles a final line without newline", () => {
    expect(splitInChunks(encode("a\nbb\nccc"), 100)).toEqual([
      ["a", 1],
      ["bb", 2],
      ["ccc", 3],
    ]);
  });

  it("does not emit an empty line after a final newline, but keeps inner blank lines", () => {
    expect(splitInChunks(encode("a\n\nb\n"), 100)).toEqual([
      ["a", 1],
      ["", 2],
      ["b", 3],
    ]);
  });

  it("decodes multi-byte characters split across every possible chunk boundary", () => {
    const text = "한국어 줄\n😀 emoji line\nälpha";
    const bytes = encode(text);
    for (let size = 1; size <= 7; size++) {
      expect(splitInChunks(bytes, size).map(([line]) => line)).toEqual(["한국어 줄", "😀 emoji line", "älpha"]);
    }
  });

  it("strips a UTF-8 BOM, also when it arrives one byte at a time", () => {
    const bytes = encode("\uFEFF{\"a\":1}\nx");
    expect(splitInChunks(bytes, 1)).toEqual([
      ['{"a":1}', 1],
      ["x", 2],
    ]);
    expect(splitInChunks(bytes, 2)[0]?.[0]).toBe('{"a":1}');
  });

  it("strips CR of CRLF line ends, including a CR and LF in different chunks", () => {
    const bytes = encode("one\r\ntwo\r\nthree\r\n");
    for (const size of [1, 4, 100]) {
      expect(splitInChunks(bytes, size).map(([line]) => line)).toEqual(["one", "two", "three"]);
    }
  });

  it("produces nothing for empty input and keeps short non-BOM input", () => {
    expect(splitInChunks(new Uint8Array(0), 10)).toEqual([]);
    expect(splitInChunks(encode("\u00ef"), 10)).toEqual([["\u00ef", 1]]);
    expect(splitBytesLines(encode("x"), decode, () => {})).toBe(1);
  });

  it("does not keep references to the caller's buffer", () => {
    const splitter = new LineSplitter(decode);
    const lines: string[] = [];
    const chunk = encode("abc");
    splitter.push(chunk, (t) => lines.push(t));
    chunk.fill(0x7a); // caller reuses its buffer
    splitter.push(encode("d\n"), (t) => lines.push(t));
    expect(lines).toEqual(["abcd"]);
  });
});

describe("LineSplitter: where each line is in the input", () => {
  /** Each line's bytes, and the input's bytes at the offset it is handed with. */
  function linesAndOffsets(bytes: Uint8Array, size: number): { line: string; atOffset: string; offset: number }[] {
    const out: { line: string; atOffset: string; offset: number }[] = [];
    const splitter = new LineSplitter(decode);
    const onLine = (data: Uint8Array, start: number, end: number, _lineNumber: number, offset: number) =>
      out.push({ line: decode(data.subarray(start, end)), atOffset: decode(bytes.subarray(offset, offset + end - start)), offset });
    for (let i = 0; i < bytes.length; i += size) splitter.pushBytes(bytes.subarray(i, i + size), onLine);
    splitter.endBytes(onLine);
    return out;
  }

  it("hands each line with the offset of its first byte, whatever the chunks, after a BOM and with CRLF ends", () => {
    const text = "\uFEFF{\"a\":\"한국어\"}\r\n\r\nsecond line 😀\nthird\r\nlast";
    const bytes = encode(text);
    for (const size of [1, 2, 3, 5, 7, 16, 1000]) {
      const lines = linesAndOffsets(bytes, size);
      expect(lines.map((item) => item.line)).toEqual(['{"a":"한국어"}', "", "second line 😀", "third", "last"]);
      for (const item of lines) expect(item.atOffset).toBe(item.line);
      expect(lines[0]!.offset).toBe(3); // after the BOM's three bytes
    }
  });

  it("counts the bytes that waited to know whether they were a BOM", () => {
    const bytes = encode("ab\ncd");
    for (const size of [1, 2]) expect(linesAndOffsets(bytes, size).map((item) => item.offset)).toEqual([0, 3]);
  });
});

describe("splitTextLines", () => {
  it("handles BOM, CRLF and a missing final newline", () => {
    expect(splitTextLines("\uFEFFa\r\nb\nc")).toEqual(["a", "b", "c"]);
    expect(splitTextLines("a\n")).toEqual(["a"]);
    expect(splitTextLines("")).toEqual([]);
    expect(splitTextLines("\n")).toEqual([""]);
  });
});
