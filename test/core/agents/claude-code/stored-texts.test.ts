// A Claude Code session kept as bytes gives what the same session read as strings gives: for
// every Claude Code session we hold (real users' transcripts, the recording with its requests, the
// committed fixture, a sub-agent file, odd lines), its large texts are stored (test/support/
// storedClaudeSession.ts) at the reader's threshold and at a tiny one (nearly every text stored),
// and every output is compared: each turn's request (rendered with stringifyWithTexts; the
// recorded requests/NNN.json where the string session equals it), the analysis (turn summaries,
// timeline, events, warnings), prefix rows, compositions and token estimates, the request and
// conversation views, search hits, simulations, the share lines and their redaction, and the
// sub-agent threads. The same through the
// reader itself: the file read as bytes (`pushLineBytes`, readers keeping stored texts) gives the
// entries and warnings of the string read, stored texts only at the listed places, and every output.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { piMessageChars } from "../../../../src/core/agents/pi/estimate";
import type { PipelineOptions, Session, SessionEntry } from "../../../../src/core/model";
import { analyzeSession, buildTurnContext, buildTurnRequest } from "../../../../src/core/session/pipeline";
import { readSessionText } from "../../../../src/core/session/index";
import { SessionFollower } from "../../../../src/core/session/follow";
import { sessionGrew } from "../../../../src/core/session/growth";
import { isStoredText, SOURCE_CHUNK, type StoredText } from "../../../../src/core/text/storedText";
import { withTextsDecoded } from "../../../../src/core/text/text";
import { analyzeSessionPrefixes } from "../../../../src/core/session/sessionPrefixes";
import { iterateSessionCompositions } from "../../../../src/core/session/sessionComposition";
import { simulateCompaction } from "../../../../src/core/session/simulate/simulate";
import { linkSessions } from "../../../../src/core/session/threads";
import { searchSession } from "../../../../src/core/search/searchSession";
import { stringifyWithTexts } from "../../../../src/core/text/text";
import { redactSession } from "../../../../src/core/redact/session";
import { sessionLines } from "../../../../src/core/share/session-lines";
import { requestView } from "../../../../src/features/request/requestModel";
import { conversationView } from "../../../../src/features/conversation/conversationModel";
import { describeShared, fixtureCase } from "../../../support/fixtures";
import { storeClaudeSession } from "../../../support/storedClaudeSession";
import { SECRET_EXAMPLES } from "../../../support/secret-examples";
import { readersKeepStoredTexts, setReadersKeepStoredTexts } from "../../../../src/core/text/storedTextsSwitch";
import { keepStoreUntilRelease, readSessionAsBytes, releaseBytesReads, storedTextPaths } from "../../../support/readAsBytes";
import { assistant, readClaude, toText, user } from "./helpers";

const OPTIONS: PipelineOptions = { profile: "pi" };
const THRESHOLDS = [1024, 8];
const QUERIES = ["README", "store", "the", "system-reminder", "Summary"];

afterAll(releaseBytesReads);

/** The places docs/formats.md lists, written out here on their own (block types checked apart). */
const MESSAGE_PLACES = [/^message\.content$/, /^message\.content\[\]\.(text|thinking|signature|data|content)$/, /^message\.content\[\]\.source\.data$/, /^message\.content\[\]\.content\[\]\.(text|source\.data)$/];
function allowedPlace(type: string, place: string): boolean {
  const inMessage = (path: string) => MESSAGE_PLACES.some((pattern) => pattern.test(path));
  if (type === "user" || type === "assistant") return inMessage(place) || (/^toolUseResult(\.|\[|$)/.test(place) && !/agentId$/.test(place));
  if (type === "api-request-blob") return inMessage(place);
  if (type === "progress") {
    if (/^data\.(prompt|output|fullOutput)$/.test(place)) return true;
    if (place.startsWith("data.message.message.")) return inMessage(place.slice("data.message.".length));
    return /^data\.message\.toolUseResult(\.|\[|$)/.test(place) && !/agentId$/.test(place);
  }
  return false;
}

/** The file read as bytes by the reader equals the string read, and keeps stored texts only at the places. */
function expectReaderKeepsPlaces(text: string, name: string, strings: Session, minimumStored: number, inSource = false): Session {
  const bytes = readSessionAsBytes(text, name, { chunkBytes: inSource ? 4096 : undefined, inSource });
  expect(bytes.warnings).toEqual(strings.warnings);
  expect(withTextsDecoded(bytes.entries)).toEqual(strings.entries);
  const places = bytes.entries.flatMap((entry) => storedTextPaths(entry.raw).map((place) => ({ type: entry.type, place })));
  expect(places.length).toBeGreaterThanOrEqual(minimumStored);
  expect(places.filter(({ type, place }) => !allowedPlace(type, place))).toEqual([]);
  expect(places.length > 0 ? bytes.textStore : undefined).toBeDefined();
  if (inSource) {
    // Read with its input readable again: every kept text stays there but a compaction summary's
    // (copied whole while its line is read), and the store copies only the others' first bytes
    // (at most 32 a text).
    const isSummary = (entry: SessionEntry) => entry.type === "user" && entry.raw.isCompactSummary === true;
    const kept = bytes.entries.flatMap((entry) => storedTexts(entry.raw));
    const summaries = bytes.entries.filter(isSummary).flatMap((entry) => storedTexts(entry.raw));
    expect(kept.length).toBe(places.length);
    expect(kept.filter((stored) => stored.chunk !== SOURCE_CHUNK)).toEqual(summaries.filter((stored) => stored.byteLength <= 64 * 1024));
    if (summaries.length === 0) expect(bytes.textStore!.chunks.length === 1 && bytes.textStore!.used <= 32 * kept.length).toBe(true);
  }
  return bytes;
}

/** The stored texts a value holds. */
function storedTexts(value: unknown): StoredText[] {
  if (isStoredText(value)) return [value];
  if (Array.isArray(value)) return value.flatMap(storedTexts);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(storedTexts);
  return [];
}

/** The stored session's outputs equal `expected`, key by key. */
function expectOutputs(kept: Session, expected: Record<string, unknown>): void {
  const actual = allOutputs(kept);
  expect(Object.keys(actual)).toEqual(Object.keys(expected));
  const differing = Object.keys(expected).filter((key) => JSON.stringify(actual[key]) !== JSON.stringify(expected[key]));
  expect(differing).toEqual([]);
}

function stored(session: Session, threshold: number): Session {
  const result = storeClaudeSession(session, threshold);
  keepStoreUntilRelease(result.store);
  return result.session;
}

/** Plain JSON of a value that may hold stored texts (each as its string). */
function plain(value: unknown): unknown {
  return JSON.parse(stringifyWithTexts(value));
}

/** Every output of `session` (one thread or the main one), as plain JSON, keyed by what it is. */
function outputs(session: Session, options: PipelineOptions = OPTIONS): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const analysis = analyzeSession(session, options);
  out.analysis = plain(analysis);
  for (const summary of analysis.turns) {
    const built = buildTurnRequest(session, options, summary.turn);
    out[`request ${summary.turn}`] = stringifyWithTexts(built.body);
    out[`request ${summary.turn} facts`] = plain({ messages: built.messages, notRecorded: built.notRecorded, dropped: built.dropped, model: built.model });
    out[`context ${summary.turn}`] = plain(buildTurnContext(session, options, summary.turn));
    out[`request view ${summary.turn}`] = plain(requestView(summary.turn, built, (message) => piMessageChars(message, options)));
    out[`conversation view ${summary.turn}`] = plain(conversationView(summary.turn, built));
  }
  out.prefix = plain(analyzeSessionPrefixes(session, options));
  // What leaves for a share: the session's lines, and its redaction (findings, masked values).
  out.lines = sessionLines(session);
  const redacted = redactSession(session);
  out.redaction = plain({ findings: redacted.findings, entries: redacted.value.entries.map((entry) => entry.raw) });
  out.compositions = plain([...iterateSessionCompositions(session, options)]);
  for (const query of QUERIES) out[`search ${query}`] = plain([...searchSession(session, options, query)]);
  // The simulator after a few turns (the first, a middle one, the last).
  const turns = analysis.turns.map((summary) => summary.turn);
  for (const turn of new Set([turns[0], turns[Math.floor(turns.length / 2)], turns[turns.length - 1]])) {
    if (turn === undefined) continue;
    out[`simulate ${turn}`] = plain(simulateCompaction({ session, options, turn, policyId: "claude-code", manual: true }));
  }
  return out;
}

function threadOutputs(session: Session): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const thread of session.threads ?? []) {
    out[`thread ${thread.id}`] = plain({ id: thread.id, label: thread.label, origin: thread.origin, spawnedBy: thread.spawnedBy, parent: thread.parentThreadId, entries: thread.session.entries.length });
    const inner = outputs(thread.session);
    for (const [key, value] of Object.entries(inner)) out[`thread ${thread.id}: ${key}`] = value;
  }
  return out;
}

function allOutputs(session: Session): Record<string, unknown> {
  return { ...outputs(session), ...threadOutputs(session) };
}

/** The string session's outputs equal the stored session's, key by key (a failing key is named). */
function expectSameOutputs(session: Session, threshold: number, minimumStored = 1, expected = allOutputs(session)): void {
  const { session: kept, stored: count, store } = storeClaudeSession(session, threshold);
  keepStoreUntilRelease(store);
  expect(count).toBeGreaterThanOrEqual(minimumStored);
  const actual = { ...outputs(kept), ...threadOutputs(kept) };
  expect(Object.keys(actual)).toEqual(Object.keys(expected));
  // The outputs that differ, by name first (then the first of them in full).
  const differing = Object.keys(expected).filter((key) => JSON.stringify(actual[key]) !== JSON.stringify(expected[key]));
  expect(differing).toEqual([]);
}

describe("a Claude Code session kept as bytes: the committed fixture", () => {
  const fixture = fixtureCase("claude/print-autocompact-manualcompact");
  const text = readFileSync(fixture.sessionPath, "utf8");
  const session = readSessionText(text, "session.jsonl");

  it("read as bytes by the reader: the same entries and warnings, stored texts only at the places, every output equal", () => {
    expectOutputs(expectReaderKeepsPlaces(text, "session.jsonl", session, 3), allOutputs(session));
    expectOutputs(expectReaderKeepsPlaces(text, "session.jsonl", session, 3, true), allOutputs(session));
  });

  for (const threshold of THRESHOLDS) {
    it(`every output equals the string session's (texts of ≥ ${threshold} bytes stored)`, () => {
      expectSameOutputs(session, threshold, threshold === 8 ? 50 : 10);
    });
  }

  it("followed as it grows (bytes appended in pieces cut anywhere): its values fill one store, its caches carry, and it ends with every output of the string session", () => {
    const bytes = new TextEncoder().encode(text);
    const decoder = new TextDecoder("utf-8");
    // The reader is chosen (and asks whether to keep stored texts) once the first lines are in.
    const before = readersKeepStoredTexts();
    setReadersKeepStoredTexts(true);
    const follower = new SessionFollower("session.jsonl", (part) => decoder.decode(part));
    let previous: Session | null = null;
    let last: Session;
    let carried = 0;
    try {
      const pieces = 5;
      for (let piece = 1; piece <= pieces; piece++) {
        follower.append(bytes.subarray(Math.floor(((piece - 1) * bytes.length) / pieces), Math.floor((piece * bytes.length) / pieces)));
        const current = follower.session();
        if (!current) continue;
        if (previous) {
          expect(current.textStore).toBe(previous.textStore);
          if (sessionGrew(previous, current)) carried++;
        }
        analyzeSession(current, OPTIONS);
        previous = current;
      }
      last = follower.finish();
    } finally {
      setReadersKeepStoredTexts(before);
    }
    if (previous) sessionGrew(previous, last);
    expect(carried).toBeGreaterThanOrEqual(2);
    if (last.textStore) keepStoreUntilRelease(last.textStore);
    expect(last.textStore).toBeDefined();
    expectOutputs(last, allOutputs(session));
  });

  it("each rebuilt main request still equals the recorded requests/NNN.json where the string one does", () => {
    const kept = stored(session, 8);
    const main = fixture.requests("main");
    let equal = 0;
    main.forEach((request, i) => {
      const strings = JSON.stringify(buildTurnRequest(session, OPTIONS, i + 1).body.messages);
      const bytes = stringifyWithTexts(buildTurnRequest(kept, OPTIONS, i + 1).body.messages);
      expect(bytes).toBe(strings);
      if (strings === JSON.stringify(request.body.messages)) {
        equal++;
        expect(bytes).toBe(JSON.stringify(request.body.messages));
      }
    });
    expect(equal).toBe(main.length);
  });

  it("a request body carries the stored texts themselves (no decoding on the way)", () => {
    const kept = stored(session, 8);
    const body = buildTurnRequest(kept, OPTIONS, 3).body;
    const found: unknown[] = [];
    JSON.stringify(body, (_key, value: unknown) => {
      if (typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "stored-text") found.push(value);
      return value;
    });
    expect(found.length).toBeGreaterThan(2);
  });
});

/** Odd lines that still read as Claude Code: wrong types and huge values at and beside the places. */
function oddSession(): Session {
  const big = "x".repeat(2000);
  // Secrets inside large texts (a tool's output): the redaction of a share must find them in stored texts too.
  const secrets = SECRET_EXAMPLES.slice(0, 6).map((example) => example.text).join("\n");
  const image = { type: "image", source: { type: "base64", media_type: "image/png", data: `${"QUJD".repeat(600)}QQ==` } };
  return readClaude([
    user("u1", null, `<system-reminder>\n${big}\n</system-reminder>`, { isMeta: true }),
    user("u2", "u1", [{ type: "text", text: `<command-name>/x</command-name>${big}` }, image]),
    assistant("a1", "u2", "m1", [
      { type: "thinking", thinking: big, signature: "s".repeat(1500) },
      { type: "text", text: big },
      { type: "tool_use", id: "t1", name: "Write", input: { file_path: "/a", content: big } },
      { type: "tool_use", id: "t2", name: "Task", input: { description: "d", prompt: `go ${big}` } },
    ]),
    user("r1", "a1", [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: big }, image] }], { toolUseResult: { type: "create", filePath: "/a", content: big, agentId: "q".repeat(1100) } }),
    user("r2", "a1", [{ type: "tool_result", tool_use_id: "t2", content: `${big}\n${secrets}`, is_error: true }], { toolUseResult: { stdout: `${big}\n${secrets}` } }),
    assistant("a2", "r2", "m2", [{ type: "text", text: 12 }, "bare", { text: big }, { type: big, text: big }], undefined, { [`k${big}`]: big }),
    user("u3", "a2", { role: "user", content: big }),
    user("u4", "u3", 42, { toolUseResult: `Error: ${big}` }),
    { type: "system", subtype: "local_command", content: `<local-command-stdout>${big}</local-command-stdout>`, uuid: "s1", parentUuid: "u4", sessionId: "s" },
    assistant("a3", "s1", "m3", [{ type: "text", text: `No response requested. ${big}` }], undefined, { message: { model: "<synthetic>", role: "assistant", content: [{ type: "text", text: big }] } }),
    user("u5", "a3", "This session is being continued from a previous conversation that ran out of context. " + big, { isCompactSummary: true }),
    assistant("a4", "u5", "m4", [{ type: "text", text: "end" }]),
    { type: "progress", uuid: "p1", parentUuid: "a4", sessionId: "s", data: { type: "agent_progress", agentId: "ag1", prompt: big, message: { type: "user", uuid: "pu1", message: { role: "user", content: `go ${big}` } } } },
    { type: "progress", uuid: "p2", parentUuid: "p1", sessionId: "s", data: { type: "agent_progress", agentId: "ag1", message: { type: "assistant", uuid: "pa1", message: { id: "pm1", role: "assistant", model: "claude-test", content: [{ type: "text", text: big }], usage: { input_tokens: 1, output_tokens: 1 } } } } },
    { type: "queue-operation", operation: "enqueue", content: big, sessionId: "s" },
  ]);
}

describe("a Claude Code session kept as bytes: odd lines", () => {
  const session = oddSession();
  it("holds secrets in large texts that a share's redaction finds", () => {
    expect(redactSession(session).findings.length).toBeGreaterThanOrEqual(6);
  });
  it("read as bytes by the reader: the same entries and warnings, stored texts only at the places, every output equal", () => {
    const text = toText(session.entries.map((entry) => entry.raw));
    const strings = readSessionText(text, "s.jsonl");
    expectOutputs(expectReaderKeepsPlaces(text, "s.jsonl", strings, 10), allOutputs(strings));
    expectOutputs(expectReaderKeepsPlaces(text, "s.jsonl", strings, 10, true), allOutputs(strings));
  });

  for (const threshold of THRESHOLDS) {
    it(`every output equals the string session's (texts of ≥ ${threshold} bytes stored)`, () => {
      expect(session.formatId).toBe("claude-code");
      expectSameOutputs(session, threshold, 10);
    });
  }
});

describeShared("a Claude Code session kept as bytes: the recording and real users' transcripts", (shared) => {
  const recording = path.join(shared.dir, "claude/print-autocompact-manualcompact");
  const sessionDir = path.join(recording, "session/projects");
  const file = path.join(sessionDir, readdirSync(sessionDir)[0]!, readdirSync(path.join(sessionDir, readdirSync(sessionDir)[0]!)).find((name) => name.endsWith(".jsonl"))!);

  it("the recording: every output equals, and every main request equals requests/NNN.json", () => {
    const text = readFileSync(file, "utf8");
    const session = readSessionText(text, "session.jsonl");
    const expected = allOutputs(session);
    expectSameOutputs(session, 1024, 10, expected);
    expectOutputs(expectReaderKeepsPlaces(text, "session.jsonl", session, 3), expected);
    expectOutputs(expectReaderKeepsPlaces(text, "session.jsonl", session, 3, true), expected);
    const kept = stored(session, 8);
    const meta = readdirSync(path.join(recording, "requests")).filter((name) => name.endsWith(".meta.json")).sort();
    const main = meta.filter((name) => (JSON.parse(readFileSync(path.join(recording, "requests", name), "utf8")) as { kind?: string }).kind === "main");
    main.forEach((name, i) => {
      const recorded = JSON.parse(readFileSync(path.join(recording, "requests", name.replace(".meta", "")), "utf8")) as { messages: unknown };
      expect(stringifyWithTexts(buildTurnRequest(kept, OPTIONS, i + 1).body.messages)).toBe(JSON.stringify(recorded.messages));
    });
  });

  const dir = path.join(shared.dir, "realworld/claude-code");
  for (const name of readdirSync(dir).filter((item) => item.endsWith(".jsonl")).sort()) {
    it(`${name}: every output equals the string session's (texts of ≥ ${THRESHOLDS.join(" and of ≥ ")} bytes stored)`, { timeout: 600_000 }, () => {
      const text = readFileSync(path.join(dir, name), "utf8");
      const session = readSessionText(text, name);
      expect(session.formatId).toBe("claude-code");
      const expected = allOutputs(session);
      for (const threshold of THRESHOLDS) expectSameOutputs(session, threshold, 10, expected);
      expectOutputs(expectReaderKeepsPlaces(text, name, session, 10), expected);
      expectOutputs(expectReaderKeepsPlaces(text, name, session, 10, true), expected);
    });
  }

  it("a sub-agent file opened with its session: the linked threads equal", { timeout: 300_000 }, () => {
    const name = readdirSync(dir).filter((item) => item.endsWith(".jsonl")).sort().find((item) => {
      const session = readSessionText(readFileSync(path.join(dir, item), "utf8"), item);
      return (session.threads ?? []).some((thread) => thread.session.entries.length > 0);
    });
    expect(name).toBeDefined();
    const mainText = readFileSync(path.join(dir, name!), "utf8");
    const main = readSessionText(mainText, name!);
    const thread = (main.threads ?? []).find((item) => item.session.entries.length > 0)!;
    // The sub-agent's own file, as Claude Code writes it: its lines, each with the agent id.
    const agentText = toText(thread.session.entries.map((entry) => ({ ...entry.raw, agentId: thread.id })));
    const agent = readSessionText(agentText, `agent-${thread.id}.jsonl`);
    const strings = linkSessions([main, agent]).session;
    const bytes = linkSessions([stored(main, 8), stored(agent, 8)]).session;
    expect(strings.threads?.some((item) => item.origin === "file")).toBe(true);
    const expected = threadOutputs(strings);
    expect(threadOutputs(bytes)).toEqual(expected);
    // Both files read as bytes by the reader, then linked.
    const read = linkSessions([readSessionAsBytes(mainText, name!), readSessionAsBytes(agentText, `agent-${thread.id}.jsonl`)]).session;
    expect(read.threads?.find((item) => item.origin === "file")?.session.textStore).toBeDefined();
    expect(threadOutputs(read)).toEqual(expected);
  });
});
