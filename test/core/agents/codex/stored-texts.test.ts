// A Codex rollout read as bytes (its large texts kept in the text store, or left in the file as
// the CLI does) gives what the same rollout read as strings gives: the same entries once the
// stored texts are decoded, stored texts only at the places storedTextPlaces.ts lists, and the
// same outputs (each turn's request body and context, the analysis, the prefix rows, the linked
// child rollouts). Run on the committed recording, the spawn-agents fixture and a generated
// rollout with compactions.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateAgentSession } from "../../../../bench/generate-agent-session";
import type { PipelineOptions, Session } from "../../../../src/core/model";
import { readSessionText } from "../../../../src/core/session/index";
import { linkSessions } from "../../../../src/core/session/threads";
import { isStoredText, releaseTextStore, SOURCE_CHUNK } from "../../../../src/core/text/storedText";
import { itemChars, itemContext } from "../../../../src/core/agents/codex/context";
import { stringifyWithTexts } from "../../../../src/core/text/text";
import { expectSameBytesRead, readSessionAsBytes, releaseBytesReads, sessionOutputs } from "../../../support/readAsBytes";
import { fixtureCase, repoPath } from "../../../support/fixtures";
import { mayKeepStoredTexts } from "../../../../src/core/agents/codex/storedTextPlaces";

const OPTIONS: PipelineOptions = { profile: "pi" };

afterAll(releaseBytesReads);

/** The places storedTextPlaces.ts lists, written out here on their own: payload type → paths. */
const PLACES: Readonly<Record<string, readonly string[]>> = {
  message: ["payload.content[].text"],
  function_call_output: ["payload.output"],
  custom_tool_call_output: ["payload.output"],
  function_call: ["payload.arguments"],
  custom_tool_call: ["payload.input"],
  reasoning: ["payload.encrypted_content", "payload.summary[].text"],
  compacted: ["payload.replacement_history[].content[].text"],
};

function expectSameRead(text: string, name: string, minStored: number): void {
  expectSameBytesRead(text, name, minStored, (session) => sessionOutputs(session, OPTIONS), (entry, at) => {
    const type = entry.type === "compacted" ? "compacted" : ((entry.raw.payload as { type?: string } | undefined)?.type ?? "");
    expect({ line: entry.line, type: entry.type === "compacted" ? "response_item" : entry.type, at: PLACES[type]?.includes(at) ? "a place" : at }).toEqual({ line: entry.line, type: "response_item", at: "a place" });
  });
}

describe("a Codex rollout kept as bytes", () => {
  it("the committed recording: the same entries, stored texts only at the places, every output equal", () => {
    const fixture = fixtureCase("codex/exec-autocompact");
    expectSameRead(readFileSync(fixture.sessionPath, "utf8"), path.basename(fixture.sessionPath), 1);
  });

  it("a generated rollout with compactions: most of its bytes stay out of strings, every output equal", () => {
    const generated = generateAgentSession("codex", { minBytes: 300 * 1024, seed: 7, callsPerCompaction: 12 });
    expect(generated.compactions).toBeGreaterThan(0);
    expectSameRead(readFileSync(generated.file, "utf8"), path.basename(generated.file), 50);
  });

  it("a parent and its child rollouts link alike (spawn_agent outputs are read only where a call names a child)", () => {
    const dir = repoPath("test/fixtures/codex/spawn-agents");
    const files: string[] = [];
    const walk = (at: string) => readdirSync(at, { withFileTypes: true }).forEach((item) => (item.isDirectory() ? walk(path.join(at, item.name)) : item.name.endsWith(".jsonl") && files.push(path.join(at, item.name))));
    walk(dir);
    expect(files.length).toBeGreaterThan(1);
    const link = (read: (text: string, name: string) => Session) => {
      const linked = linkSessions(files.map((file) => read(readFileSync(file, "utf8"), path.basename(file))));
      return stringifyWithTexts({ threads: linked.session.threads ?? [], unlinked: linked.unlinked.map((session) => session.fileName) });
    };
    expect(link((text, name) => readSessionAsBytes(text, name, { inSource: true }))).toBe(link(readSessionText));
  });
});

// The source chunk is what the CLI uses: no text of the generated rollout is copied into the store
// (only each text's first bytes, at most 32 a text).
it("a rollout left in its file copies no stored text into the store", () => {
  const generated = generateAgentSession("codex", { minBytes: 200 * 1024, seed: 3 });
  const session = readSessionAsBytes(readFileSync(generated.file, "utf8"), "rollout.jsonl", { inSource: true });
  const chunks = new Set(session.entries.flatMap((entry) => collectChunks(entry.raw)));
  expect([...chunks]).toEqual([SOURCE_CHUNK]);
  const texts = session.entries.flatMap((entry) => collectChunks(entry.raw)).length;
  expect(session.textStore!.chunks.length === 1 && session.textStore!.used <= 32 * texts).toBe(true);
});

function collectChunks(value: unknown): number[] {
  if (isStoredText(value)) return [value.chunk];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(collectChunks);
}

// Lines whose leading bytes show no place to keep a text are read as text (their texts are never
// stored, measured and decoded again); any line whose start is not Codex's envelope may hold one.
describe("which rollout lines may keep a stored text", () => {
  const bytes = (line: string) => new TextEncoder().encode(line);
  const may = (line: string) => {
    const encoded = bytes(`  ${line}  `);
    return mayKeepStoredTexts(encoded, 2, encoded.length - 2);
  };
  const big = "x".repeat(2000);
  const at = "2026-11-29T08:00:00.000Z";

  it("no place: events, turn contexts", () => {
    expect(may(JSON.stringify({ timestamp: at, type: "event_msg", payload: { type: "agent_message", message: big } }))).toBe(false);
    expect(may(JSON.stringify({ timestamp: at, type: "turn_context", payload: { model: "m" } }))).toBe(false);
  });

  it("a compaction may (the messages of its replacement history)", () => {
    expect(may(JSON.stringify({ timestamp: at, type: "compacted", payload: { message: big, replacement_history: [] } }))).toBe(true);
  });

  it("the item types with a place, and anything not in the envelope's own order, may", () => {
    for (const type of Object.keys(PLACES).filter((type) => type !== "compacted")) expect(may(JSON.stringify({ timestamp: at, type: "response_item", payload: { type, text: big } }))).toBe(true);
    expect(may(JSON.stringify({ type: "event_msg", timestamp: at, payload: { type: "agent_message", message: big } }))).toBe(true);
    expect(may(JSON.stringify({ timestamp: at, type: "response\\u005fitem", payload: { type: "message" } }).replace("\\\\u005f", "\\u005f"))).toBe(true);
    expect(may(JSON.stringify({ timestamp: at, type: "response_item", payload: { role: "user", type: "message" } }))).toBe(true);
    expect(may(JSON.stringify({ type: "function_call", arguments: big }))).toBe(true);
  });

  it("a response item of no place (an unknown type) has none", () => {
    expect(may(JSON.stringify({ timestamp: at, type: "response_item", payload: { type: "web_search_call", action: big } }))).toBe(false);
  });
});

// A tool call's large arguments stay in the file until its view is made (callArguments.ts): reading
// keeps no parsed copy of them, so a view made once the file is gone has nothing to read them from,
// and one made while it is there reads them back.
it("a tool call's view reads its arguments back from the file: reading keeps no parsed copy", () => {
  const args = JSON.stringify({ cmd: "x".repeat(3000), nested: { n: 1 } });
  const lines = [
    { timestamp: "2026-11-29T08:00:00.000Z", type: "session_meta", payload: { id: "t1" } },
    { timestamp: "2026-11-29T08:00:01.000Z", type: "response_item", payload: { type: "function_call", name: "exec_command", arguments: args, call_id: "c1" } },
  ];
  const text = lines.map((line) => JSON.stringify(line)).join("\n");
  const viewArguments = (item: Record<string, unknown>) => (itemContext(item, "L2").message as { content: { arguments: unknown }[] }).content[0]!.arguments;
  const kept = readSessionAsBytes(text, "rollout.jsonl", { inSource: true });
  const keptItem = kept.entries[1]!.raw.payload as Record<string, unknown>;
  expect(isStoredText(keptItem.arguments)).toBe(true);
  expect(viewArguments(keptItem)).toEqual(JSON.parse(args));
  const gone = readSessionAsBytes(text, "rollout.jsonl", { inSource: true });
  const goneItem = gone.entries[1]!.raw.payload as Record<string, unknown>;
  releaseTextStore(gone.textStore!);
  expect(() => viewArguments(goneItem)).toThrow(/store is not known/);
});

// A reasoning item's summary texts are places too (storedTextPlaces.ts): left in the file, with the
// view and the item's size what they are when the texts are strings.
it("a reasoning item's large summary texts stay stored, with the same view and size", () => {
  const summary = [{ type: "summary_text", text: "Thinking about \"it\"\n".repeat(100) }, { type: "summary_text", text: "short" }];
  const lines = [
    { timestamp: "2026-11-29T08:00:00.000Z", type: "session_meta", payload: { id: "t1" } },
    { timestamp: "2026-11-29T08:00:01.000Z", type: "response_item", payload: { type: "reasoning", summary, encrypted_content: null } },
  ];
  const text = lines.map((line) => JSON.stringify(line)).join("\n");
  const session = readSessionAsBytes(text, "rollout.jsonl", { inSource: true });
  const item = session.entries[1]!.raw.payload as { summary: { text: unknown }[] };
  expect(isStoredText(item.summary[0]!.text)).toBe(true);
  expect(item.summary[1]!.text).toBe("short");
  const plain = readSessionText(text, "rollout.jsonl")!.entries[1]!.raw.payload as Record<string, unknown>;
  expect(itemChars(item as Record<string, unknown>)).toBe(JSON.stringify(plain).length);
  expect(stringifyWithTexts(itemContext(item as Record<string, unknown>, "L2").message)).toBe(JSON.stringify(itemContext(plain, "L2").message));
});

// The messages of a compaction's replacement history are places (storedTextPlaces.ts): each
// compaction repeats the prompts it keeps, which would otherwise be strings of their own per line.
it("a compaction's large replacement history texts stay stored; its own message stays a string", () => {
  const prompt = "Please look at \"this\"\n".repeat(80);
  const summary = "Another language model started to solve this problem " + "and wrote this. ".repeat(100);
  const lines = [
    { timestamp: "2026-11-29T08:00:00.000Z", type: "session_meta", payload: { id: "t1" } },
    { timestamp: "2026-11-29T08:00:01.000Z", type: "compacted", payload: { message: summary, replacement_history: [{ type: "message", role: "user", content: [{ type: "input_text", text: prompt }] }, { type: "message", role: "user", content: [{ type: "input_text", text: summary }] }] } },
  ];
  const session = readSessionAsBytes(lines.map((line) => JSON.stringify(line)).join("\n"), "rollout.jsonl", { inSource: true });
  const payload = session.entries[1]!.raw.payload as { message: unknown; replacement_history: { content: { text: unknown }[] }[] };
  expect(payload.message).toBe(summary);
  for (const item of payload.replacement_history) expect(isStoredText(item.content[0]!.text)).toBe(true);
});
