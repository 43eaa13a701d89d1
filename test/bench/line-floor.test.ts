// The read-and-parse floor (bench/line-floor.mjs): reading in chunks and keeping nothing
// (`--keep-none`, for files too large to hold) parses the same lines as reading the whole file and
// keeping every record, with lines that cross the 4 MB chunks and one longer than a chunk.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const folder = mkdtempSync(path.join(tmpdir(), "line-floor-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const floor = (...args: string[]) => execFileSync(process.execPath, ["bench/line-floor.mjs", ...args], { encoding: "utf8" }).trim();

describe("line-floor", () => {
  it("counts the same records with --keep-none as when keeping them", () => {
    const lines: string[] = [];
    // About 9 MB of lines of varied lengths (each chunk boundary falls inside one), then a line of
    // 6 MB (longer than a chunk), a blank line, more lines, and an unterminated last line.
    for (let i = 0; i < 30_000; i++) lines.push(JSON.stringify({ i, text: "x".repeat((i * 37) % 600) }));
    lines.push(JSON.stringify({ long: "y".repeat(6 * 1024 * 1024) }), "");
    for (let i = 0; i < 100; i++) lines.push(JSON.stringify({ after: i }));
    const file = path.join(folder, "session.jsonl");
    writeFileSync(file, `${lines.join("\n")}\n{"unterminated":true}`);
    expect(floor(file)).toBe("30101");
    expect(floor("--keep-none", file)).toBe("30101");
  });
});
