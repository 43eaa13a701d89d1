// Kimi Code 2.1.0 on our own recording (test/fixtures/kimi-code/run-autocompact: the drift harness
// drove `kimi -p` through `contextscope capture`): the wire file opens as Kimi Code's, every main
// request rebuilt from it equals the recorded requests/NNN.json byte for byte (the session folder's
// name, sent as prompt_cache_key, learnt from the first capture), every `llm.request` record Kimi
// Code wrote equals the rebuilt request of its turn (system prompt and tool list SHA-256, message
// count, model), and the automatic compaction is a timeline event, with its summariser request
// (equal too, its handoff instruction learnt from that capture), after which the kept prompts,
// the summary and Kimi Code's continuation reminder are sent.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { recordedCaptures } from "../../../support/fixtures";
import { verifiedHeadline, verifySession, type VerifyCapture } from "../../../../src/app/captureVerify";
import { readSessionText } from "../../../../src/core/session/index";
import { findAgent } from "../../../../src/core/session/agents";
import { analyzeSession, buildTurnRequest, countTurns } from "../../../../src/core/session/pipeline";
import { recordReport } from "../../../../src/core/session/recordReport";
import { requestDumpsOf } from "../../../../src/core/session/storage";

const CASE = path.join(__dirname, "../../../fixtures/kimi-code/run-autocompact");
const WIRE = path.join(CASE, "session/wire.jsonl");
const REQUESTS = path.join(CASE, "requests");
/** The compaction's summariser request: the history and Kimi Code's handoff instruction. */
const SUMMARISER = "009.json";

const read = (text = readFileSync(WIRE, "utf8")) => readSessionText(text, "wire.jsonl")!;

const captures = (): VerifyCapture[] => recordedCaptures(REQUESTS);

describe("Kimi Code recording", () => {
  it("opens as Kimi Code with every record type known and no warning", () => {
    const session = read();
    expect(session.formatId).toBe("kimi-code");
    expect(session.header).toMatchObject({ protocolVersion: "1.5", sessionId: null, cwd: "/tmp/drift-kimi-code-h36Vd7/lighthouse-notes" });
    expect(session.warnings).toEqual([]);
    expect(recordReport(session)).toMatchObject({ agent: "Kimi Code", unknown: [] });
    expect(countTurns(session, {})).toBe(14);
  });

  it("every main request and the summariser request equal the wire", () => {
    const session = read();
    const results = verifySession(session, {}, captures());
    const mains = results.filter((result) => result.kind === "main");
    expect(mains.map((result) => result.source)).not.toContain(SUMMARISER);
    expect(mains).toHaveLength(14);
    expect(mains.map((result) => `${result.source} ${result.verdict}`)).toEqual(mains.map((result) => `${result.source} equal`));
    // Only the session folder's name (prompt_cache_key) is learnt, from the first main capture;
    // the handoff instruction from the summariser capture.
    expect(mains.filter((result) => result.teaches).map((result) => result.source)).toEqual(["001.json"]);
    expect(results.filter((result) => result.kind === "summary").map((result) => `${result.source} ${result.verdict}`)).toEqual([`${SUMMARISER} equal`]);
    expect(verifiedHeadline(results).text).toBe("14 of 14 turns equal to the wire");
  });

  it("without a capture, the summariser request marks the handoff instruction not recorded", () => {
    const session = read();
    const auxiliary = analyzeSession(session, {}).auxiliary ?? [];
    expect(auxiliary).toEqual([expect.objectContaining({ purpose: "summary", beforeTurn: 9, label: "Summariser request" })]);
    const built = findAgent(session.formatId)!.auxiliary!.build(session, {}, 0, []).request;
    expect(built.notRecorded).toEqual(["prompt_cache_key", "compaction instruction"]);
    const wire = JSON.parse(readFileSync(path.join(REQUESTS, SUMMARISER), "utf8")) as { messages: unknown[]; max_tokens: number };
    expect((built.body.messages as unknown[]).length).toBe(wire.messages.length);
    expect(built.body.max_tokens).toBe(wire.max_tokens);
  });

  it("without a capture, prompt_cache_key is the one part not recorded", () => {
    const request = buildTurnRequest(read(), {}, 1);
    expect(request.notRecorded).toEqual(["prompt_cache_key"]);
    const wire = JSON.parse(readFileSync(path.join(REQUESTS, "001.json"), "utf8")) as Record<string, unknown>;
    expect({ ...request.body, prompt_cache_key: wire.prompt_cache_key }).toEqual(wire);
  });

  it("every llm.request record equals the rebuilt request of its turn", () => {
    const session = read();
    const dumps = requestDumpsOf(session)!;
    const checks = dumps.check(session, {});
    expect(checks.map((check) => check.turn)).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    expect(checks.filter((check) => !check.equal)).toEqual([]);
    expect(dumps.describe(checks[8]!)).toBe("wire.jsonl line 125, llm.request (turn.step 4.1), turn 9: system prompt, tools, message count and model equal the rebuilt request");
  });

  it("a record whose request the file no longer rebuilds is named with what differs", () => {
    // The first permission-mode reminder dropped from the file: the first request holds a message fewer than recorded.
    const lines = readFileSync(WIRE, "utf8").split("\n");
    const at = lines.findIndex((line) => line.includes('"variant":"permission_mode"'));
    const session = read([...lines.slice(0, at), ...lines.slice(at + 1)].join("\n"));
    const checks = requestDumpsOf(session)!.check(session, {});
    expect(checks[0]).toMatchObject({ equal: false, firstDifference: "messages", detail: "messages after the system prompt: rebuilt 2 / recorded 3" });
    // The tool list changed under the same hash: the fingerprint tells.
    const edited = readFileSync(WIRE, "utf8").replace('"name":"Bash","description":"', '"name":"Bash","description":"Edited. ');
    const tools = read(edited);
    expect(requestDumpsOf(tools)!.check(tools, {})[0]).toMatchObject({ equal: false, firstDifference: "tools" });
  });

  it("the automatic compaction is an event before turn 9, which sends the kept prompts, the summary and the continuation reminder", () => {
    const session = read();
    const analysis = analyzeSession(session, {});
    const compactions = analysis.timeline.filter((item) => item.kind === "compaction");
    expect(compactions).toEqual([expect.objectContaining({ beforeTurn: 9, tokensBefore: 21444 })]);
    expect(analysis.turns[8]!.afterCompaction).toBe(true);
    const messages = buildTurnRequest(session, {}, 9).body.messages as { role: string; content: string }[];
    expect(messages.map((message) => message.role)).toEqual(["system", "user", "user", "user", "user", "user"]);
    expect(messages[1]!.content.split("\n\n")).toHaveLength(5);
    expect(messages[2]!.content.startsWith("The conversation so far has been compacted")).toBe(true);
    expect(messages[3]!.content).toContain("Context compaction is complete");
    // Usage: the record after each request, its counts disjoint.
    expect(analysis.turns[0]!.usage).toMatchObject({ input: 20946 - analysis.turns[0]!.usage!.output, cacheRead: 0 });
  });
});
