// LineReader.snapshot: the entries read so far while a file is still read (the browser shows
// them as provisional turns). A snapshot holds exactly what a reader given only those lines
// would hold, minus end-of-file checks, and taking one changes nothing in the final result.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectFormat, DETECTION_LINE_COUNT } from "../../../src/core/session/index";
import { splitTextLines } from "../../../src/core/readers/lines";

const FIXTURES = path.resolve(__dirname, "../../fixtures");
const FILES = {
  pi: "pi/print-openai-autocompact/session/--home-dev-pi-print-openai-autocompact-lighthouse-notes--/2026-11-29T19-24-40-505Z_01a228c4-42b7-7303-bb87-25da37b563c2.jsonl",
  "claude code": "claude/print-autocompact-manualcompact/session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl",
  codex: "codex/exec-autocompact/session/sessions/2026/11/29/rollout-2026-11-29T19-25-29-01a228c5-0111-7641-8ea4-161c4b3a44d5.jsonl",
};

function readerFor(lines: string[], name: string) {
  const format = detectFormat(lines.slice(0, DETECTION_LINE_COUNT), name);
  if (!format) throw new Error(`${name}: no reader`);
  return format.createLineReader(name);
}

describe.each(Object.entries(FILES))("%s reader snapshot", (_agent, file) => {
  const name = path.basename(file);
  const lines = splitTextLines(readFileSync(path.join(FIXTURES, file), "utf8"));
  const half = Math.floor(lines.length / 2);

  it("holds the entries of the lines read so far, and reading goes on unchanged", () => {
    const reader = readerFor(lines, name);
    lines.slice(0, half).forEach((line, index) => reader.pushLine(line, index + 1));
    const snapshot = reader.snapshot?.();
    expect(snapshot).toBeDefined();

    const partial = readerFor(lines, name);
    lines.slice(0, half).forEach((line, index) => partial.pushLine(line, index + 1));
    const expected = partial.finish();
    expect(snapshot!.entries).toEqual(expected.entries);
    expect(snapshot!.entries.length).toBeGreaterThan(0);
    expect(snapshot!.lineCount).toBe(half);

    lines.slice(half).forEach((line, index) => reader.pushLine(line, half + index + 1));
    const whole = readerFor(lines, name);
    lines.forEach((line, index) => whole.pushLine(line, index + 1));
    const final = reader.finish();
    expect(final).toEqual(whole.finish());
    // The snapshot is a copy: what was read later is not in it.
    expect(snapshot!.entries.length).toBeLessThan(final.entries.length);
  });
});
