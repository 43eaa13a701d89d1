// A Qwen Code chat read as bytes (its large texts kept in the text store, or left in the file as
// the CLI does) gives what the same chat read as strings gives: the same entries once the stored
// texts are decoded, stored texts only at the places storedTextPlaces.ts lists, and the same
// outputs (each turn's request body and context, the analysis, the prefix rows). Run on the
// committed chats, the shared recording when present, and a generated chat with compressions.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateAgentSession } from "../../../../bench/generate-agent-session";
import type { PipelineOptions, Session } from "../../../../src/core/model";
import { analyzeSession, buildTurnContext, buildTurnRequest } from "../../../../src/core/session/pipeline";
import { readSessionText } from "../../../../src/core/session/index";
import { readSessionChunks } from "../../../../src/core/session/read";
import { analyzeSessionPrefixes } from "../../../../src/core/session/sessionPrefixes";
import { readersKeepStoredTexts, setReadersKeepStoredTexts } from "../../../../src/core/text/storedTextsSwitch";
import { isStoredText, releaseTextStore, type TextStore } from "../../../../src/core/text/storedText";
import { stringifyWithTexts, withTextsDecoded } from "../../../../src/core/text/text";
import { repoPath, sharedFixtures } from "../../../support/fixtures";
import { memoryTextSource } from "../../../support/memoryTextSource";

const OPTIONS: PipelineOptions = { profile: "pi" };

const stores: TextStore[] = [];
afterAll(() => stores.forEach(releaseTextStore));

/** The rollout read as bytes in chunks of 64 KB (lines cut across chunks), from memory or left in its "file". */
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

/** Paths of every stored text of `value` (`payload.content[].text`). */
function storedPaths(value: unknown, at = ""): string[] {
  if (isStoredText(value)) return [at];
  if (typeof value !== "object" || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item) => storedPaths(item, `${at}[]`));
  return Object.entries(value).flatMap(([key, item]) => storedPaths(item, at === "" ? key : `${at}.${key}`));
}

/** The places storedTextPlaces.ts lists, written out here on their own: record type → paths. */
const PLACES: Readonly<Record<string, readonly string[]>> = {
  assistant: ["message.parts[].text"],
  tool_result: ["message.parts[].functionResponse.response.output", "toolCallResult.resultDisplay"],
};

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
      for (const at of paths) expect(PLACES[String(entry.raw.type)] ?? [], `line ${entry.line}: ${at}`).toContain(at);
    }
    expect(stored).toBeGreaterThanOrEqual(minStored);
    if (inSource && stored > 0) expect(bytes.textStore?.sourced).toBe(stored);
    if (!inSource && stored > 0) expect(bytes.textStore?.sourced).toBeUndefined();
    const actual = outputs(bytes);
    const differing = Object.keys(expected).filter((key) => actual[key] !== expected[key]);
    expect(differing).toEqual([]);
  }
}

describe("a Qwen Code chat kept as bytes", () => {
  it("the committed chats: the same entries, stored texts only at the places, every output equal", () => {
    const dir = repoPath("test/fixtures/qwen-code");
    const files = readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) expectSameRead(readFileSync(path.join(dir, name), "utf8"), name, 0);
  });

  it("the shared recording (when present): every output equal", () => {
    const shared = sharedFixtures();
    if (!shared) return;
    const chats = path.join(shared.dir, "qwen-code/p-continue-autocompress/session/projects");
    const walk = (at: string): string[] => readdirSync(at, { withFileTypes: true }).flatMap((item) => (item.isDirectory() ? walk(path.join(at, item.name)) : item.name.endsWith(".jsonl") ? [path.join(at, item.name)] : []));
    for (const file of walk(chats)) expectSameRead(readFileSync(file, "utf8"), path.basename(file), 0);
  });

  it("a generated chat with compressions: its tool outputs and answers stay out of strings, every output equal", () => {
    const generated = generateAgentSession("qwen-code", { minBytes: 300 * 1024, seed: 7, callsPerCompaction: 12 });
    expect(generated.compactions).toBeGreaterThan(0);
    expectSameRead(readFileSync(generated.file, "utf8"), path.basename(generated.file), 20);
  });
});
