// The CLI's read bounds, changed by environment variables: a line over CONTEXTSCOPE_MAX_LINE_BYTES
// is skipped with its line number and size on standard error, and the other lines are read.
// Reproducer: test/fixtures/hostile/pi-long-line.jsonl (line 3 is 3 kB).
import { afterEach, describe, expect, it } from "vitest";
import { readBoundsFromEnv } from "../../../src/cli/readBounds";
import { DEFAULT_READ_BOUNDS } from "../../../src/core/intake/bounds";
import { runCliCaptured } from "../cli-helpers";

afterEach(() => {
  delete process.env.CONTEXTSCOPE_MAX_LINE_BYTES;
});

describe("read bounds in the CLI", () => {
  it("the defaults, and each one changed by its variable (a bad value keeps the default)", () => {
    expect(readBoundsFromEnv({})).toEqual(DEFAULT_READ_BOUNDS);
    expect(readBoundsFromEnv({ CONTEXTSCOPE_MAX_LINE_BYTES: "2000", CONTEXTSCOPE_MAX_DECODED_RATIO: "50", CONTEXTSCOPE_MAX_DECODED_BYTES: "x" })).toEqual({
      ...DEFAULT_READ_BOUNDS,
      maxLineBytes: 2000,
      maxDecodedRatio: 50,
    });
  });

  it("a line over the bound is skipped with its number and size; the others are read", async () => {
    process.env.CONTEXTSCOPE_MAX_LINE_BYTES = "2000";
    const run = await runCliCaptured(["requests", "test/fixtures/hostile/pi-long-line.jsonl", "--profile", "pi"]);
    expect(run.stderr).toMatch(/warning: line 3: a line of 3\.\d kB is over the line bound \(2\.0 kB\): skipped/);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("still here");
  });

  it("with the default bound the same file reads whole", async () => {
    const run = await runCliCaptured(["requests", "test/fixtures/hostile/pi-long-line.jsonl", "--profile", "pi"]);
    expect(run.stderr).not.toContain("line bound");
  });
});
