// The CLI leaves a session's large texts in its file (src/cli/fileTextSource.ts): reads give the
// literal's bytes, views handed out stay valid after later reads, a file rewritten under a
// session fails loudly, only a regular file is a source, and a command's output is the same whether the
// texts stay in the file or are copied into memory.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { fileChunks } from "../../src/cli/fileChunks";
import { fileTextSource } from "../../src/cli/fileTextSource";
import { loadAnySession } from "../../src/cli/inputs";
import { runCli } from "../../src/cli/run";
import type { CliIo } from "../../src/cli/io";
import { decodeStoredText, isStoredText, releaseTextStore, SOURCE_CHUNK, type StoredText } from "../../src/core/text/storedText";
import { describeShared } from "../support/fixtures";

const dir = mkdtempSync(path.join(tmpdir(), "contextscope-source-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A pi session whose user messages are `texts` (each large enough to be kept as bytes), each answered. */
function piSession(texts: string[]): string {
  const lines = ['{"type":"session","version":3,"id":"s","timestamp":"2026-11-29T08:00:00.000Z","cwd":"/w"}'];
  const usage = { input: 100, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 105, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  texts.forEach((text, i) => {
    const parentId = i === 0 ? null : `a${i - 1}`;
    lines.push(JSON.stringify({ type: "message", id: `u${i}`, parentId, timestamp: "2026-11-29T08:00:01.000Z", message: { role: "user", content: text, timestamp: 1 } }));
    const reply = { role: "assistant", content: [{ type: "text", text: `noted ${i}` }], api: "openai-completions", provider: "openai", model: "gpt-4.1", usage, stopReason: "stop", timestamp: 2 };
    lines.push(JSON.stringify({ type: "message", id: `a${i}`, parentId: `u${i}`, timestamp: "2026-11-29T08:00:02.000Z", message: reply }));
  });
  return `${lines.join("\n")}\n`;
}

function storedTexts(value: unknown): StoredText[] {
  if (isStoredText(value)) return [value];
  if (Array.isArray(value)) return value.flatMap(storedTexts);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(storedTexts);
  return [];
}

const io = (withSource: boolean, output: string[] = []): CliIo => ({
  stdout: (text) => void output.push(text),
  stderr: () => undefined,
  readFile: (file) => new Uint8Array(readFileSync(file)),
  readFileChunks: (file) => fileChunks(file, 4096),
  ...(withSource ? { openTextSource: fileTextSource } : {}),
});

const TEXTS = Array.from({ length: 40 }, (_, i) => `note ${i}: ${"한국어 \"quoted\" line\n".repeat(60 + i * 7)}`);

it("reads each literal's bytes from the file, and a view handed out stays valid after later reads", () => {
  const file = path.join(dir, "read.jsonl");
  writeFileSync(file, piSession(TEXTS));
  const bytes = readFileSync(file);
  const source = fileTextSource(file)!;
  expect(source).not.toBeNull();
  const first = bytes.indexOf('"note 0:') + 1;
  const length = bytes.indexOf('","timestamp"', first) - first;
  const view = source.read(first, length);
  const copy = Uint8Array.from(view);
  // A read far away replaces the window; the first view must still hold its bytes.
  const last = bytes.lastIndexOf('"note 39:') + 1;
  const lastLength = bytes.indexOf('","timestamp"', last) - last;
  expect(Buffer.from(source.read(last, lastLength)).toString()).toBe(bytes.subarray(last, last + lastLength).toString());
  expect(Uint8Array.from(view)).toEqual(copy);
  expect(JSON.parse(`"${Buffer.from(view).toString()}"`)).toBe(TEXTS[0]);
  source.close!();
  expect(() => source.read(first, length)).toThrow(/closed/);
});

it("keeps a session's texts in its file, and reading them after the file was rewritten fails with the reason", async () => {
  const file = path.join(dir, "rewritten.jsonl");
  writeFileSync(file, piSession(TEXTS));
  const session = await loadAnySession(io(true), file);
  const kept = session.entries.flatMap((entry) => storedTexts(entry.raw));
  expect(kept).toHaveLength(TEXTS.length);
  expect(kept.every((text) => text.chunk === SOURCE_CHUNK)).toBe(true);
  // The store holds each text's first bytes only (32 a text), never a text.
  expect(session.textStore!.used).toBe(32 * kept.length);
  expect(kept.map(decodeStoredText)).toEqual(TEXTS);
  releaseTextStore(session.textStore!);
  expect(() => decodeStoredText(kept[5]!)).toThrow(/released|closed/);

  const again = await loadAnySession(io(true), file);
  const keptAgain = again.entries.flatMap((entry) => storedTexts(entry.raw));
  // The same bytes shifted by one before any text is read back: none stands where it stood.
  writeFileSync(file, ` ${piSession(TEXTS)}`);
  expect(() => decodeStoredText(keptAgain[30]!)).toThrow(/changed while it was being read/);
  releaseTextStore(again.textStore!);
});

it("takes only a regular file as a source: not a device, a folder or a missing file", () => {
  // A pipe or a device cannot be read twice at an offset.
  expect(fileTextSource("/dev/null")).toBeNull();
  expect(fileTextSource(dir)).toBeNull();
  expect(fileTextSource(path.join(dir, "missing.jsonl"))).toBeNull();
});

/** The same output whether the texts of `input` stay in the file or are copied into memory. */
async function expectSameOutputs(input: string): Promise<void> {
  for (const argv of [["requests", input], ["prefix", input, "--tokenizer", "estimate"], ["prefix", input]]) {
    const inFile: string[] = [];
    const copied: string[] = [];
    expect(await runCli(argv, io(true, inFile))).toBe(0);
    expect(await runCli(argv, io(false, copied))).toBe(0);
    expect(inFile.join("").length).toBeGreaterThan(100);
    expect(inFile.join("")).toBe(copied.join(""));
  }
}

it("prints the same whether texts stay in the file or are copied", async () => {
  const file = path.join(dir, "same.jsonl");
  writeFileSync(file, piSession(TEXTS));
  await expectSameOutputs(file);
});

describeShared("texts left in real users' files", (shared) => {
  it("prints the same for a real pi session and a real Claude Code transcript", { timeout: 300_000 }, async () => {
    await expectSameOutputs(path.join(shared.dir, "realworld/pi/pi-mono-large-session-v1.jsonl"));
    await expectSameOutputs(path.join(shared.dir, "realworld/claude-code/entire-6309-v2.1.39-compaction-4subagents.jsonl"));
  });
});
