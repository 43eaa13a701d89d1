// The worker opens a compressed session (gzip, Zstandard) through the same path as a plain one:
// the intake names the container by its first bytes, its decoder is loaded, and the session read
// is the plain file's. A cut gzip file opens with a warning instead of failing.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readSession } from "../../../src/features/open/readSession";
import { decodedSession } from "../../support/decoded";
import { gzipOf, INFLATER_TEXTS, joined, withBadBlockType } from "../../support/gzipDamage";

const FIXTURES = path.resolve(__dirname, "../../fixtures");
const PI = "pi/print-openai-autocompact/session/--home-dev-pi-print-openai-autocompact-lighthouse-notes--/2026-11-29T19-24-40-505Z_01a228c4-42b7-7303-bb87-25da37b563c2.jsonl";
const CLAUDE = "claude/print-autocompact-manualcompact/session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl";

const control = { isCancelled: () => false, onProgress: () => undefined };

describe("compressed sessions in the worker", () => {
  it.each([PI, CLAUDE])("a gzipped %s opens as the plain file does, dropped alone or with another file", async (file) => {
    const plain = readFileSync(path.join(FIXTURES, file));
    const name = path.basename(file);
    const expected = await readSession({ kind: "file", file: new File([plain], name) }, control);
    const gzipped = await readSession({ kind: "file", file: new File([gzipSync(plain)], name) }, control);
    expect(decodedSession(gzipped.session)).toEqual(decodedSession(expected.session));
    // Dropped with a file that is no session: the gzipped one is still read through the plan.
    const dropped = await readSession({ kind: "files", files: [new File([gzipSync(plain)], `${name}.gz`), new File(["hello"], "notes.txt")] }, control);
    expect(dropped.session.formatId).toBe(expected.session.formatId);
    expect(dropped.session.entries.length).toBe(expected.session.entries.length);
    expect(dropped.session.warnings.some((warning) => warning.reason.startsWith("not read: notes.txt"))).toBe(true);
  });

  it("a cut gzip file opens with the lines before the cut and a warning", async () => {
    const plain = readFileSync(path.join(FIXTURES, PI));
    const gzipped = gzipSync(plain);
    const cut = await readSession({ kind: "file", file: new File([gzipped.subarray(0, Math.floor(gzipped.length / 2))], "s.jsonl.gz") }, control);
    expect(cut.session.formatId).toBe("pi");
    expect(cut.session.warnings.at(-1)?.reason).toMatch(/^gzip member 1 \(from byte 0\) ends early \(.+\): a cut file, as a copy taken mid-write leaves it; the lines before it are kept$/);
  });

  it("damaged data behind a gzip header is refused with the container's reason, not as an empty file", async () => {
    const garbage = new Uint8Array(4096);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919 + 13) & 0xff;
    garbage.set([0x1f, 0x8b, 0x08, 0x00], 0);
    const read = readSession({ kind: "file", file: new File([garbage], "logs.tar.gz") }, control);
    await expect(read).rejects.toThrow(/logs\.tar\.gz: gzip-compressed, but gzip member 1 \(from byte 0\) (is damaged before byte \d+|ends early) \(.+\): .*nothing could be decoded/);
    await expect(read).rejects.toThrow(/not a pi session: expected/);
    await expect(read).rejects.not.toThrow(/is empty/);
  });

  it("a damaged second gzip member opens with the first member's lines and the reader's own words for the damage", async () => {
    const text = readFileSync(path.join(FIXTURES, PI), "utf8");
    const cut = text.indexOf("\n", Math.floor(text.length / 2)) + 1;
    const good = gzipOf(text.slice(0, cut));
    const opened = await readSession({ kind: "file", file: new File([joined(good, withBadBlockType(gzipOf(text.slice(cut))))], "s.jsonl.gz") }, control);
    const firstHalf = await readSession({ kind: "file", file: new File([text.slice(0, cut)], "s.jsonl") }, control);
    expect(opened.session.entries.length).toBe(firstHalf.session.entries.length);
    const reason = opened.session.warnings.at(-1)?.reason ?? "";
    expect(reason).toMatch(new RegExp(`^gzip member 2 \\(from byte ${good.length}\\) is damaged before byte \\d+ \\(a compressed block of a type deflate does not have\\): decoding stopped there; the lines before it are kept$`));
    for (const raw of INFLATER_TEXTS) expect(reason.toLowerCase()).not.toContain(raw.toLowerCase());
  });
});
