// A damaged or cut gzip file is named in our own words: which member (and the byte it starts at),
// where the damage was found, what was wrong and what was kept; the inflater's own error text
// never reaches a warning. Reproducers: test/support/gzipDamage.ts (node:zlib's output, damaged).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { planOpen } from "../../../src/core/intake/index";
import { readSessionBytes, readSessionChunks } from "../../../src/core/session/index";
import { findSessionFile, fixtureCase } from "../../support/fixtures";
import { decodedSession } from "../../support/decoded";
import { gzipOf, INFLATER_TEXTS, joined, withBadBlockType } from "../../support/gzipDamage";

const decoder = new TextDecoder();
const decode = (bytes: Uint8Array) => decoder.decode(bytes);

async function read(bytes: Uint8Array) {
  const plan = planOpen([{ name: "s.jsonl.gz", size: bytes.length, head: bytes.subarray(0, 16) }], { together: false });
  if (plan.kind !== "sessions") throw new Error(`expected a session, got ${plan.kind}`);
  await plan.sessions[0]!.container!.loadDecoder();
  // In chunks smaller than the file, as hosts read it.
  const chunks = Array.from({ length: Math.ceil(bytes.length / 4096) }, (_, index) => bytes.subarray(index * 4096, (index + 1) * 4096));
  return readSessionChunks(chunks, "s.jsonl", decode);
}

/** The fixture's lines split in two halves, at a line end. */
function halves(): [string, string] {
  const text = readFileSync(findSessionFile(fixtureCase("pi/check-steady").path("session")), "utf8");
  const cut = text.indexOf("\n", Math.floor(text.length / 2)) + 1;
  return [text.slice(0, cut), text.slice(cut)];
}

function gzipWarnings(session: { warnings: { line: number; reason: string }[] }): string[] {
  return session.warnings.filter((warning) => warning.reason.includes("gzip")).map((warning) => warning.reason);
}

function expectNoInflaterText(reasons: string[]): void {
  for (const reason of reasons) for (const text of INFLATER_TEXTS) expect(reason.toLowerCase()).not.toContain(text.toLowerCase());
}

describe("damaged gzip files", () => {
  it("a damaged second member is named with where it starts; the first member's lines are kept", async () => {
    const [first, second] = halves();
    const good = gzipOf(first);
    const bytes = joined(good, withBadBlockType(gzipOf(second)));
    const session = await read(bytes);
    const reasons = gzipWarnings(session);
    expect(reasons).toHaveLength(1);
    const match = /^gzip member 2 \(from byte (\d+)\) is damaged before byte (\d+) \(a compressed block of a type deflate does not have\): decoding stopped there; the lines before it are kept$/.exec(reasons[0]!);
    expect(match).not.toBeNull();
    expect(Number(match![1])).toBe(good.length);
    expect(Number(match![2])).toBeGreaterThan(good.length);
    expect(Number(match![2])).toBeLessThanOrEqual(bytes.length);
    expect(decodedSession({ ...session, warnings: [] })).toEqual(decodedSession({ ...readSessionBytes(new TextEncoder().encode(first), "s.jsonl", decode), warnings: [] }));
    expectNoInflaterText(reasons);
  });

  it("a damaged first member says nothing could be decoded", async () => {
    const session = await read(withBadBlockType(gzipOf(halves()[0])));
    const reasons = gzipWarnings(session);
    expect(reasons).toEqual([expect.stringMatching(/^gzip member 1 \(from byte 0\) is damaged before byte \d+ \(a compressed block of a type deflate does not have\): decoding stopped there; nothing could be decoded$/)]);
    expect(session.entries).toEqual([]);
    expectNoInflaterText(reasons);
  });

  it("a member cut short is said to end early, as a copy taken mid-write leaves it", async () => {
    const [first, second] = halves();
    const good = gzipOf(first);
    const tail = gzipOf(second);
    const session = await read(joined(good, tail.subarray(0, Math.floor(tail.length / 2))));
    const reasons = gzipWarnings(session);
    expect(reasons).toEqual([
      expect.stringMatching(new RegExp(`^gzip member 2 \\(from byte ${good.length}\\) ends early \\((the data ends inside a compressed block|the size its end records is not the size decoded)\\): a cut file, as a copy taken mid-write leaves it; the lines before it are kept$`)),
    ]);
    expect(session.entries.length).toBeGreaterThanOrEqual(readSessionBytes(new TextEncoder().encode(first), "s.jsonl", decode).entries.length);
    expectNoInflaterText(reasons);
  });

  it("bytes after the last member that start no other are named; every line before them is kept", async () => {
    const [first, second] = halves();
    const whole = gzipOf(first + second);
    const session = await read(joined(whole, new TextEncoder().encode("not gzip at all\n")));
    const reasons = gzipWarnings(session);
    expect(reasons).toEqual([expect.stringMatching(/^the bytes after gzip member 1 \(from byte 0\) are not another gzip member \(found before byte \d+\): decoding stopped there; the lines before it are kept$/)]);
    expect(session.entries.length).toBe(readSessionBytes(new TextEncoder().encode(first + second), "s.jsonl", decode).entries.length);
    expectNoInflaterText(reasons);
  });
});
