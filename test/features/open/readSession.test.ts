// The worker's streamed read detects the format with the core's own detection (the CLI's), so a
// file it reads holds the same Session as the core's reader makes of it; its own messages (an
// empty input, an input no reader recognises) stay the browser's.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSessionText } from "../../../src/core/session/index";
import { readSession } from "../../../src/features/open/readSession";
import { decodedSession } from "../../support/decoded";

const FIXTURES = path.resolve(__dirname, "../../fixtures");
const FILES = [
  "pi/print-openai-autocompact/session/--home-dev-pi-print-openai-autocompact-lighthouse-notes--/2026-11-29T19-24-40-505Z_01a228c4-42b7-7303-bb87-25da37b563c2.jsonl",
  "claude/print-autocompact-manualcompact/session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl",
  "codex/exec-autocompact/session/sessions/2026/11/29/rollout-2026-11-29T19-25-29-01a228c5-0111-7641-8ea4-161c4b3a44d5.jsonl",
];

const control = { isCancelled: () => false, onProgress: () => undefined };

function read(name: string, text: string) {
  return readSession({ kind: "text", name, text }, control);
}

describe("the worker's streamed read", () => {
  it.each(FILES)("reads %s as the core's reader does", async (file) => {
    const name = path.basename(file);
    const text = readFileSync(path.join(FIXTURES, file), "utf8");
    const result = await read(name, text);
    expect(result.session.entries.length).toBeGreaterThan(0);
    expect(decodedSession(result.session)).toEqual(readSessionText(text, name));
    expect(result.byteLength).toBe(new TextEncoder().encode(text).byteLength);
  });

  it("refuses an input without a non-blank line, naming it", async () => {
    await expect(read("blank.jsonl", "\n   \n\n")).rejects.toThrow('"blank.jsonl" is empty: there is no line to read.');
  });

  it("lists what every reader expects for an input none recognises", async () => {
    const error = await read("notes.txt", "\nhello world\nnot json\n").catch((caught: unknown) => caught as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^notes\.txt: unsupported format\. Expected one of:\n• /);
    expect((error as Error).message).toMatch(/not a pi session/);
  });
});
