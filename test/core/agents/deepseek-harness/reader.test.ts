// The deepseek-harness reader: the Zstandard artifact is recognised by its bytes and decodes to the
// same session as its decoded text; a packed chunk row is one entry for its member events; the header,
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

  it("keeps the header, and each packed chunk row as one entry standing for its members' seqs", () => {
    expect(session.header).toMatchObject({ type: "session", version: 0, id: "session-dc1086b1-208d-42e8-b3ef-9b8679a11273", delegationDepth: 0 });
    expect(session.formatVersion).toBe(0);
    // 194 lines (header + 193 records, one entry each) stand for seq 0 … 264.
    expect(session.lineCount).toBe(194);
    expect(session.entries).toHaveLength(193);
    const members = (raw: Record<string, unknown>) => {
      const data = raw.data as { texts?: unknown[]; args?: unknown[] };
      return typeof raw.seq0 === "number" ? (data.texts ?? data.args ?? []).length : 1;
    };
    let next = 0;
    for (const entry of session.entries) {
      expect(entry.id).toBe(`seq-${next}`);
      next += members(entry.raw);
    }
    expect(next).toBe(265);
    const row = session.entries.find((entry) => entry.line === 16)!;
    expect(row).toMatchObject({ id: "seq-14", type: "text-chunks", timestamp: new Date(1796286456288).toISOString() });
    expect(row.raw).toEqual({ type: "text-chunks", seq0: 14, time0: 1796286456288, data: { turn: 1, step: 1, index: 0, dt: [0, 0], texts: ["Let me look at t", "he project files", "."] } });
    const toolRow = session.entries.find((entry) => entry.id === "seq-18")!;
    expect(toolRow.raw).toMatchObject({ type: "tool-call-chunks", time0: 1796286456288, data: { id: "call_fake0002", name: "glob", args: ["", "{\"pattern\":\"", "*\"}"] } });
  });

  it("warns on a packed row without its pieces and reads the seqs after it as contiguous", () => {
    const text = [
      '{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0}',
      '{"type":"text-chunks","seq0":0,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[0,0],"texts":["a","b","c"]}}',
      '{"type":"assistant/chunk","seq":3,"time":5,"data":{"turn":1,"step":1,"chunk":{"type":"finish","reason":{"kind":"stop"}}}}',
      '{"type":"reasoning-chunks","seq0":4,"time0":6,"data":{"turn":1,"step":1,"index":1,"dt":[0]}}',
      '{"type":"step/end","seq":4,"time":7,"data":{"turn":1,"step":1}}',
    ].join("\n");
    const read = readSessionText(text, "s.jsonl");
    expect(read.entries.map((entry) => entry.id)).toEqual(["seq-0", "seq-3", "seq-4"]);
    expect(read.warnings).toContainEqual({ line: 4, reason: "packed chunk row without its texts list, line skipped" });
    expect(read.warnings.some((warning) => /not contiguous/.test(warning.reason))).toBe(false);
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
    expect(torn.entries.length).toBeGreaterThan(150);
    expect(torn.entries.length).toBeLessThan(193);
    expect(torn.warnings.some((w) => w.line === 0 && /incomplete/.test(w.reason))).toBe(true);
  });
});

describe("deepseek-harness event times", () => {
  it("writes each event's time as Date's ISO string, across midnight, within a day and outside the usual years", () => {
    const lines = readFileSync(decodedPath(), "utf8").split("\n").filter((line) => line.trim() !== "");
    const events = lines.slice(1).filter((line) => typeof (JSON.parse(line) as { seq0?: unknown }).seq0 !== "number");
    const midnight = Date.UTC(2026, 11, 6);
    const times = [
      midnight - 1, midnight, midnight, midnight + 1, midnight + 9, midnight + 10, midnight + 99, midnight + 100, midnight + 59_999,
      midnight + 3_599_999, midnight + 86_399_999, midnight + 86_400_000, midnight + 90_061_001, midnight + 123.7, midnight + 124,
      -1, -86_400_001, 0, 253_402_300_799_999, 253_402_300_800_000, midnight - 86_400_000 * 400, midnight + 5,
    ];
    expect(events.length).toBeGreaterThanOrEqual(times.length);
    let seq = 0;
    const rewritten = times.map((time, at) => JSON.stringify({ ...(JSON.parse(events[at]!) as Record<string, unknown>), seq: seq++, time }));
    const session = readSessionText([lines[0], ...rewritten].join("\n"), "session.jsonl");
    expect(session.entries.map((entry) => entry.timestamp)).toEqual(times.map((time) => new Date(time).toISOString()));
  });
});
