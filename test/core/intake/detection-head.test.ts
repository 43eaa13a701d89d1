// The agent a file's head says, found from its first lines alone: cut anywhere (inside a line, in
// the middle of a multi-byte character, after blank lines), a head gives the agent detection gives
// on the same lines decoded from the whole head, for sessions of every agent we record.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { plannedSession } from "../../../src/core/intake/plan";
import { detectAgent, DETECTION_LINE_COUNT, splitTextLines } from "../../../src/core/session/index";
import { fixturePath, findSessionFile } from "../../support/fixtures";

const SESSIONS = [
  "claude/print-autocompact-manualcompact/session",
  "codex/exec-autocompact/session",
  "pi/print-openai-autocompact/session",
  "senpi/print-openai-autocompact/session",
  "kimi-code/run-autocompact/session",
].map((folder) => findSessionFile(fixturePath(folder)));

/** Detection over the whole head decoded, the way every head was read before. */
function fromWholeHead(head: Uint8Array, whole: boolean, name: string): string | null {
  const lines = splitTextLines(new TextDecoder().decode(head));
  if (!whole && lines.length > 1) lines.pop();
  return detectAgent(lines.filter((line) => line.trim() !== "").slice(0, DETECTION_LINE_COUNT), name)?.id ?? null;
}

describe("detection from a file's head", () => {
  for (const file of SESSIONS) {
    const bytes = readFileSync(file);
    const name = file.split("/").pop()!;
    it(`${name}: the same agent wherever the head ends`, () => {
      const cuts = [bytes.length, ...Array.from({ length: 24 }, (_, i) => Math.floor((bytes.length * (i + 1)) / 25))];
      let detected = 0;
      for (const cut of cuts) {
        const head = new Uint8Array(bytes.subarray(0, cut));
        const expected = fromWholeHead(head, cut === bytes.length, name);
        expect(plannedSession({ name, size: bytes.length, head }).agentId).toBe(expected);
        if (expected !== null) detected++;
      }
      expect(detected).toBeGreaterThan(20);
    });
  }

  it("a blank line among the first ones gives the same lines as before", () => {
    const lines = readFileSync(SESSIONS[0]!, "utf8").split("\n").slice(0, 30);
    lines.splice(3, 0, "   ", "");
    const head = new TextEncoder().encode(lines.join("\n"));
    expect(plannedSession({ name: "x.jsonl", size: head.length + 100, head }).agentId).toBe(fromWholeHead(head, false, "x.jsonl"));
    expect(fromWholeHead(head, false, "x.jsonl")).not.toBeNull();
  });
});
