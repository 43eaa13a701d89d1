// A Qwen Code chat read as bytes (its large texts kept in the text store, or left in the file as
// the CLI does) gives what the same chat read as strings gives: the same entries once the stored
// texts are decoded, stored texts only at the places storedTextPlaces.ts lists, and the same
// outputs (each turn's request body and context, the analysis, the prefix rows). Run on the
// committed chats, the shared recording (../shared/fixtures), and a generated chat with compressions.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateAgentSession } from "../../../../bench/generate-agent-session";
import type { PipelineOptions } from "../../../../src/core/model";
import { expectSameBytesRead, releaseBytesReads, sessionOutputs } from "../../../support/readAsBytes";
import { describeShared, repoPath } from "../../../support/fixtures";

const OPTIONS: PipelineOptions = { profile: "pi" };

afterAll(releaseBytesReads);

/** The places storedTextPlaces.ts lists, written out here on their own: record type → paths. */
const PLACES: Readonly<Record<string, readonly string[]>> = {
  assistant: ["message.parts[].text"],
  tool_result: ["message.parts[].functionResponse.response.output", "toolCallResult.resultDisplay"],
};

function expectSameRead(text: string, name: string, minStored: number): void {
  expectSameBytesRead(text, name, minStored, (session) => sessionOutputs(session, OPTIONS), (entry, at) => expect(PLACES[String(entry.raw.type)] ?? [], `line ${entry.line}: ${at}`).toContain(at));
}

describe("a Qwen Code chat kept as bytes", () => {
  it("the committed chats: the same entries, stored texts only at the places, every output equal", () => {
    const dir = repoPath("test/fixtures/qwen-code");
    const files = readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) expectSameRead(readFileSync(path.join(dir, name), "utf8"), name, 0);
  });

  it("a generated chat with compressions: its tool outputs and answers stay out of strings, every output equal", () => {
    const generated = generateAgentSession("qwen-code", { minBytes: 300 * 1024, seed: 7, callsPerCompaction: 12 });
    expect(generated.compactions).toBeGreaterThan(0);
    expectSameRead(readFileSync(generated.file, "utf8"), path.basename(generated.file), 20);
  });
});

describeShared("a Qwen Code chat recorded from the agent, kept as bytes", (shared) => {
  it("every output equal", () => {
    const chats = path.join(shared.dir, "qwen-code/p-continue-autocompress/session/projects");
    const walk = (at: string): string[] => readdirSync(at, { withFileTypes: true }).flatMap((item) => (item.isDirectory() ? walk(path.join(at, item.name)) : item.name.endsWith(".jsonl") ? [path.join(at, item.name)] : []));
    const files = walk(chats);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expectSameRead(readFileSync(file, "utf8"), path.basename(file), 0);
  });
});
