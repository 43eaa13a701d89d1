// A large dropped file leaves its long texts in the file (src/features/open/fileTextSource.ts):
// the worker's read keeps where each text is, not a copy, reads it back through the worker's
// synchronous File reader when a stage needs it, and every output equals the string session's.
// A file below the size bound, one followed live, a compressed one (offsets of decoded bytes are
// not the file's) and a realm without a synchronous reader copy their texts as before; a file that
// changed on disk after it was opened is said in words when a text is read back.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Session } from "../../../src/core/model";
import { readSessionText } from "../../../src/core/session/index";
import { analyzeSession, buildTurnRequest } from "../../../src/core/session/pipeline";
import { releaseSessionTexts } from "../../../src/core/session/textStores";
import { setReadersKeepStoredTexts } from "../../../src/core/text/storedTextsSwitch";
import { decodeStoredText, isStoredText, SOURCE_CHUNK, type StoredText } from "../../../src/core/text/storedText";
import { stringifyWithTexts, withTextsDecoded } from "../../../src/core/text/text";
import { readSession, type ReadControl } from "../../../src/features/open/readSession";

const FIXTURES = path.resolve(__dirname, "../../fixtures");
const FILES = [
  "pi/rpc-anthropic-manualcompact/session/--home-dev-pi-rpc-anthropic-manualcompact-lighthouse-notes--/2026-11-29T19-25-11-888Z_01a228c4-bd4f-721d-a5de-0c91492dc264.jsonl",
  "claude/print-autocompact-manualcompact/session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl",
  "codex/exec-autocompact/session/sessions/2026/11/29/rollout-2026-11-29T19-25-29-01a228c5-0111-7641-8ea4-161c4b3a44d5.jsonl",
].map((file) => path.join(FIXTURES, file));
/** A Gemini CLI recording with a chat compression (its `<state_snapshot>` user message). */
const GEMINI_FILE = path.resolve(__dirname, "../../../../shared/fixtures/gemini-cli/p-resume-autocompress/session/tmp/lighthouse-notes/chats/session-2026-12-03T09-09-04c32c61.jsonl");
/**
 * Sessions whose analysis reads no text back from the file (pi, with its compaction summaries;
 * Gemini CLI, with its snapshot tags). A Claude Code analysis matches the request records the
 * transcript holds by their messages' contents, which it reads.
 */
const ANALYSIS_READS_NOTHING = new Set([FILES[0], FILES[2], GEMINI_FILE]);
/** How many first bytes of a text left in the file the store keeps (storedText.ts). */
const HEAD_BYTES = 32;

/** Bytes behind each slice the code under test takes, so the stand-in reader can give them. */
const SLICE_BYTES = new WeakMap<Blob, Uint8Array>();
let reads = 0;
/** Set when the file "changed on disk": the browser's reader then refuses, as it does. */
let refuse = false;

/** A File whose slices the stand-in synchronous reader can read (Node has no FileReaderSync). */
class DroppedFile extends File {
  private readonly contents: Uint8Array<ArrayBuffer>;
  constructor(contents: Uint8Array, name: string) {
    const copy = new Uint8Array(contents);
    super([copy], name);
    this.contents = copy;
  }
  override slice(start?: number, end?: number): Blob {
    const blob = super.slice(start, end);
    SLICE_BYTES.set(blob, this.contents.subarray(start, end));
    return blob;
  }
}

/** The worker's synchronous File reader, as the browser gives it to a worker. */
class StandInFileReaderSync {
  readAsArrayBuffer(blob: Blob): ArrayBuffer {
    if (refuse) throw new DOMException("The requested file could not be read", "NotReadableError");
    reads++;
    const bytes = SLICE_BYTES.get(blob);
    if (!bytes) throw new Error("a slice that was not taken from a dropped file");
    return bytes.slice().buffer;
  }
}

const control = (extra: Partial<ReadControl> = {}): ReadControl => ({ isCancelled: () => false, onProgress: () => undefined, ...extra });

function storedTexts(value: unknown): StoredText[] {
  if (isStoredText(value)) return [value];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(storedTexts);
}

/** Every turn's request and the analysis, as text. */
function outputs(session: Session): string[] {
  const analysis = analyzeSession(session, {});
  return [stringifyWithTexts(analysis), ...analysis.turns.map((turn) => stringifyWithTexts(buildTurnRequest(session, {}, turn.turn).body))];
}

/**
 * A compaction summary's texts, which readers copy into the store while the line is read: pi's
 * compaction entry's summary, a Claude Code compact-summary line's message.
 */
function summaryTexts(entry: Session["entries"][number]): StoredText[] {
  if (entry.type === "compaction") return storedTexts(entry.raw.summary);
  if (entry.type === "user" && entry.raw.isCompactSummary === true) return storedTexts(entry.raw.message);
  return [];
}

async function read(file: string, extra: Partial<ReadControl>, wrap: (bytes: Uint8Array) => Uint8Array = (bytes) => bytes): Promise<Session> {
  const bytes = new Uint8Array(wrap(readFileSync(file)));
  return (await readSession({ kind: "file", file: new DroppedFile(bytes, path.basename(file)) }, control(extra))).session;
}

beforeAll(() => {
  setReadersKeepStoredTexts(true);
  (globalThis as { FileReaderSync?: unknown }).FileReaderSync = StandInFileReaderSync;
});
afterAll(() => {
  delete (globalThis as { FileReaderSync?: unknown }).FileReaderSync;
});

describe("a large dropped file's long texts stay in the file", () => {
  for (const file of [...FILES, GEMINI_FILE]) {
    it(`${path.basename(path.dirname(file))}/${path.basename(file)}: texts left in the file, read back, every output the string session's`, async () => {
      const before = reads;
      const session = await read(file, { textsInFileFrom: 0 });
      // The analysis reads nothing back from the file: what it decodes whole (a compaction's
      // summary) was copied while its line was read, and what it only tests the start of (a
      // snapshot tag) is answered from the text's first bytes, kept in the store.
      analyzeSession(session, {});
      if (ANALYSIS_READS_NOTHING.has(file)) expect(reads).toBe(before);
      const kept = session.entries.flatMap((entry) => storedTexts(entry.raw));
      const summaries = new Set(session.entries.flatMap(summaryTexts));
      const inFile = kept.filter((text) => text.chunk === SOURCE_CHUNK);
      const copied = kept.filter((text) => text.chunk !== SOURCE_CHUNK);
      expect(inFile.length).toBeGreaterThan(0);
      expect(copied.filter((text) => !summaries.has(text))).toEqual([]);
      expect(inFile.filter((text) => summaries.has(text))).toEqual([]);
      // The store holds the copied summaries (and the first bytes each had while it was in the
      // file) and each other text's first bytes, nothing more.
      const store = session.textStore!;
      const held = store.chunks.slice(0, -1).reduce((sum, chunk) => sum + chunk.byteLength, 0) + store.used;
      const align = (bytes: number) => (bytes + 3) & ~3;
      expect(held).toBeLessThanOrEqual(copied.reduce((sum, text) => sum + align(text.byteLength) + HEAD_BYTES, 0) + inFile.reduce((sum, text) => sum + align(Math.min(HEAD_BYTES, text.byteLength)), 0));
      expect(inFile.every((text) => text.headChunk !== undefined)).toBe(true);
      const strings = readSessionText(readFileSync(file, "utf8"), path.basename(file));
      expect(withTextsDecoded(session.entries)).toEqual(strings.entries);
      expect(outputs(session)).toEqual(outputs(strings));
      expect(reads).toBeGreaterThan(before);
      releaseSessionTexts(session);
    });
  }

  it("a file below the size bound, one followed live, and a compressed one copy their texts", async () => {
    const [file] = FILES;
    const size = readFileSync(file!).byteLength;
    for (const extra of [{ textsInFileFrom: size + 1 }, { textsInFileFrom: 0, live: true }, {}]) {
      const session = await read(file!, extra);
      const kept = session.entries.flatMap((entry) => storedTexts(entry.raw));
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.filter((text) => text.chunk === SOURCE_CHUNK)).toEqual([]);
      releaseSessionTexts(session);
    }
    const gzipped = await read(file!, { textsInFileFrom: 0 }, (bytes) => gzipSync(bytes));
    expect(gzipped.entries.flatMap((entry) => storedTexts(entry.raw)).filter((text) => text.chunk === SOURCE_CHUNK)).toEqual([]);
    expect(outputs(gzipped)).toEqual(outputs(readSessionText(readFileSync(file!, "utf8"), path.basename(file!))));
    releaseSessionTexts(gzipped);
  });

  it("copies where no synchronous reader exists (the page's main thread)", async () => {
    delete (globalThis as { FileReaderSync?: unknown }).FileReaderSync;
    try {
      const session = await read(FILES[0]!, { textsInFileFrom: 0 });
      expect(session.entries.flatMap((entry) => storedTexts(entry.raw)).filter((text) => text.chunk === SOURCE_CHUNK)).toEqual([]);
      releaseSessionTexts(session);
    } finally {
      (globalThis as { FileReaderSync?: unknown }).FileReaderSync = StandInFileReaderSync;
    }
  });

  it("says in words that the file changed on disk when a text can no longer be read from it", async () => {
    const session = await read(FILES[0]!, { textsInFileFrom: 0 });
    const [text] = session.entries.flatMap((entry) => storedTexts(entry.raw));
    refuse = true;
    try {
      expect(() => decodeStoredText(text!)).toThrow(/can no longer be read: it changed on disk after it was opened.*Open the file again/);
    } finally {
      refuse = false;
      releaseSessionTexts(session);
    }
  });
});
