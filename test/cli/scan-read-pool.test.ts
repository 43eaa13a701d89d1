// The scan threads' reused read buffer (src/cli/scan/readPool.ts): a job's files read whole and in
// order, into the same memory from job to job, a grown buffer keeping what the job read before;
// and discovery's file heads, read into one buffer too.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reusedBufferReader } from "../../src/cli/scan/readPool";
import { headReader } from "../../src/cli/scan/discover";
import { intakeHeadLength } from "../../src/core/intake/index";

const folder = mkdtempSync(path.join(tmpdir(), "contextscope-read-pool-"));
const write = (name: string, text: string): string => {
  const file = path.join(folder, name);
  writeFileSync(file, text);
  return file;
};
const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString("utf8");

describe("reusedBufferReader", () => {
  it("reads each file of a job whole, in order, and the next job into the same memory", () => {
    const read = reusedBufferReader();
    const big = write("big.jsonl", `${"é".repeat(40_000)}\n`);
    const small = write("small.jsonl", '{"a":1}\n');
    const first = read([big, small]);
    expect(first.map(text)).toEqual([`${"é".repeat(40_000)}\n`, '{"a":1}\n']);
    const second = read([small]);
    expect(text(second[0]!)).toBe('{"a":1}\n');
    // The same buffer, not a new one per file.
    expect(second[0]!.buffer).toBe(first[0]!.buffer);
  });

  it("keeps a job's earlier files when a later one grows the buffer", () => {
    const read = reusedBufferReader();
    const files = [write("one.jsonl", "one\n"), write("two.jsonl", `${"x".repeat(100_000)}\n`), write("three.jsonl", `${"y".repeat(300_000)}\n`)];
    const bytes = read(files);
    expect(bytes.map((part) => part.length)).toEqual([4, 100_001, 300_001]);
    expect(text(bytes[0]!)).toBe("one\n");
    expect(text(bytes[1]!)).toBe(`${"x".repeat(100_000)}\n`);
    expect(text(bytes[2]!)).toBe(`${"y".repeat(300_000)}\n`);
  });

  it("throws Node's error for a file that cannot be opened", () => {
    expect(() => reusedBufferReader()([path.join(folder, "missing.jsonl")])).toThrow(/ENOENT/);
  });
});

describe("discovery's head reader", () => {
  it("gives each file's name, size and the head the intake asks for, in one buffer kept from file to file", () => {
    const read = headReader();
    const large = write("large.jsonl", `${"a".repeat(300 * 1024)}\n`);
    const small = write("small-head.jsonl", '{"b":2}\n');
    const first = read(large);
    expect(first).toMatchObject({ name: "large.jsonl", size: 300 * 1024 + 1 });
    expect(first.head.length).toBe(intakeHeadLength("large.jsonl", 300 * 1024 + 1, { together: true, follow: true }));
    const second = read(small);
    expect(second).toMatchObject({ name: "small-head.jsonl", size: 8 });
    expect(Buffer.from(second.head).toString()).toBe('{"b":2}\n');
    expect(second.head.buffer).toBe(first.head.buffer);
  });
});
