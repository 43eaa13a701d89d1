// The page's line split for the summary pass (`bytesSummaryLines`): a line the summariser refuses
// is stepped over undecoded (its markers searched as bytes, its head decoded from its first bytes),
// and the lines it yields are those a decode of each whole piece gave, byte-order marks, invalid
// UTF-8 and \r included.
import { describe, expect, it, vi } from "vitest";

const decoded = vi.hoisted(() => ({ bytes: 0 }));
vi.mock("../../../src/core/util/utf8", async (original) => {
  const actual = await original<typeof import("../../../src/core/util/utf8")>();
  return {
    ...actual,
    utf8Decode: (bytes: Uint8Array) => {
      decoded.bytes += bytes.length;
      return actual.utf8Decode(bytes);
    },
  };
});

import { bytesSummaryLines } from "../../../src/core/session/summary-pass";
import type { LineWanted } from "../../../src/core/agents/descriptor";

/** The split as it was made before, decoding each piece whole (the reference the lines must equal). */
function* pieceDecodedLines(bytes: Uint8Array, wanted?: LineWanted, chunk = 4 * 1024 * 1024): Generator<string> {
  const decoder = new TextDecoder();
  let from = 0;
  let size = Math.min(64 * 1024, chunk);
  while (from < bytes.length) {
    let to = Math.min(bytes.length, from + size);
    size = Math.min(size * 2, chunk);
    if (to < bytes.length) {
      const newline = bytes.indexOf(10, to - 1);
      to = newline < 0 ? bytes.length : newline + 1;
    }
    const text = decoder.decode(bytes.subarray(from, to));
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf("\n", start);
      if (end < 0) end = text.length;
      const last = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
      const line = text.slice(start, last);
      if (!wanted || wanted((marker) => line.includes(marker), (length) => line.slice(0, length))) yield line;
      start = end + 1;
    }
    from = to;
  }
}

const encoder = new TextEncoder();
const concat = (...parts: (string | number[] | Uint8Array)[]): Uint8Array => {
  const chunks = parts.map((part) => (typeof part === "string" ? encoder.encode(part) : part instanceof Uint8Array ? part : Uint8Array.from(part)));
  const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
};
const BOM = [0xef, 0xbb, 0xbf];

/** Wants lines naming an assistant, or whose head (by characters) says `"type":"keep"`. */
const wanted: LineWanted = (contains, head) => contains('"assistant"') || head(12) === '{"type":"ke\u00e9';

describe("bytesSummaryLines", () => {
  it("decodes only the lines the summariser accepts, and their heads' first bytes", () => {
    const refused = `{"type":"user","content":"${"x".repeat(100_000)}"}\n`;
    const bytes = concat(refused, '{"type":"assistant","n":1}\n', refused, refused, '{"type":"assistant","n":2}\n');
    decoded.bytes = 0;
    expect([...bytesSummaryLines(bytes, (contains) => contains('"assistant"'))]).toEqual(['{"type":"assistant","n":1}', '{"type":"assistant","n":2}']);
    // Decoding every byte (the whole pieces) would be over 300 000.
    expect(decoded.bytes).toBe(2 * '{"type":"assistant","n":1}'.length);
    decoded.bytes = 0;
    expect([...bytesSummaryLines(bytes, (_contains, head) => head(10).startsWith('{"type":"a'))]).toHaveLength(2);
    expect(decoded.bytes).toBeLessThan(1000);
  });

  it("gives the lines a decode of each whole piece gave", () => {
    const inputs = [
      concat(BOM, '{"type":"assistant"}\r\n', BOM, '{"a":1}\n', BOM),
      concat(BOM),
      concat(BOM, BOM, "x\n"),
      concat('{"type":"ke\u00e9p"}\n', [0xe2, 0x82], "\n", [0xe2], "\r\n", [0xff, 0xfe], '"assistant"\n', [0xf0, 0x9f, 0x98], '"assistant"', [0x80, 0x80], "\n"),
      concat("\u{1F600}".repeat(30), '"assistant"\n', "\n\n\r\n", "\u00e9".repeat(20), "\n", "no newline at the end"),
      concat(...Array.from({ length: 400 }, (_, i) => (i % 7 === 0 ? concat(BOM, `{"assistant":${i}}\n`) : `{"type":"ke\u00e9p","i":${i},"pad":"${"\u00e9".repeat(i % 50)}"}\r\n`))),
    ];
    for (const bytes of inputs) {
      for (const filter of [undefined, wanted]) {
        for (const chunk of [4 * 1024 * 1024, 5, 97, 1000]) {
          expect([...bytesSummaryLines(bytes, filter, chunk)]).toEqual([...pieceDecodedLines(bytes, filter, chunk)]);
        }
      }
    }
  });
});
