import { describe, expect, it } from "vitest";
import {
  detectFormat,
  openSessionReader,
  readSessionBytes,
  readSessionText,
  UnsupportedFormatError,
} from "../../../../src/core/session/index";
import { fnv1aHex } from "../../../../src/core/util/fnv1a";
import { HEADER, chain, toJsonl, user, assistant } from "./sessionBuilder";

const decoder = new TextDecoder();
const decode = (bytes: Uint8Array) => decoder.decode(bytes);

const good = toJsonl(chain([user("u1", "hello"), assistant("a1", "hi"), user("u2", "more")]));

describe("pi reader", () => {
  it("reads a good file: header, entries with ids, parents, lines and timestamps", () => {
    const session = readSessionText(good, "s.jsonl");
    expect(session.formatId).toBe("pi");
    expect(session.formatVersion).toBe(3);
    expect(session.header?.id).toBe("sess-1");
    expect(session.warnings).toEqual([]);
    expect(session.lineCount).toBe(4);
    expect(session.entries.map((e) => [e.id, e.parentId, e.type, e.line])).toEqual([
      ["u1", null, "message", 2],
      ["a1", "u1", "message", 3],
      ["u2", "a1", "message", 4],
    ]);
    expect(typeof session.entries[0]?.timestamp).toBe("string");
  });

  it("reports a truncated last line and keeps every good entry", () => {
    const text = good.trimEnd() + '\n{"type":"message","id":"x1","parentId":"u2","message":{"role":"us';
    const session = readSessionText(text, "s.jsonl");
    expect(session.entries).toHaveLength(3);
    expect(session.warnings).toHaveLength(1);
    expect(session.warnings[0]?.line).toBe(5);
    expect(session.warnings[0]?.reason).toMatch(/^truncated last line/);
  });

  it("skips garbage and blank lines with 1-based line numbers and keeps reading", () => {
    const lines = good.trimEnd().split("\n");
    lines.splice(2, 0, "garbage {", "", "[1,2]");
    const session = readSessionText(lines.join("\n"), "s.jsonl");
    expect(session.entries.map((e) => e.id)).toEqual(["u1", "a1", "u2"]);
    expect(session.warnings.map((w) => w.line)).toEqual([3, 4, 5]);
    expect(session.warnings[0]?.reason).toMatch(/not valid JSON/);
    expect(session.warnings[1]?.reason).toMatch(/blank/);
    expect(session.warnings[2]?.reason).toMatch(/not a JSON object/);
    expect(session.entries.find((e) => e.id === "a1")?.line).toBe(6);
  });

  it("returns an empty session with a warning for empty input instead of throwing", () => {
    for (const text of ["", "\n", "\uFEFF"]) {
      const session = readSessionText(text, "empty.jsonl");
      expect(session.entries).toEqual([]);
      expect(session.warnings.length).toBeGreaterThan(0);
      expect(session.warnings[0]?.line).toBe(0);
    }
  });

  it("accepts a BOM and CRLF line ends (text and bytes)", () => {
    const text = "\uFEFF" + good.replace(/\n/g, "\r\n");
    const fromText = readSessionText(text, "s.jsonl");
    const fromBytes = readSessionBytes(new TextEncoder().encode(text), "s.jsonl", decode);
    for (const session of [fromText, fromBytes]) {
      expect(session.warnings).toEqual([]);
      expect(session.header?.type).toBe("session");
      expect(session.entries.map((e) => e.id)).toEqual(["u1", "a1", "u2"]);
    }
  });

  it("migrates a v1 file: deterministic synthetic ids, linear chain, firstKeptEntryIndex → id", () => {
    const header = { type: "session", id: "old", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/w" }; // no version → 1
    const lines = [
      header,
      { type: "message", timestamp: "t", message: { role: "user", content: "a", timestamp: 1 } },
      { type: "message", timestamp: "t", message: { role: "assistant", content: [], timestamp: 2 } },
      { type: "message", timestamp: "t", message: { role: "user", content: "b", timestamp: 3 } },
      { type: "compaction", timestamp: "t", summary: "S", firstKeptEntryIndex: 3, tokensBefore: 5 },
    ];
    const text = lines.map((l) => JSON.stringify(l)).join("\n");
    const session = readSessionText(text, "v1.jsonl");
    expect(session.formatVersion).toBe(1);
    const ids = session.entries.map((e) => e.id);
    expect(ids.every((id) => /^[0-9a-f]{8}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(4);
    expect(ids[0]).toBe(fnv1aHex(`${fnv1aHex(JSON.stringify(header))}:2`));
    expect(session.entries.map((e) => e.parentId)).toEqual([null, ids[0], ids[1], ids[2]]);
    const compactionEntry = session.entries[3];
    expect(compactionEntry?.raw.firstKeptEntryId).toBe(ids[2]); // file object index 3 = third entry
    expect(compactionEntry?.raw.firstKeptEntryIndex).toBeUndefined();
    expect(compactionEntry?.raw.id).toBe(ids[3]);
    // Deterministic: reading again gives the same ids.
    expect(readSessionText(text, "v1.jsonl").entries.map((e) => e.id)).toEqual(ids);
  });

  it("migrates a v2 file: the hookMessage role becomes custom", () => {
    const text = toJsonl(
      chain([{ id: "h1", type: "message", message: { role: "hookMessage", customType: "x", content: "c", display: true, timestamp: 1 } }]),
      { ...HEADER, version: 2 },
    );
    const session = readSessionText(text, "v2.jsonl");
    expect(session.formatVersion).toBe(2);
    expect((session.entries[0]?.raw.message as { role: string }).role).toBe("custom");
  });

  it("reads a file without a header as version 1 with a warning and keeps existing ids", () => {
    const text = toJsonl(chain([user("u1", "a"), assistant("a1", "b")]), null);
    const session = readSessionText(text, "noheader.jsonl");
    expect(session.formatVersion).toBe(1);
    expect(session.header).toBeNull();
    expect(session.warnings[0]).toMatchObject({ line: 1 });
    expect(session.warnings[0]?.reason).toMatch(/missing session header/);
    expect(session.entries.map((e) => [e.id, e.parentId])).toEqual([
      ["u1", null],
      ["a1", "u1"],
    ]);
  });

  it("keeps unknown and senpi entry types in the tree", () => {
    const session = readSessionText(
      toJsonl(
        chain([
          user("u1", "a"),
          { id: "z1", type: "future_thing", payload: 1 },
          { id: "e1", type: "context_edit", targetId: "u1", replacement: "b" },
          { id: "c1", type: "configuration_update", reasoning: { effort: "high" } },
          assistant("a1", "b"),
        ]),
      ),
      "s.jsonl",
    );
    expect(session.entries.map((e) => e.type)).toEqual(["message", "future_thing", "context_edit", "configuration_update", "message"]);
    expect(session.entries[4]?.parentId).toBe("c1");
    expect(session.warnings).toEqual([]);
  });
});

describe("format registry", () => {
  it("detects pi from the header or, for legacy files, from a pi entry", () => {
    expect(detectFormat([JSON.stringify(HEADER)], "x.jsonl")?.id).toBe("pi");
    expect(detectFormat(["garbage", JSON.stringify(HEADER)], "x.jsonl")?.id).toBe("pi");
    expect(detectFormat([JSON.stringify({ type: "model_change", id: "a", parentId: null })], "x")?.id).toBe("pi");
  });

  it("rejects foreign input with a message naming what was expected", () => {
    const claude = JSON.stringify({ type: "user", message: { role: "user", content: "hi" }, uuid: "1" });
    expect(detectFormat([claude], "c.jsonl")).toBeNull();
    expect(() => readSessionText(claude + "\n", "c.jsonl")).toThrow(UnsupportedFormatError);
    expect(() => readSessionText("hello world\nnot json\n", "notes.txt")).toThrow(
      /not a pi session: expected a JSONL file whose first line is \{"type":"session",\.\.\.\}/,
    );
  });

  it("streams through openSessionReader with detection after the first lines", () => {
    const reader = openSessionReader("s.jsonl");
    good.trimEnd().split("\n").forEach((line, i) => reader.pushLine(line, i + 1));
    expect(reader.finish().entries).toHaveLength(3);
    const foreign = openSessionReader("f.jsonl");
    for (let i = 1; i <= 25; i++) {
      if (i < 20) foreign.pushLine(`{"kind":${i}}`, i);
      else expect(() => foreign.pushLine(`{"kind":${i}}`, i)).toThrow(UnsupportedFormatError);
    }
  });
});
