// Which tokenizer tables a session's exact counts need (core sessionTables, and the worker's
// tablesForPass built on it): only those of the counters its request shapes use, so opening an
// OpenAI session never waits for the Claude vocabulary, nor an Anthropic one for o200k; a
// provider override brings its own; estimates need none.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { PipelineOptions } from "../../../src/core/model";
import { analyzeSession } from "../../../src/core/session/pipeline";
import { readSessionText } from "../../../src/core/session/index";
import { sessionTables } from "../../../src/core/tokens/sessionTables";
import { tablesForPass } from "../../../src/worker/tokenTables";
import { fixtureCase } from "../../support/fixtures";

function analysed(id: string, api?: "openai-responses") {
  const path = fixtureCase(id).sessionPath;
  const session = readSessionText(readFileSync(path, "utf8"), path);
  const options: PipelineOptions = api ? { profile: "pi", api } : { profile: "pi" };
  return { analysis: analyzeSession(session, options), options };
}

describe("tables a session needs", () => {
  it("an OpenAI Responses session needs o200k only", () => {
    const { analysis, options } = analysed("codex/exec-autocompact");
    expect(sessionTables("auto", analysis, options)).toEqual(["o200k"]);
    expect(tablesForPass("exact", analysis, options)).toEqual(["o200k"]);
  });

  it("an Anthropic session needs the Claude vocabulary only, and o200k too once sent as OpenAI", () => {
    const claude = analysed("claude/print-autocompact-manualcompact");
    expect(sessionTables("auto", claude.analysis, claude.options)).toEqual(["claude"]);
    const asOpenAi = analysed("claude/print-autocompact-manualcompact", "openai-responses");
    expect(tablesForPass("exact", asOpenAi.analysis, asOpenAi.options).sort()).toEqual(["claude", "o200k"]);
  });

  it("estimates need none", () => {
    const { analysis, options } = analysed("codex/exec-autocompact");
    expect(sessionTables("estimate", analysis, options)).toEqual([]);
    expect(tablesForPass("estimate", analysis, options)).toEqual([]);
  });
});
