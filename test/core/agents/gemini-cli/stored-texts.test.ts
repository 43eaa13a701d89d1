// A Gemini CLI chat read as bytes (its large texts kept in the text store, or left in the file as
// the CLI does) gives what the same chat read as strings gives: the same entries once the stored
// texts are decoded, stored texts only at the places storedTextPlaces.ts lists, and the same
// outputs (each turn's request body and context, the analysis, the prefix rows, the simulated
// compressions, whose split and instruction read the texts). Run on the shared recording when
// present and on generated chats with compressions.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateAgentSession } from "../../../../bench/generate-agent-session";
import type { PipelineOptions, Session } from "../../../../src/core/model";
import { analyzeSession, buildTurnContext, buildTurnRequest } from "../../../../src/core/session/pipeline";
import { readSessionText } from "../../../../src/core/session/index";
import { readSessionChunks } from "../../../../src/core/session/read";
import { analyzeSessionPrefixes } from "../../../../src/core/session/sessionPrefixes";
import { getGeminiIndex } from "../../../../src/core/agents/gemini-cli/history";
import { simulateCompaction } from "../../../../src/core/session/simulate/index";
import { readersKeepStoredTexts, setReadersKeepStoredTexts } from "../../../../src/core/text/storedTextsSwitch";
import { isStoredText, releaseTextStore, type TextStore } from "../../../../src/core/text/storedText";
import { stringifyWithTexts, withTextsDecoded } from "../../../../src/core/text/text";
import { sharedFixtures } from "../../../support/fixtures";
import { memoryTextSource } from "../../../support/memoryTextSource";

const OPTIONS: PipelineOptions = {};

const stores: TextStore[] = [];
afterAll(() => stores.forEach(releaseTextStore));

/** The chat read as bytes in chunks of 64 KB (lines cut across chunks), from memory or left in its "file". */
function readAsBytes(text: string, name: string, inSource: boolean): Session {
  const bytes = new TextEncoder().encode(text);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += 64 * 1024) chunks.push(bytes.subarray(at, at + 64 * 1024));
  const decoder = new TextDecoder("utf-8");
  const before = readersKeepStoredTexts();
  setReadersKeepStoredTexts(true);
  try {
    const session = readSessionChunks(chunks, name, (part) => decoder.decode(part), undefined, inSource ? memoryTextSource(bytes) : undefined);
    if (session.textStore) stores.push(session.textStore);
    return session;
  } finally {
    setReadersKeepStoredTexts(before);
  }
}

/** Paths of every stored text of `value` (`toolCalls[].result`). */
function storedPaths(value: unknown, at = ""): string[] {
  if (isStoredText(value)) return [at];
  if (typeof value !== "object" || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item) => storedPaths(item, `${at}[]`));
  return Object.entries(value).flatMap(([key, item]) => storedPaths(item, at === "" ? key : `${at}.${key}`));
}

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

/** Every output compared, as plain JSON keyed by what it is. */
function outputs(session: Session): Record<string, string> {
  const plain = (value: unknown) => stringifyWithTexts(value);
  const analysis = analyzeSession(session, OPTIONS);
  const out: Record<string, string> = { analysis: plain(analysis) };
  for (const summary of analysis.turns) {
    out[`request ${summary.turn}`] = plain(buildTurnRequest(session, OPTIONS, summary.turn).body);
    out[`context ${summary.turn}`] = plain(buildTurnContext(session, OPTIONS, summary.turn));
  }
  out.prefix = plain(analyzeSessionPrefixes(session, OPTIONS));
  // Compressions simulated after a few turns spread over the chat (their history holds earlier snapshots).
  const turns = analysis.turns.length;
  for (const turn of [1, Math.ceil(turns / 2), turns].filter((n) => n >= 1)) {
    out[`simulated ${turn}`] = plain(simulateCompaction({ session, options: OPTIONS, turn, policyId: "gemini-cli", followingTurns: 0 }));
  }
  return out;
}

function expectSameRead(text: string, name: string, minStored: number): void {
  const strings = readSessionText(text, name);
  const expected = outputs(strings);
  for (const inSource of [false, true]) {
    const bytes = readAsBytes(text, name, inSource);
    expect(bytes.warnings).toEqual(strings.warnings);
    expect(bytes.entries.map((entry) => withTextsDecoded(entry))).toEqual(strings.entries);
    let stored = 0;
    for (const entry of bytes.entries) {
      const paths = storedPaths(entry.raw);
      stored += paths.length;
      for (const at of paths) expect(PLACES, `line ${entry.line}: ${at}`).toContain(at);
    }
    expect(stored).toBeGreaterThanOrEqual(minStored);
    if (inSource && stored > 0) expect(bytes.textStore?.sourced).toBe(stored);
    if (!inSource && stored > 0) expect(bytes.textStore?.sourced).toBeUndefined();
    const actual = outputs(bytes);
    const differing = Object.keys(expected).filter((key) => actual[key] !== expected[key]);
    expect(differing).toEqual([]);
  }
}

describe("a Gemini CLI chat kept as bytes", () => {
  it("the shared recording (when present): every output equal", () => {
    const shared = sharedFixtures();
    if (!shared) return;
    const walk = (at: string): string[] => readdirSync(at, { withFileTypes: true }).flatMap((item) => (item.isDirectory() ? walk(path.join(at, item.name)) : /^session-.*\.jsonl$/.test(item.name) ? [path.join(at, item.name)] : []));
    for (const file of walk(path.join(shared.dir, "gemini-cli"))) expectSameRead(readFileSync(file, "utf8"), path.basename(file), 0);
  });

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
    const bytes = readAsBytes(text, "session-2026-01-01T00-00-abcd.jsonl", true);
    expect(getGeminiIndex(bytes).compressions).toHaveLength(1);
  });
});
