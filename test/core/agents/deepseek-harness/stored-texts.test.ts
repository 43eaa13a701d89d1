// A deepseek-harness log read as bytes (its large texts kept in the text store, or left in the file
// as the CLI does) gives what the same log read as strings gives: the same entries once the stored
// texts are decoded, stored texts only at the places storedTextPlaces.ts lists, and the same
// outputs (each request body and context, the analysis, the prefix rows). Run on the recorded log,
// the fork fixtures and a generated log with compactions, whose tool outputs and answers are long.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateAgentSession } from "../../../../bench/generate-agent-session";
import type { PipelineOptions } from "../../../../src/core/model";
import { expectSameBytesRead, readSessionAsBytes, releaseBytesReads, sessionOutputs, storedTextPaths } from "../../../support/readAsBytes";
import { repoPath } from "../../../support/fixtures";
import { stringifyWithTexts } from "../../../../src/core/text/text";
import { decodedPath } from "./helpers";

const OPTIONS: PipelineOptions = {};

afterAll(releaseBytesReads);

/** The places storedTextPlaces.ts lists, written out here on their own: event type → paths. */
const PLACES: Readonly<Record<string, readonly string[]>> = {
  "user/message": ["data.content[].text"],
  "assistant/message": ["data.message.content[].text"],
  "tool/result": ["data.message.content[].content[].text"],
  "assistant/chunk": ["data.chunk.block.text", "data.chunk.block.arguments"],
  "tool/call": ["data.arguments"],
  "compaction/summary": ["data.summary[].text", "data.rawOutput[].text"],
};

function expectSameRead(text: string, name: string, minStored: number): void {
  expectSameBytesRead(text, name, minStored, (session) => sessionOutputs(session, OPTIONS), (entry, at) => expect(PLACES[entry.type] ?? [], `line ${entry.line}: ${at}`).toContain(at));
}

describe("a deepseek-harness log kept as bytes", () => {
  it("the recorded log and the fork fixtures: the same entries, stored texts only at the places, every output equal", () => {
    expectSameRead(readFileSync(decodedPath(), "utf8"), "session.jsonl", 0);
    const dir = repoPath("test/fixtures/deepseek-harness/fork-failed-compaction/session/--home-dev-demo--");
    for (const id of readdirSync(dir)) expectSameRead(readFileSync(path.join(dir, id, "session.jsonl"), "utf8"), "session.jsonl", 0);
  });

  it("a generated log with compactions: its long texts stay out of strings, every output equal", () => {
    const generated = generateAgentSession("deepseek-harness", { minBytes: 400 * 1024, seed: 7, callsPerCompaction: 12 });
    expect(generated.compactions).toBeGreaterThan(0);
    expectSameRead(readFileSync(generated.file, "utf8"), path.basename(generated.file), 20);
  });

  it("leaves the long tool outputs in the file: none of them is a string of the session", () => {
    const generated = generateAgentSession("deepseek-harness", { minBytes: 200 * 1024, seed: 3 });
    const text = readFileSync(generated.file, "utf8");
    const session = readSessionAsBytes(text, "session.jsonl", { inSource: true });
    const results = session.entries.filter((entry) => entry.type === "tool/result" && stringifyWithTexts(entry.raw).length > 4096);
    expect(results.length).toBeGreaterThan(0);
    for (const entry of results) expect(storedTextPaths(entry.raw)).toContain("data.message.content[].content[].text");
    expect(session.textStore?.sourced).toBeGreaterThan(0);
  });
});
