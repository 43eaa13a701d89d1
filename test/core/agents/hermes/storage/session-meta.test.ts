// hermes-agent gateway transcripts that start with the gateway's `session_meta` line (tools as sent,
// model, platform, timestamp): they open alone and beside their snapshot, the line is no message,
// and its tools, model and platform fill the session. Our own small transcript, then a real one.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeSession, buildTurnRequest } from "../../../../../src/core/session/pipeline";
import { detectFormat } from "../../../../../src/core/session/index";
import { hermesStorageHeaderOf, readHermesStorage } from "../../../../../src/core/agents/hermes/storage";
import type { PipelineOptions } from "../../../../../src/core/model";
import { describeShared } from "../../../../support/fixtures";

const OPTIONS: PipelineOptions = { profile: "pi" };
const TOOL = { type: "function", function: { name: "terminal", description: "Run shell commands", parameters: { type: "object", properties: {} } } };

const transcript = [
  { role: "session_meta", tools: [TOOL], model: "glm-5", platform: "telegram", timestamp: "2026-04-24T21:38:07.980373" },
  { role: "user", content: "list the files", timestamp: "2026-04-24T21:38:08" },
  { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "terminal", arguments: '{"command":"ls"}' } }], finish_reason: "tool_calls", timestamp: "2026-04-24T21:38:09" },
  { role: "tool", content: "a.txt", tool_call_id: "c1", timestamp: "2026-04-24T21:38:10" },
  { role: "assistant", content: "One file: a.txt", finish_reason: "stop", timestamp: "2026-04-24T21:38:11" },
]
  .map((line) => JSON.stringify(line))
  .join("\n");

describe("a gateway transcript with a session_meta line", () => {
  it("is recognised as a hermes transcript", () => {
    const reader = detectFormat(transcript.split("\n").slice(0, 5), "20260424_182100_abcdef12.jsonl");
    expect(reader?.label).toBe("hermes-agent session snapshot / transcript / request dump");
  });

  it("opens alone: the meta line is no message; its tools, model and platform fill the session", () => {
    const session = readHermesStorage({ sideFiles: [{ name: "20260424_182100_abcdef12.jsonl", text: transcript }] });
    expect(session.warnings).toEqual([]);
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.turns.map((turn) => turn.model?.modelId)).toEqual(["glm-5", "glm-5"]);
    const built = buildTurnRequest(session, OPTIONS, 2);
    expect((built.body.tools as (typeof TOOL)[]).map((tool) => tool.function.name)).toEqual(["terminal"]);
    expect(built.notRecorded).not.toContain("tools");
    expect(JSON.stringify(built.body.messages)).not.toContain("session_meta");
    const stored = hermesStorageHeaderOf(session)!;
    expect(stored.segments[0]!.toolsFrom).toBe("transcript");
    expect(stored.sessions[0]).toMatchObject({ source: "telegram" });
  });

  it("every turn has the time its messages record (the transcript writes one on each line)", () => {
    const session = readHermesStorage({ sideFiles: [{ name: "20260424_182100_abcdef12.jsonl", text: transcript }] });
    expect(session.entries.map((entry) => entry.timestamp)).toEqual(["2026-04-24T21:38:08", "2026-04-24T21:38:09", "2026-04-24T21:38:10", "2026-04-24T21:38:11"]);
    expect(analyzeSession(session, OPTIONS).turns.map((turn) => turn.timestamp)).toEqual(["2026-04-24T21:38:09", "2026-04-24T21:38:11"]);
  });
});

describeShared("a real gateway transcript with a session_meta line (juliuss-kb)", (shared) => {
  const folder = shared.path("realworld/hermes/juliuss-kb/sessions");
  const read = (name: string) => ({ name, text: readFileSync(path.join(folder, name), "utf8") });
  const TRANSCRIPT = "20260424_182100_85ae43c6.jsonl";
  const SNAPSHOT = "session_20260424_182100_85ae43c6.json";

  it("opens alone: 52 messages, 26 turns on glm-5, its 29 tools", () => {
    const session = readHermesStorage({ sideFiles: [read(TRANSCRIPT)] });
    expect(session.warnings).toEqual([]);
    expect(session.entries).toHaveLength(52);
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.turns).toHaveLength(26);
    expect(analysis.turns[0]!.model?.modelId).toBe("glm-5");
    expect(analysis.turns.filter((turn) => turn.timestamp === null)).toEqual([]);
    expect((buildTurnRequest(session, OPTIONS, 1).body.tools as unknown[]).length).toBe(29);
  });

  it("opens beside its snapshot as one session with the snapshot's system prompt", () => {
    const session = readHermesStorage({ sideFiles: [read(SNAPSHOT), read(TRANSCRIPT)] });
    expect(hermesStorageHeaderOf(session)!.sessions).toHaveLength(1);
    expect(analyzeSession(session, OPTIONS).turns).toHaveLength(26);
    const built = buildTurnRequest(session, OPTIONS, 1);
    expect(built.notRecorded).not.toContain("system");
    expect((built.body.tools as unknown[]).length).toBe(29);
  });
});
