// openSessionReader's detection: by default (the CLI) an input without a non-blank line is an
// empty Session and one no reader recognises an UnsupportedFormatError; the browser's streamed
// read bounds the characters buffered before detecting and names its own errors. Once the
// format is known, the reader offers its format reader's snapshot.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DETECTION_LINE_COUNT, emptySession, openSessionReader, UnsupportedFormatError } from "../../../src/core/session/index";
import { splitTextLines } from "../../../src/core/readers/lines";

const PI_FILE = path.resolve(
  __dirname,
  "../../fixtures/pi/print-openai-autocompact/session/--home-dev-pi-print-openai-autocompact-lighthouse-notes--/2026-11-29T19-24-40-505Z_01a228c4-42b7-7303-bb87-25da37b563c2.jsonl",
);

const errors = {
  emptyError: (name: string) => new Error(`empty: ${name}`),
  unsupportedError: (name: string, firstLines: string[]) => new Error(`unsupported: ${name} (${firstLines.length} lines)`),
};

describe("openSessionReader's detection", () => {
  it("reads an input of blank lines as an empty Session by default, and fails it with the given error", () => {
    const plain = openSessionReader("blank.jsonl");
    plain.pushLine("", 1);
    plain.pushLine("  ", 2);
    expect(plain.finish()).toEqual(emptySession("blank.jsonl", 2));

    const strict = openSessionReader("blank.jsonl", undefined, errors);
    strict.pushLine("", 1);
    expect(() => strict.finish()).toThrow("empty: blank.jsonl");
  });

  it("fails an input no reader recognises with UnsupportedFormatError by default, or the given error", () => {
    const plain = openSessionReader("notes.txt");
    plain.pushLine("hello", 1);
    expect(() => plain.finish()).toThrow(UnsupportedFormatError);

    const strict = openSessionReader("notes.txt", undefined, errors);
    strict.pushLine("", 1);
    strict.pushLine("hello", 2);
    expect(() => strict.finish()).toThrow("unsupported: notes.txt (2 lines)");
  });

  it("detects once the buffered characters reach the bound, before the usual line count", () => {
    const bounded = openSessionReader("big.jsonl", undefined, { ...errors, detectAfterChars: 100 });
    bounded.pushLine("x".repeat(60), 1);
    expect(() => bounded.pushLine("y".repeat(40), 2)).toThrow("unsupported: big.jsonl (2 lines)");

    // Without the bound, the same lines wait for more.
    const unbounded = openSessionReader("big.jsonl", undefined, errors);
    unbounded.pushLine("x".repeat(60), 1);
    expect(() => unbounded.pushLine("y".repeat(40), 2)).not.toThrow();
  });

  it("offers the format reader's snapshot once the format is known", () => {
    const lines = splitTextLines(readFileSync(PI_FILE, "utf8"));
    expect(lines.length).toBeGreaterThan(DETECTION_LINE_COUNT);
    const reader = openSessionReader("s.jsonl");
    lines.slice(0, 2).forEach((line, index) => reader.pushLine(line, index + 1));
    expect(reader.snapshot).toBeUndefined();
    lines.forEach((line, index) => index >= 2 && reader.pushLine(line, index + 1));
    const snapshot = reader.snapshot?.();
    expect(snapshot?.entries.length).toBeGreaterThan(0);
    expect(reader.finish().entries).toEqual(snapshot?.entries);
  });
});
