// `check` loads the tokenizer tables its session's request shapes count with, as `prefix` does:
// a Claude Code session under the default tokenizer asks for the Claude vocabulary and never for
// o200k, whose loading is a third of a second of CPU that a CI gate over many files would pay for
// each. (The test setup has loaded every table already, so what is asked for is recorded.)
import { describe, expect, it, vi } from "vitest";
import type { TokenizerTable } from "../../src/core/tokens/tables";
import { fixtureCase } from "../support/fixtures";
import { runCliCaptured } from "./cli-helpers";

const asked = vi.hoisted(() => [] as string[]);
vi.mock("../../src/core/tokens/tables", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/core/tokens/tables")>();
  return {
    ...original,
    loadTokenizerTables: (tables: Iterable<TokenizerTable>) => {
      asked.push(...tables);
      return original.loadTokenizerTables(tables);
    },
  };
});

describe("check's tokenizer tables", () => {
  it("are the session's own: a Claude Code session asks for no o200k", async () => {
    const run = await runCliCaptured(["check", fixtureCase("claude/print-autocompact-manualcompact").sessionPath]);
    expect(run.code).toBe(0);
    expect(run.lines.length).toBeGreaterThan(0);
    expect(asked).toContain("claude");
    expect(asked).not.toContain("o200k");
  });

  it("are none under --tokenizer estimate", async () => {
    asked.length = 0;
    const run = await runCliCaptured(["check", fixtureCase("claude/print-autocompact-manualcompact").sessionPath, "--tokenizer", "estimate"]);
    expect(run.code).toBe(0);
    expect(asked).toEqual([]);
  });
});
