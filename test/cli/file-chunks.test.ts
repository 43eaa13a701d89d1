// A session read in small chunks through one reused buffer (the CLI's streamed read) gives the same
// session as its whole bytes, for every agent's committed fixtures and a BOM split across chunks;
// the CLI's chunk reader reports a missing file at the call, as readFile does.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { fileChunks } from "../../src/cli/fileChunks";
import { loadAnySession } from "../../src/cli/inputs";
import { readSessionBytes, readSessionChunks } from "../../src/core/session/index";
import { decodedSession } from "../support/decoded";
import type { Session } from "../../src/core/model";

const decoder = new TextDecoder("utf-8");
const decode = (bytes: Uint8Array) => decoder.decode(bytes);

/** Chunks of `bytes`, all in one buffer that is overwritten for each chunk. */
function* reusedChunks(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  const buffer = new Uint8Array(size);
  for (let at = 0; at < bytes.length; at += size) {
    const piece = bytes.subarray(at, at + size);
    buffer.fill(0x7b);
    buffer.set(piece);
    yield buffer.subarray(0, piece.length);
  }
}

function committedSessions(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(jsonl|json)$/.test(entry.name)) found.push(full);
    }
  };
  walk("test/fixtures");
  return found;
}

it("reads every committed fixture the same in 1-, 7- and 4096-byte chunks as whole", () => {
  const files = committedSessions();
  expect(files.length).toBeGreaterThan(10);
  let compared = 0;
  for (const file of files) {
    const bytes = new Uint8Array(readFileSync(file));
    let whole: unknown;
    try {
      whole = readSessionBytes(bytes, path.basename(file), decode);
    } catch {
      continue; // not a session file (a capture, an expectation)
    }
    for (const size of [1, 7, 4096]) expect(decodedSession(readSessionChunks(reusedChunks(bytes, size), path.basename(file), decode))).toEqual(decodedSession(whole as Session));
    compared++;
  }
  expect(compared).toBeGreaterThan(5);
});

it("drops a BOM cut by the first chunk and keeps a 2-byte file that only looks like one", () => {
  const line = '{"type":"session","version":3,"id":"s","timestamp":"2026-11-29T08:00:00.000Z","cwd":"/w"}';
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(line)]);
  expect(readSessionChunks(reusedChunks(bytes, 2), "bom.jsonl", decode)).toEqual(readSessionBytes(bytes.subarray(3), "bom.jsonl", decode));
  const short = new Uint8Array([0xef, 0xbb]);
  // Two bytes that could start a BOM are content (no reader knows them): the same error either way.
  const failure = (read: () => unknown) => {
    try {
      read();
    } catch (error) {
      return (error as Error).message;
    }
    return "read";
  };
  const whole = failure(() => readSessionBytes(short, "x.jsonl", decode));
  expect(whole).toMatch(/x\.jsonl/);
  expect(failure(() => readSessionChunks(reusedChunks(short, 1), "x.jsonl", decode))).toBe(whole);
});

it("streams a file from disk in chunks and fails on a missing file at once", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "contextscope-chunks-"));
  const file = path.join(dir, "s.jsonl");
  const lines = ['{"type":"session","version":3,"id":"s","timestamp":"2026-11-29T08:00:00.000Z","cwd":"/w"}'];
  for (let i = 0; i < 50; i++) lines.push(JSON.stringify({ type: "message", id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}`, timestamp: "2026-11-29T08:00:01.000Z", message: { role: "user", content: `노트 ${i}`, timestamp: 1 } }));
  writeFileSync(file, lines.join("\n"));
  const chunks = [...fileChunks(file, 64)].map((chunk) => chunk.length);
  expect(chunks.length).toBeGreaterThan(10);
  expect(chunks.reduce((a, b) => a + b, 0)).toBe(readFileSync(file).length);
  expect(() => fileChunks(path.join(dir, "missing.jsonl"))).toThrow(/ENOENT/);
  const io = { stdout: () => {}, stderr: () => {}, readFile: (f: string) => new Uint8Array(readFileSync(f)) };
  const streamed = await loadAnySession({ ...io, readFileChunks: (f: string) => fileChunks(f, 64) }, file);
  expect(streamed).toEqual(await loadAnySession(io, file));
  expect(streamed.entries).toHaveLength(50);
  await expect(loadAnySession({ ...io, readFileChunks: (f: string) => fileChunks(f, 64) }, path.join(dir, "missing.jsonl"))).rejects.toThrow(/cannot read session file .*no such file/);
});
