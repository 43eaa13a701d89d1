// The CLI reads a gzipped session of any agent through the same path as a Zstandard one (the
// intake names the container by its first bytes; its decoder is loaded), printing what the plain
// file prints; `scan` finds `.gz` sessions in a folder.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { findSessionFile, fixtureCase } from "../support/fixtures";
import { runCliCaptured } from "./cli-helpers";

const sessions = [
  { agent: "pi", file: () => findSessionFile(fixtureCase("pi/check-steady").path("session")) },
  { agent: "claude-code", file: () => findSessionFile(fixtureCase("claude/print-autocompact-manualcompact").path("session")) },
];

describe("gzipped sessions in the CLI", () => {
  for (const { agent, file } of sessions) {
    it(`requests prints the same lines for a gzipped ${agent} session as for the plain file`, async () => {
      const folder = mkdtempSync(path.join(tmpdir(), "contextscope-gz-"));
      const plain = path.join(folder, "session.jsonl");
      copyFileSync(file(), plain);
      const gzipped = path.join(folder, "session.jsonl.gz");
      writeFileSync(gzipped, gzipSync(readFileSync(file())));
      const expected = await runCliCaptured(["requests", plain]);
      const run = await runCliCaptured(["requests", gzipped]);
      expect(expected.code).toBe(0);
      expect(run.code).toBe(0);
      expect(run.lines.length).toBeGreaterThan(0);
      expect(run.lines).toEqual(expected.lines);
    });
  }

  it("scan finds a gzipped session in a folder and reads it", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "contextscope-gz-scan-"));
    writeFileSync(path.join(folder, "session.jsonl.gz"), gzipSync(readFileSync(sessions[0]!.file())));
    const run = await runCliCaptured(["scan", folder, "--tokenizer", "estimate"]);
    expect(run.code).toBe(0);
    const line = run.lines.find((candidate) => candidate.file === path.join(folder, "session.jsonl.gz"));
    expect(line?.agent).toBe("pi");
    expect(line?.error).toBeNull();
    expect(line?.turns).toBeGreaterThan(0);
  });
});
