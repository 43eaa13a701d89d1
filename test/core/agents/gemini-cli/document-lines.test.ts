// The older single-object form read from bytes (documentLines.ts): its lines are decoded once as
// one document, not one by one, and the session equals the one read from the lines decoded one by
// one and joined — byte-order marks starting a line, UTF-8 cut at a line's end, \r\n and blank
// lines included.
import { describe, expect, it, vi } from "vitest";

const decoded = vi.hoisted(() => ({ calls: 0 }));
vi.mock("../../../../src/core/util/utf8", async (original) => {
  const actual = await original<typeof import("../../../../src/core/util/utf8")>();
  return {
    ...actual,
    utf8Decode: (bytes: Uint8Array) => {
      decoded.calls += 1;
      return actual.utf8Decode(bytes);
    },
  };
});

import { readSessionBytes, readSessionText } from "../../../../src/core/session/read";
import { joinedBytes } from "../../../support/joinedBytes";

const encode = (text: string) => new TextEncoder().encode(text);

function legacyDocument(messages: number): string {
  const list = Array.from({ length: messages }, (_, i) => ({ id: `m${i}`, timestamp: "t", type: i % 2 === 0 ? "user" : "gemini", content: i % 2 === 0 ? [{ text: `prompt ${i} ✓` }] : `answer ${i}`, model: "gemini-2.5-flash" }));
  return JSON.stringify({ sessionId: "s", projectHash: "p", startTime: "t", lastUpdated: "t", messages: list }, null, 2);
}

/** The session as the lines decoded one by one give it (the text read path, whose lines are strings). */
function readLines(bytes: Uint8Array): unknown {
  const decoder = new TextDecoder();
  const lines: string[] = [];
  let start = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, start)) {
    lines.push(decoder.decode(bytes.subarray(start, at)));
    start = at + 1;
  }
  lines.push(decoder.decode(bytes.subarray(start)));
  return readSessionText(lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line)).join("\n"), "session.json");
}

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("Gemini CLI older single-object form read from bytes", () => {
  it("decodes the document once, not once per line", () => {
    const bytes = encode(legacyDocument(200));
    decoded.calls = 0;
    const session = readSessionBytes(bytes, "session.json", decode);
    expect(session.entries.length).toBe(201);
    // One decode per line before (about 2,000).
    expect(decoded.calls).toBeLessThan(20);
  });

  it("gives the session the lines decoded one by one give", () => {
    const text = legacyDocument(6);
    const plain = encode(text);
    const crlf = encode(text.replace(/\n/g, "\r\n"));
    const lines = text.split("\n");
    // A byte-order mark starting an inner line (dropped by a line's own decoding), and UTF-8 cut at a line's end.
    const marked = joinedBytes(encode(lines.slice(0, 3).join("\n") + "\n"), new Uint8Array([0xef, 0xbb, 0xbf]), encode(lines.slice(3).join("\n")));
    const cut = joinedBytes(encode(lines.slice(0, 8).join("\n")), new Uint8Array([0xe2, 0x9c]), encode("\n\n" + lines.slice(8).join("\n")));
    for (const bytes of [plain, crlf, marked, cut]) {
      expect(JSON.stringify(readSessionBytes(bytes, "session.json", decode))).toBe(JSON.stringify(readLines(bytes)));
    }
  });
});
