// The facts file's core: made from learnt headers, read back leniently (a bad or foreign file is a
// named problem, never a throw), applied as pipeline options, and fitted to a session's agent.
import { describe, expect, it } from "vitest";
import type { RequestHeader } from "../../../src/core/model";
import { applyFacts, factsFit, makeFactsFile, readFactsFile, userAgentVersion } from "../../../src/core/captures/factsFile";

const header = (model: string, source: string): RequestHeader => ({ api: "anthropic-messages", systemPrompt: "You are…", extraSettings: { thinking: { type: "adaptive" } }, source, model, facts: [] });

describe("facts file", () => {
  const facts = makeFactsFile("claude-code", "2.1.332", [header("opus", "001.json"), header("haiku", "004.json")]);

  it("reads back what it wrote; the first model's header holds the session constants", () => {
    const read = readFactsFile(JSON.stringify(facts), "facts.json");
    expect(read).toEqual({ facts });
    const options = applyFacts(facts);
    expect(options.header?.source).toBe("001.json");
    expect(options.captures?.map((item) => item.model)).toEqual(["haiku"]);
  });

  it("names what is wrong with a bad or foreign file without throwing", () => {
    expect(readFactsFile("{", "a.json")).toMatchObject({ problem: expect.stringContaining("a.json is not JSON") });
    expect(readFactsFile(JSON.stringify({ model: "x", messages: [] }), "b.json")).toEqual({ problem: 'b.json is not a Contextscope facts file (no "format": "contextscope-facts")' });
    expect(readFactsFile(JSON.stringify({ ...facts, version: 2 }), "c.json")).toMatchObject({ problem: expect.stringContaining("format version 2") });
    expect(readFactsFile(JSON.stringify({ ...facts, models: [{ model: "x", header: { api: 3 } }] }), "d.json")).toEqual({ problem: "d.json: model entry 1 holds no learnt request header" });
    expect(readFactsFile(JSON.stringify({ ...facts, models: [] }), "e.json")).toEqual({ problem: "e.json holds no learnt models" });
  });

  it("refuses another agent, warns on another or unknown version", () => {
    expect(factsFit(facts, "claude-code", "2.1.332")).toEqual({ fit: "same" });
    expect(factsFit(facts, "codex", "0.171.0")).toMatchObject({ fit: "refuse", message: expect.stringContaining("claude-code") });
    expect(factsFit(facts, "claude-code", "2.2.0")).toMatchObject({ fit: "warn", message: expect.stringMatching(/2\.1\.332.*2\.2\.0/) });
    expect(factsFit(facts, "claude-code", null)).toMatchObject({ fit: "warn", message: expect.stringContaining("unknown version") });
  });

  it("takes an agent's version from its user-agent, not an SDK's", () => {
    expect(userAgentVersion("claude-cli/2.1.332 (external, sdk-cli)")).toBe("2.1.332");
    expect(userAgentVersion("codex_exec/0.171.0 (Debian 12.0.0; x86_64)")).toBe("0.171.0");
    expect(userAgentVersion("OpenAI/JS 6.26.0")).toBeNull();
  });
});
