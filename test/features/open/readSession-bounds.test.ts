// The page's worker reads with the same bounds as the CLI (src/core/intake/bounds.ts, its
// defaults): a line over the line bound is skipped with its number and size and every other line
// kept, in a dropped plain file and a decoded container alike; a container decoding past its
// decoded-size bound stops with the bound's warning, the lines before kept; a Zstandard file
// with a damaged frame, a long window or skippable frames opens with every good frame's lines;
// warnings of one kind are counted beyond the cap.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_READ_BOUNDS } from "../../../src/core/intake/bounds";
import { readSession } from "../../../src/features/open/readSession";
import { bombZstd, longLineZstd } from "../../support/zstdBuild";

const DIR = path.resolve(__dirname, "../../fixtures/hostile/zstd");
const SESSION = readFileSync(path.join(DIR, "session.jsonl"), "utf8");
const LINES = SESSION.trimEnd().split("\n");
const ALL_IDS = ["u1", "a1", "u2", "a2", "u3", "a3", "u4", "a4", "u5", "a5", "u6", "a6"];
const control = { isCancelled: () => false, onProgress: () => undefined };

async function dropped(name: string, parts: BlobPart[]) {
  const { session } = await readSession({ kind: "file", file: new File(parts, name) }, control);
  return { ids: session.entries.map((entry) => entry.id), warnings: session.warnings };
}

const LONG_LINE = /^a line of 2\d\d\.\d MB is over the line bound \(268\.4 MB\): skipped; every other line is read$/;

describe("the worker's read bounds", () => {
  it("skips a line over the line bound in a dropped plain file, keeping every other line", { timeout: 60_000 }, async () => {
    const filler = new Uint8Array(1024 * 1024).fill(0x78);
    const long = Array.from({ length: DEFAULT_READ_BOUNDS.maxLineBytes / filler.length + 1 }, () => filler);
    const read = await dropped("long.jsonl", [`${LINES.slice(0, 5).join("\n")}\n`, ...long, `\n${LINES.slice(5).join("\n")}\n`]);
    expect(read.ids).toEqual(ALL_IDS);
    expect(read.warnings).toEqual([{ line: 6, reason: expect.stringMatching(LONG_LINE) }]);
  });

  it("skips a line over the line bound in a decoded Zstandard file, keeping every other line", { timeout: 60_000 }, async () => {
    const read = await dropped("long.jsonl.zst", [longLineZstd(LINES)]);
    expect(read.ids).toEqual(ALL_IDS);
    expect(read.warnings).toEqual([{ line: 6, reason: expect.stringMatching(LONG_LINE) }]);
  });

  it("stops a Zstandard bomb at the decoded-size bound with its warning, the lines before kept", async () => {
    const bomb = bombZstd(LINES);
    expect(bomb.length).toBeLessThan(25_000);
    const read = await dropped("bomb.jsonl.zst", [bomb]);
    expect(read.ids).toEqual(["u1", "a1", "u2", "a2"]);
    // The line decoding stopped inside is not read (no "truncated line" warning): one warning.
    const reasons = read.warnings.map((warning) => warning.reason);
    expect(reasons).toHaveLength(1);
    expect(reasons).toContainEqual(expect.stringMatching(/^the decoded data reached 20\.1 MB from 20\.1 kB of file, over the bound \(1000 × the file, at most 8\.6 GB\): decoding stopped; the lines before it are kept$/));
  });

  it("opens a Zstandard file with a damaged middle frame, naming it, with the other frames' lines", async () => {
    const read = await dropped("bad.jsonl.zst", [readFileSync(path.join(DIR, "bad-middle-frame.jsonl.zst"))]);
    expect(read.ids).toEqual(["u1", "a1", "u2", "a2", "u5", "a5", "u6", "a6"]);
    expect(read.warnings.map((warning) => warning.reason)).toContainEqual(expect.stringMatching(/^Zstandard frame 2 \(at byte 356\) is damaged/));
  });

  it.each(["long-window-27.jsonl.zst", "long-window-31.jsonl.zst", "skippable-first.jsonl.zst"])("opens %s whole, without a warning", async (name) => {
    const read = await dropped(name, [readFileSync(path.join(DIR, name))]);
    expect(read.ids).toEqual(ALL_IDS);
    expect(read.warnings).toEqual([]);
  });

  it("keeps at most the cap of one kind of warning and counts the rest", async () => {
    const text = [LINES[0], ...Array.from({ length: 3000 }, () => "{not json"), LINES[1]].join("\n");
    const read = await dropped("bad-lines.jsonl", [text]);
    expect(read.ids).toEqual(["u1"]);
    expect(read.warnings.length).toBeLessThanOrEqual(DEFAULT_READ_BOUNDS.maxWarningsPerKind + 2);
    expect(read.warnings.map((warning) => warning.reason)).toContainEqual(expect.stringMatching(/^2900 more warnings of this kind not listed \(at most 100 of a kind are kept\)/));
  });
});
