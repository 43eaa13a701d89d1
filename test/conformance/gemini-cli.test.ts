// Conformance of the Gemini CLI agent against its shared recording (gemini-cli/p-resume-autocompress:
// 0.61.0, one process per prompt with --resume, an automatic chat compression mid-turn): every main
// request's `contents` rebuilt from the chat file alone equals the recorded one byte for byte, the
// whole body too once the first main request is attached (system instruction, tool declarations,
// generationConfig), and both compression requests once the recorded ones fill the prompt slots.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkCaptures, matchCaptureTurns } from "../../src/app/captureCheck";
import type { PipelineOptions } from "../../src/core/model";
import { isNotRecorded } from "../../src/core/model";
import { learnCapture } from "../../src/core/session/captures";
import { readSessionText } from "../../src/core/session/index";
import { analyzeSession, buildTurnRequest, countTurns } from "../../src/core/session/pipeline";
import { getPolicy, recordedCompactionPoints, replayRecordedCompactions, simulateCompaction } from "../../src/core/session/simulate/index";
import { describeShared } from "../support/fixtures";

describeShared("Gemini CLI conformance (p-resume-autocompress)", (shared) => {
  const fixture = shared.case("gemini-cli/p-resume-autocompress");
  const file = fixture.path("session/tmp/lighthouse-notes/chats/session-2026-12-03T09-09-04c32c61.jsonl");
  const session = readSessionText(readFileSync(file, "utf8"), path.basename(file))!;
  const mains = fixture.requests("main");
  const summaries = fixture.requests("summary");
  const header = learnCapture(mains[0]!.body, mains[0]!.file);
  const withHeader: PipelineOptions = { header };

  it("reads the chat file as Gemini CLI with no warning, one turn per main request", () => {
    expect(session.formatId).toBe("gemini-cli");
    expect(session.warnings).toEqual([]);
    expect(mains).toHaveLength(15);
    expect(countTurns(session, {})).toBe(15);
  });

  it("rebuilds the contents of every main request from the chat file alone, byte for byte", () => {
    const differing = mains.filter((request, i) => JSON.stringify(buildTurnRequest(session, {}, i + 1).body.contents) !== JSON.stringify(request.body.contents));
    expect(differing.map((r) => r.id)).toEqual([]);
  });

  it("marks the system instruction, tools and generationConfig not recorded without a capture", () => {
    const built = buildTurnRequest(session, {}, 1);
    expect(isNotRecorded(built.body.systemInstruction)).toBe(true);
    expect(isNotRecorded(built.body.tools)).toBe(true);
    expect(isNotRecorded(built.body.generationConfig)).toBe(true);
    expect(built.notRecorded).toEqual(["system instruction", "tools", "generation settings"]);
  });

  it("rebuilds every whole main body byte for byte with the first main request attached", () => {
    const differing = mains.filter((request, i) => JSON.stringify(buildTurnRequest(session, withHeader, i + 1).body) !== request.text);
    expect(differing.map((r) => r.id)).toEqual([]);
    const captures = mains.map((request) => ({ source: request.file, body: request.body as unknown }));
    expect(matchCaptureTurns(session, withHeader, captures)).toEqual(mains.map((_, i) => i + 1));
    expect(checkCaptures(session, withHeader, captures).filter((result) => !result.equal)).toEqual([]);
  });

  it("shows the compression as a compaction row before the request that continues turn 4", () => {
    const analysis = analyzeSession(session, {});
    const events = analysis.timeline.filter((item) => item.kind === "compaction");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ beforeTurn: 8, tokensBefore: 600000 });
    expect(analysis.turns[0]!.usage).toEqual({ input: 11807, output: 28, cacheRead: 0, cacheWrite: 0, totalTokens: 11835 });
  });

  it("rebuilds both compression requests byte for byte with the recorded ones filling the prompt slots, and keeps what the CLI kept", () => {
    const captured = summaries.map((request) => ({ source: request.file, body: request.body as unknown }));
    expect(captured.map((c) => c.source)).toEqual(["008.json", "009.json"]);
    const lines = replayRecordedCompactions(session, withHeader, "gemini-cli", { captured });
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line.verdict).toBe("compacted");
    expect(line.keptMatches).toBe(true);
    expect(line.matches.map((m) => m.captured)).toEqual(["008.json", "009.json"]);
    line.summariserRequests.forEach((body, k) => expect(JSON.stringify(body)).toBe(summaries[k]!.text));
  });

  it("has the same data parts without any captured prompt (slots described)", () => {
    const policy = getPolicy("gemini-cli");
    const point = recordedCompactionPoints(session, withHeader)[0]!;
    expect(point.turn).toBe(7);
    const result = simulateCompaction({ session, options: withHeader, turn: point.turn, policyId: "gemini-cli", recordedCompactionEntryId: point.entryId, followingTurns: 0 });
    expect(result.trigger.result).toBe(true);
    expect(result.summariserRequests.map((r) => JSON.stringify(r.dataPart))).toEqual(summaries.map((r) => JSON.stringify(policy.readCaptured!(r.body, r.file)!.dataPart)));
    expect(result.summariserRequests.every((r) => r.instructionSlots.some((use) => use.filledFrom === "description"))).toBe(true);
  });

  it("rebuilds the request after the compression as the CLI sent it (the answer's tool results from its toolCalls)", () => {
    const point = recordedCompactionPoints(session, withHeader)[0]!;
    const result = simulateCompaction({ session, options: withHeader, turn: point.turn, policyId: "gemini-cli", recordedCompactionEntryId: point.entryId, followingTurns: 0 });
    const after = result.after.request!.body.contents as unknown[];
    const recorded = mains[7]!.body.contents as unknown[];
    expect(JSON.stringify(after)).toBe(JSON.stringify(recorded));
  });
});
