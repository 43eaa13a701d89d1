// The page's prefix passes and composition pass (src/features/prefix/prefixService.ts) read each
// turn's request before asking for the next and keep none past the turn after: their walks ask
// for the two reused request lists (PipelineHooks.reuseRequestLists), and their rows are those
// of a walk handed a list of its own per turn.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PipelineOptions } from "../../../src/core/model";
import type { PipelineHooks } from "../../../src/core/pipeline/types";
import { readSessionText } from "../../../src/core/session/index";
import { analyzeSession } from "../../../src/core/session/pipeline";
import { iterateSessionPrefixes } from "../../../src/core/session/sessionPrefixes";
import { iterateSessionCompositions } from "../../../src/core/session/sessionComposition";
import { fixtureCase } from "../../support/fixtures";

const asked: PipelineHooks[] = [];

vi.mock("../../../src/core/session/turnRequests", async (original) => {
  const real = await original<typeof import("../../../src/core/session/turnRequests")>();
  return {
    ...real,
    iterateTurnRequests: (...args: Parameters<typeof real.iterateTurnRequests>) => {
      asked.push(args[2] ?? {});
      return real.iterateTurnRequests(...args);
    },
    iterateTurnRequestsAfter: (...args: Parameters<typeof real.iterateTurnRequestsAfter>) => {
      asked.push(args[4] ?? {});
      return real.iterateTurnRequestsAfter(...args);
    },
  };
});

const { PrefixService } = await import("../../../src/features/prefix/prefixService");

const OPTIONS: PipelineOptions = { profile: "pi", leafId: null, api: null, header: null, notes: false };
const KEY = JSON.stringify(OPTIONS);

function session() {
  const file = fixtureCase("pi/print-openai-autocompact").sessionPath;
  return readSessionText(readFileSync(file, "utf8"), path.basename(file));
}

afterEach(() => {
  asked.length = 0;
});

describe("the page's prefix walks", () => {
  it.each(["estimate", "exact"] as const)("the %s pass asks for the reused lists, with the rows of a walk without them", async (pass) => {
    const value = session();
    const analysis = analyzeSession(value, OPTIONS);
    const rows = await new PrefixService(value, () => true).reports(OPTIONS, pass, analysis, KEY);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((hooks) => hooks.reuseRequestLists === true)).toBe(true);
    const plain = [...iterateSessionPrefixes(value, OPTIONS, { analysis, prefix: { tokenizer: pass === "estimate" ? "estimate" : "auto" } })];
    expect(rows.map((row) => row.tokens)).toEqual(plain.map((report) => report.tokens));
    expect(rows.map((row) => row.breakPath)).toEqual(plain.map((report) => report.breakPath));
  });

  it("the composition pass asks for them, with the rows of a walk without them", async () => {
    const value = session();
    const analysis = analyzeSession(value, OPTIONS);
    const rows = await new PrefixService(value, () => true).sessionComposition(OPTIONS, KEY, analysis);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((hooks) => hooks.reuseRequestLists === true)).toBe(true);
    asked.length = 0;
    expect(rows).toEqual([...iterateSessionCompositions(value, OPTIONS, { tokenizer: "estimate" })]);
    expect(asked.every((hooks) => hooks.reuseRequestLists !== true)).toBe(true);
  });
});
