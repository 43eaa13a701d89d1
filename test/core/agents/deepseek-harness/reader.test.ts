// The deepseek-harness reader: the Zstandard artifact is recognised by its bytes and decodes to the
// same session as its decoded text; packed chunk rows expand into their member events; the header,
// seq-contiguity and bad lines; a torn last frame keeps the lines before it.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { Session } from "../../../../src/core/model";
import { readSessionBytes, readSessionText } from "../../../../src/core/session/index";
import { decodedPath, readRecorded, zstdPath } from "./helpers";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("deepseek-harness reader", () => {
  let session: Session;
  beforeAll(async () => {
    session = await readRecorded();
  });

  it("reads the multi-frame session.jsonl.zstd as the decoded session.jsonl, whatever the file is called", () => {
    const plain = readSessionText(readFileSync(decodedPath(), "utf8"), "session.jsonl.zstd");
    expect(session.formatId).toBe("deepseek-harness");
    expect(session.warnings).toEqual([]);
    expect(session.entries).toEqual(plain.entries);
    const renamed = readSessionBytes(readFileSync(zstdPath()), "whatever.bin", decode);
    expect(renamed.entries).toHaveLength(plain.entries.length);
  });

  it("keeps the header and expands packed chunk rows into contiguous events", () => {
    expect(session.header).toMatchObject({ type: "session", version: 0, id: "session-dc1086b1-208d-42e8-b3ef-9b8679a11273", delegationDepth: 0 });
    expect(session.formatVersion).toBe(0);
    // 194 lines (header + 193 records) stand for seq 0 … 264.
    expect(session.lineCount).toBe(194);
    expect(session.entries).toHaveLength(265);
    expect(session.entries.map((entry) => entry.raw.seq)).toEqual(session.entries.map((_, i) => i));
    const members = session.entries.filter((entry) => entry.line === 16);
    expect(members.map((entry) => entry.raw)).toEqual([14, 15, 16].map((seq, k) => ({
      type: "assistant/chunk",
      seq,
      time: 1796286456288,
      data: { turn: 1, step: 1, chunk: { type: "text-delta", index: 0, text: ["Let me look at t", "he project files", "."][k] } },
    })));
    const toolChunk = session.entries.find((entry) => entry.raw.seq === 19)!;
    expect(toolChunk.raw).toMatchObject({ time: 1796286456289, data: { chunk: { type: "tool-call-delta", id: "call_fake0002", name: "glob", argumentsDelta: "{\"pattern\":\"" } } });
  });

  it("is detected before pi, whose header is also {\"type\":\"session\"}", () => {
    const text = readFileSync(decodedPath(), "utf8").split("\n").slice(0, 3).join("\n");
    expect(readSessionText(text, "s.jsonl").formatId).toBe("deepseek-harness");
    const pi = '{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}\n';
    expect(readSessionText(pi, "s.jsonl").formatId).toBe("pi");
  });

  it("warns with line numbers on bad lines and a gap in seq, keeping every good event", () => {
    const lines = readFileSync(decodedPath(), "utf8").split("\n").slice(0, 8);
    lines.splice(3, 0, "{not json");
    lines.splice(5, 1);
    const read = readSessionText(lines.join("\n"), "s.jsonl");
    expect(read.warnings.map((w) => w.line)).toEqual([4, 6]);
    expect(read.warnings[0]!.reason).toMatch(/not valid JSON/);
    expect(read.warnings[1]!.reason).toMatch(/seq 4 where 3 was expected/);
    expect(read.entries.map((entry) => entry.raw.seq)).toEqual([0, 1, 2, 4, 5, 6]);
  });

  it("names an unknown event type once and keeps it", () => {
    const text = ['{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0}', '{"type":"future/thing","seq":0,"time":1,"data":{}}', '{"type":"future/thing","seq":1,"time":1,"data":{}}'].join("\n");
    const read = readSessionText(text, "s.jsonl");
    expect(read.entries).toHaveLength(2);
    expect(read.warnings).toHaveLength(1);
    expect(read.warnings[0]).toMatchObject({ line: 2 });
  });

  it("keeps the lines before a torn last Zstandard frame and names the tear", () => {
    const bytes = readFileSync(zstdPath());
    const torn = readSessionBytes(bytes.subarray(0, bytes.length - 40), "session.jsonl.zstd", decode);
    expect(torn.formatId).toBe("deepseek-harness");
    expect(torn.entries.length).toBeGreaterThan(200);
    expect(torn.entries.length).toBeLessThan(265);
    expect(torn.warnings.some((w) => w.line === 0 && /incomplete/.test(w.reason))).toBe(true);
  });
});
