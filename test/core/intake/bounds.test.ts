// Bounds with named warnings: a line over the line bound is skipped with its number and size and
// every other line kept (plain and compressed input alike); a container decoding far past its
// file's size is stopped with a warning, the lines before kept; warnings of one kind are counted
// beyond a cap, not each kept. Big inputs are generated here; small bounds stand for the defaults.
import { gzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { gzipContainer } from "../../../src/core/intake/containers/gzip";
import { DEFAULT_READ_BOUNDS, type ReadBounds } from "../../../src/core/intake/bounds";
import { LineSplitter } from "../../../src/core/readers/lines";
import { capWarningsPerKind } from "../../../src/core/readers/finish";
import { readSessionChunks } from "../../../src/core/session/read";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const decode = (bytes: Uint8Array): string => decoder.decode(bytes);
const line = (value: unknown): string => JSON.stringify(value);

const PI_LINES = [
  line({ type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" }),
  line({ type: "message", id: "u1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: [{ type: "text", text: "hello" }], timestamp: 1 } }),
  line({ type: "message", id: "a1", parentId: "u1", timestamp: "2026-01-01T00:00:02.000Z", message: { role: "assistant", content: [{ type: "text", text: "hi" }], api: "openai-completions", provider: "openai", model: "gpt-4o", stopReason: "stop", timestamp: 2 } }),
];

beforeAll(() => gzipContainer.loadDecoder());

const small = (over: Partial<ReadBounds>): ReadBounds => ({ ...DEFAULT_READ_BOUNDS, ...over });

/** The bytes cut into chunks of `size`, as a file is read. */
function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

describe("the line bound", () => {
  it("skips a long line (inside one chunk or across many) and hands on every other", () => {
    for (const chunkSize of [7, 64, 100_000]) {
      const lines: [number, string][] = [];
      const skipped: [number, number][] = [];
      const splitter = new LineSplitter(decode, 100, (number, bytes) => skipped.push([number, bytes]));
      const text = `short\n${"x".repeat(5000)}\nafter\n${"y".repeat(101)}`;
      for (const chunk of chunked(encoder.encode(text), chunkSize)) splitter.push(chunk, (t, n) => lines.push([n, t]));
      splitter.end((t, n) => lines.push([n, t]));
      expect(lines, `chunks of ${chunkSize}`).toEqual([[1, "short"], [3, "after"]]);
      expect(skipped).toEqual([[2, 5000], [4, 101]]);
    }
  });

  it("a session with one line over the bound keeps every other line and names it", () => {
    const big = line({ type: "message", id: "x1", parentId: "a1", timestamp: "2026-01-01T00:00:03.000Z", message: { role: "user", content: [{ type: "text", text: "z".repeat(200_000) }], timestamp: 3 } });
    const text = [...PI_LINES, big, line({ type: "message", id: "u2", parentId: "a1", timestamp: "2026-01-01T00:00:04.000Z", message: { role: "user", content: [{ type: "text", text: "again" }], timestamp: 4 } })].join("\n");
    const bounds = small({ maxLineBytes: 100_000 });
    for (const bytes of [encoder.encode(text), gzipSync(encoder.encode(text))]) {
      const session = readSessionChunks(chunked(bytes, 65_536), "long-line.jsonl", decode, undefined, undefined, bounds);
      expect(session.entries.map((entry) => entry.id)).toEqual(["u1", "a1", "u2"]);
      expect(session.warnings).toContainEqual({ line: 4, reason: expect.stringMatching(/a line of 200\.\d kB is over the line bound \(100\.0 kB\): skipped/) });
    }
  });
});

describe("the decoded-size bound of a container", () => {
  it("stops a gzip bomb of blank lines with a warning, keeping the lines before it", () => {
    const bomb = gzipSync(encoder.encode(`${PI_LINES.join("\n")}\n${"\n".repeat(20 * 1024 * 1024)}`), { level: 9 });
    expect(bomb.length).toBeLessThan(100_000);
    const session = readSessionChunks(chunked(bomb, 65_536), "bomb.jsonl.gz", decode, undefined, undefined, small({ maxDecodedRatio: 50 }));
    expect(session.entries.map((entry) => entry.id)).toEqual(["u1", "a1"]);
    expect(session.warnings.some((w) => /truncated|not valid JSON/.test(w.reason))).toBe(false);
    expect(session.warnings.map((w) => w.reason).join("\n")).toMatch(/the decoded data reached .* over the bound \(50 × the file.*decoding stopped/);
  });

  it("an absolute cap, whatever the ratio", () => {
    const plain = encoder.encode(`${PI_LINES.join("\n")}\n${"a\n".repeat(2 * 1024 * 1024)}`);
    const session = readSessionChunks(chunked(gzipSync(plain), 65_536), "big.jsonl.gz", decode, undefined, undefined, small({ maxDecodedBytes: 1024 * 1024 }));
    expect(session.warnings.some((w) => /decoding stopped/.test(w.reason))).toBe(true);
  });

  it("a normal compressed session is not cut", () => {
    const session = readSessionChunks([gzipSync(encoder.encode(PI_LINES.join("\n")))], "ok.jsonl.gz", decode);
    expect(session.warnings).toEqual([]);
    expect(session.entries).toHaveLength(2);
  });
});

describe("warnings per kind", () => {
  it("keeps the first of each kind and counts the rest", () => {
    const warnings = [
      ...Array.from({ length: 1000 }, (_, i) => ({ line: i + 1, reason: `line ${i + 1} is not JSON` })),
      { line: 5, reason: "another kind" },
    ];
    const capped = capWarningsPerKind(warnings, 10);
    expect(capped).toHaveLength(12);
    expect(capped.slice(0, 10).map((w) => w.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(capped).toContainEqual({ line: 5, reason: "another kind" });
    expect(capped.at(-1)!.reason).toMatch(/^990 more warnings of this kind not listed \(at most 10 of a kind are kept\): line 1 is not JSON$/);
  });

  it("a session of many bad lines lists a bounded number of warnings", () => {
    const text = [PI_LINES[0], ...Array.from({ length: 5000 }, () => "{not json"), PI_LINES[1]].join("\n");
    const session = readSessionChunks([encoder.encode(text)], "bad.jsonl", decode);
    expect(session.warnings.length).toBeLessThanOrEqual(DEFAULT_READ_BOUNDS.maxWarningsPerKind + 5);
    expect(session.warnings.some((w) => /more warnings of this kind not listed/.test(w.reason))).toBe(true);
    expect(session.entries.map((entry) => entry.id)).toEqual(["u1"]);
  });
});
