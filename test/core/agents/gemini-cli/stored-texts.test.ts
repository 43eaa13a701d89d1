// A Gemini CLI chat read as bytes (its large texts kept in the text store, or left in the file as
// the CLI does) gives what the same chat read as strings gives: the same entries once the stored
// texts are decoded, stored texts only at the places storedTextPlaces.ts lists, and the same
// outputs (each turn's request body and context, the analysis, the prefix rows, the simulated
// compressions, whose split and instruction read the texts). Run on the shared recording
// (../shared/fixtures) and on generated chats with compressions.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateAgentSession } from "../../../../bench/generate-agent-session";
import type { PipelineOptions, Session } from "../../../../src/core/model";
import { analyzeSession } from "../../../../src/core/session/pipeline";
import { getGeminiIndex } from "../../../../src/core/agents/gemini-cli/history";
import { simulateCompaction } from "../../../../src/core/session/simulate/index";
import { stringifyWithTexts } from "../../../../src/core/text/text";
import { describeShared } from "../../../support/fixtures";
import { expectSameBytesRead, readSessionAsBytes, releaseBytesReads, sessionOutputs } from "../../../support/readAsBytes";

const OPTIONS: PipelineOptions = {};

afterAll(releaseBytesReads);

/** The places storedTextPlaces.ts lists, written out here on their own, in a message record. */
const MESSAGE_PLACES = [
  "content",
  "content.text",
  "content[].text",
  "content.functionResponse.response.output",
  "content[].functionResponse.response.output",
  "toolCalls[].result",
  "toolCalls[].result[].text",
  "toolCalls[].result[].functionResponse.response.output",
  "thoughts[].description",
];
const PLACES = [...MESSAGE_PLACES, ...MESSAGE_PLACES.map((place) => `$set.messages[].${place}`)];

/** Every output compared, as plain JSON keyed by what it is, simulated compressions included. */
function outputs(session: Session): Record<string, string> {
  const plain = (value: unknown) => stringifyWithTexts(value);
  const out = sessionOutputs(session, OPTIONS);
  const turns = analyzeSession(session, OPTIONS).turns.length;
  // Compressions simulated after a few turns spread over the chat (their history holds earlier snapshots).
  for (const turn of [1, Math.ceil(turns / 2), turns].filter((n) => n >= 1)) {
    out[`simulated ${turn}`] = plain(simulateCompaction({ session, options: OPTIONS, turn, policyId: "gemini-cli", followingTurns: 0 }));
  }
  return out;
}

function expectSameRead(text: string, name: string, minStored: number): void {
  expectSameBytesRead(text, name, minStored, outputs, (entry, at) => expect(PLACES, `line ${entry.line}: ${at}`).toContain(at));
}

describe("a Gemini CLI chat kept as bytes", () => {
  it("generated chats with compressions: their contents and results stay out of strings, every output equal", () => {
    for (const seed of [7, 8]) {
      const generated = generateAgentSession("gemini-cli", { minBytes: 300 * 1024, seed, callsPerCompaction: 12 });
      expect(generated.compactions).toBeGreaterThan(0);
      expectSameRead(readFileSync(generated.file, "utf8"), path.basename(generated.file), 20);
    }
  });

  it("a large text at each place, a snapshot among them and a line of the older form: read alike", () => {
    const big = (tag: string) => `${tag}${"lorem ipsum é ".repeat(120)}`;
    const lines = [
      { sessionId: "s1", projectHash: "p", startTime: "2026-01-01T00:00:00Z", lastUpdated: "2026-01-01T00:00:00Z" },
      { id: "u1", timestamp: "2026-01-01T00:00:01Z", type: "user", content: big("  prompt ") },
      { id: "g1", timestamp: "2026-01-01T00:00:02Z", type: "gemini", content: [{ text: big("answer ") }], toolCalls: [{ id: "read_file__1", name: "read_file", args: { path: "a" }, result: big("file ") }], tokens: { input: 10, output: 2 }, model: "gemini-2.5-flash" },
      { id: "g2", timestamp: "2026-01-01T00:00:03Z", type: "gemini", content: "done", toolCalls: [{ id: "c2", name: "shell", args: {}, result: [{ functionResponse: { id: "c2", name: "shell", response: { output: big("out ") } } }] }], tokens: { input: 20, output: 2 }, model: "gemini-2.5-flash" },
      { $set: { messages: [{ id: "s", type: "user", content: [{ text: `\n ${big("<state_snapshot>")}</state_snapshot>` }] }, { id: "a", type: "gemini", content: "Got it." }] } },
      { id: "u2", timestamp: "2026-01-01T00:00:04Z", type: "user", content: [{ text: big("next ") }] },
      { id: "g3", timestamp: "2026-01-01T00:00:05Z", type: "gemini", content: "ok", tokens: { input: 30, output: 2 }, model: "gemini-2.5-flash" },
    ];
    const text = lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
    expectSameRead(text, "session-2026-01-01T00-00-abcd.jsonl", 6);
    // The snapshot, a stored text after blanks, is still seen as one (a compression).
    const bytes = readSessionAsBytes(text, "session-2026-01-01T00-00-abcd.jsonl", { inSource: true });
    expect(getGeminiIndex(bytes).compressions).toHaveLength(1);
  });
});

describeShared("a Gemini CLI chat recorded from the agent, kept as bytes", (shared) => {
  it("every output equal", () => {
    const walk = (at: string): string[] => readdirSync(at, { withFileTypes: true }).flatMap((item) => (item.isDirectory() ? walk(path.join(at, item.name)) : /^session-.*\.jsonl$/.test(item.name) ? [path.join(at, item.name)] : []));
    const files = walk(path.join(shared.dir, "gemini-cli"));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expectSameRead(readFileSync(file, "utf8"), path.basename(file), 0);
  });
});
