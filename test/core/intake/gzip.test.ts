// A gzipped session of any agent opens through the same path as a plain one (the container by its
// first bytes, its decoder loaded by what the intake names, the lines split as they inflate), and
// a cut or damaged gzip file gives a warning with the lines read before it, never a throw.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { headRole, planOpen } from "../../../src/core/intake/index";
import { readSessionBytes, readSessionChunks } from "../../../src/core/session/index";
import { findSessionFile, fixtureCase } from "../../support/fixtures";
import { decodedSession } from "../../support/decoded";

const decoder = new TextDecoder();
const decode = (bytes: Uint8Array) => decoder.decode(bytes);

/** `bytes` in chunks of `size`, each a copy in one reused buffer (as the CLI and the worker hand them). */
function* reusedChunks(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  const buffer = new Uint8Array(size);
  for (let offset = 0; offset < bytes.length; offset += size) {
    const part = bytes.subarray(offset, offset + size);
    buffer.set(part);
    yield buffer.subarray(0, part.length);
  }
}

/** Reads `bytes` as a host does: the plan names the container, its decoder is loaded, the chunks read. */
async function readAsHost(bytes: Uint8Array, name: string, chunkSize = 64 * 1024) {
  const plan = planOpen([{ name, size: bytes.length, head: bytes.subarray(0, 16) }], { together: false });
  if (plan.kind !== "sessions") throw new Error(`expected a session, got ${plan.kind}`);
  await plan.sessions[0]!.container?.loadDecoder();
  return { plan, session: readSessionChunks(reusedChunks(bytes, chunkSize), "session.jsonl", decode) };
}

const sessions = [
  { agent: "pi", file: () => findSessionFile(fixtureCase("pi/check-steady").path("session")) },
  { agent: "claude-code", file: () => findSessionFile(fixtureCase("claude/print-autocompact-manualcompact").path("session")) },
];

describe("gzip sessions", () => {
  for (const { agent, file } of sessions) {
    it(`a gzipped ${agent} session reads as the plain file does`, async () => {
      const plain = new Uint8Array(readFileSync(file()));
      const gzipped = new Uint8Array(gzipSync(plain));
      const { plan, session } = await readAsHost(gzipped, "session.jsonl.gz");
      expect(plan.kind === "sessions" && plan.sessions[0]!.container?.id).toBe("gzip");
      const expected = readSessionBytes(plain, "session.jsonl", decode);
      expect(expected.formatId).toBe(agent);
      expect(session.warnings).toEqual(expected.warnings);
      expect(decodedSession(session)).toEqual(decodedSession(expected));
    });
  }

  it("is told by its bytes, whatever its name, and a plain file by its name is not", () => {
    const gzipped = new Uint8Array(gzipSync(new TextEncoder().encode('{"type":"session"}\n')));
    const role = headRole(gzipped.subarray(0, 16));
    expect(role.kind === "compressed" && role.container.id).toBe("gzip");
    expect(headRole(new TextEncoder().encode('{"type":"session"}\n')).kind).toBe("plain");
  });

  it("reads gzip members one after the other (`cat a.gz b.gz`)", async () => {
    const plain = new Uint8Array(readFileSync(sessions[0]!.file()));
    const cut = plain.indexOf(0x0a, Math.floor(plain.length / 2)) + 1;
    const members = new Uint8Array([...gzipSync(plain.subarray(0, cut)), ...gzipSync(plain.subarray(cut))]);
    const { session } = await readAsHost(members, "session.jsonl.gz", 1000);
    expect(decodedSession(session)).toEqual(decodedSession(readSessionBytes(plain, "session.jsonl", decode)));
  });

  it("a cut gzip file gives a warning and the lines before the cut, never a throw, wherever it is cut", async () => {
    const plain = new Uint8Array(readFileSync(sessions[0]!.file()));
    const whole = readSessionBytes(plain, "session.jsonl", decode);
    const gzipped = new Uint8Array(gzipSync(plain));
    // Some cuts fall between two deflate blocks, where the inflater alone would not notice.
    for (const fraction of [0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 0.99]) {
      const { session } = await readAsHost(gzipped.subarray(0, Math.floor(gzipped.length * fraction)), "session.jsonl.gz");
      expect(session.formatId).toBe("pi");
      expect(session.entries.length).toBeLessThan(whole.entries.length + 1);
      const last = session.warnings.at(-1);
      expect([fraction, last?.line, last?.reason]).toEqual([fraction, 0, expect.stringMatching(/^gzip member 1 \(from byte 0\) ends early \(.+\): a cut file, as a copy taken mid-write leaves it; the lines before it are kept$/)]);
    }
  });

  it("damaged gzip data after the header gives a warning, never a throw", async () => {
    const gzipped = new Uint8Array(gzipSync(new TextEncoder().encode('{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}\n')));
    const damaged = gzipped.slice();
    damaged.fill(0xff, 10, damaged.length - 8);
    const plan = planOpen([{ name: "s.jsonl.gz", size: damaged.length, head: damaged.subarray(0, 16) }], { together: false });
    if (plan.kind !== "sessions") throw new Error(`expected a session, got ${plan.kind}`);
    await plan.sessions[0]!.container!.loadDecoder();
    const session = readSessionChunks([damaged], "s.jsonl", decode);
    expect(session.entries).toEqual([]);
    expect(session.warnings.map((warning) => warning.reason)).toContainEqual(expect.stringMatching(/^gzip member 1 \(from byte 0\) is damaged before byte \d+ \(.+\): decoding stopped there; nothing could be decoded$/));
  });
});
