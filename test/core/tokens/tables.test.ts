// The tokenizer tables load on demand: before loadTokenizerTables a counter that needs a table
// throws TokenizerTablesNotLoaded (naming it) while chars/4 counts; afterwards the counts are
// exact. tablesFor names what the counters of a tokenizer choice need per request shape.
import { describe, expect, it, vi } from "vitest";
import { tablesFor } from "../../../src/core/tokens/tables";

async function freshModules() {
  vi.resetModules();
  const tables = await import("../../../src/core/tokens/tables");
  const counters = await import("../../../src/core/tokens/counters");
  const pieces = await import("../../../src/core/tokens/pieces");
  return { tables, counters, pieces };
}

describe("tokenizer tables", () => {
  it("are not loaded until asked for; counters needing them throw, chars/4 does not", async () => {
    const { tables, counters, pieces } = await freshModules();
    expect(tables.isTableLoaded("o200k")).toBe(false);
    expect(tables.isTableLoaded("claude")).toBe(false);
    expect(counters.counterForApi("openai-responses", { tokenizer: "estimate" }).count("hello world")).toBe(3);
    expect(() => counters.o200kCounter.count("hello world")).toThrow(tables.TokenizerTablesNotLoaded);
    expect(() => counters.claudeEstimateCounter.count("hello world")).toThrow(/claude tokenizer table is not loaded/);
    expect(() => pieces.tokenPieces("hello")).toThrow(/o200k tokenizer table is not loaded/);
    // Empty text needs no table.
    expect(counters.o200kCounter.count("")).toBe(0);
  });

  it("count exactly once loaded; each table loads on its own", async () => {
    const { tables, counters } = await freshModules();
    await tables.loadTokenizerTables(["o200k"]);
    expect(tables.isTableLoaded("claude")).toBe(false);
    expect(counters.o200kCounter.count("hello world")).toBe(2);
    expect(() => counters.claudeEstimateCounter.count("hello world")).toThrow(tables.TokenizerTablesNotLoaded);
    await Promise.all([tables.loadTokenizerTables(["claude"]), tables.loadTokenizerTables(["claude", "o200k"])]);
    expect(counters.claudeEstimateCounter.count("hello world")).toBeGreaterThan(0);
  });

  it("tablesFor names what each choice and request shape needs", () => {
    expect(tablesFor("estimate")).toEqual([]);
    expect(tablesFor("estimate", ["openai-responses", "anthropic-messages"])).toEqual([]);
    expect(tablesFor("auto").sort()).toEqual(["claude", "o200k"]);
    expect(tablesFor("auto", ["openai-completions"])).toEqual(["o200k"]);
    expect(tablesFor("auto", ["anthropic-messages"])).toEqual(["claude"]);
    expect(tablesFor("auto", ["anthropic-messages"], 1.1)).toEqual(["o200k"]);
    expect(tablesFor("o200k", ["anthropic-messages"])).toEqual(["o200k"]);
    expect(tablesFor("o200k")).toEqual(["o200k"]);
  });
});
