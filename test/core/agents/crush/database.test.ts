// Crush's crush.db on a hand-made fixture (test/fixtures/crush/hand-made: Crush's own migrations,
// rows written as Crush writes them; the real CLI cannot run here, see its README.md): the database
// is told from hermes-agent's state.db by its tables, rows become entries in Crush's order, bad
// rows are warnings, and each main request is rebuilt as Crush's source builds it — its todo
// reminder first, texts read back trimmed, a cancelled step left out, requests after a summary
// starting at the summary sent as a user message.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadDatabase } from "../../../../src/cli/sqlite";
import { isCrushDatabase, readCrushDatabase } from "../../../../src/core/agents/crush/database";
import { CRUSH_TODO_REMINDER } from "../../../../src/core/agents/crush/pipeline";
import type { SqlRow } from "../../../../src/core/storage/sqlite";
import { isHermesStateDb } from "../../../../src/core/agents/hermes/storage/stateDb";
import { analyzeSession, buildTurnRequest, countTurns } from "../../../../src/core/session/pipeline";
import { recordReport } from "../../../../src/core/session/recordReport";
import { storageSummary } from "../../../../src/core/session/storage";
import { findAgent } from "../../../../src/core/session/agents";
import { CRUSH_SUMMARY_PROMPT } from "../../../../src/core/agents/crush/summariser";

const DB = path.join(__dirname, "../../../fixtures/crush/hand-made/crush.db");

type Wire = { role: string; content?: unknown; tool_calls?: unknown[]; tool_call_id?: string };

function messagesOf(body: Record<string, unknown>): Wire[] {
  return body.messages as Wire[];
}

describe("Crush database", () => {
  it("is Crush's by its files table; hermes-agent's state.db has sessions and messages only", async () => {
    expect(isCrushDatabase(["files", "goose_db_version", "messages", "read_files", "sessions"])).toBe(true);
    expect(isCrushDatabase(["messages", "schema_version", "sessions", "state_meta"])).toBe(false);
    // Both would pass hermes' test: the registry asks Crush first.
    expect(isHermesStateDb(["files", "messages", "sessions"])).toBe(true);
    const session = await loadDatabase(DB);
    expect(session.formatId).toBe("crush");
    expect(session.warnings.filter((warning) => !warning.notice)).toEqual([]);
    expect(session.entries.map((entry) => entry.id)).toEqual(["m01", "m02", "m03", "m04", "m05", "m06", "m07", "m08", "m09", "m10", "m11", "m12", "m13"]);
    expect(recordReport(session)).toMatchObject({ agent: "Crush", unknown: [] });
    expect(storageSummary(session)).toMatchObject({ sessionId: "5f0c1e7a-0000-4000-8000-00000000c001", storage: "crush.db", agentLabel: "Crush" });
    expect(storageSummary(session)!.sessions.map((listing) => listing.title)).toEqual(["Count and comment main.go", "Greeting"]);
  });

  it("opens the session asked for", async () => {
    const session = await loadDatabase(DB, { sessionId: "5f0c1e7a-0000-4000-8000-00000000c000" });
    expect(session.entries.map((entry) => entry.id)).toEqual(["o01", "o02"]);
    expect(countTurns(session, {})).toBe(1);
  });

  it("reads a bad row as a warning, never an error", () => {
    const rows: Record<string, SqlRow[]> = {
      tables: [{ name: "files" }, { name: "messages" }, { name: "sessions" }],
      sessions: [{ id: "s", title: "t", parent_session_id: null, created_at: 1, updated_at: 2 }],
      messages: [
        { id: "a", role: "user", parts: "not json", created_at: 1 },
        { id: "b", role: "user", parts: '[{"type":"text","data":{"text":"hi"}},{"kind":"x"}]', created_at: 1 },
        { role: "assistant", parts: "[]", created_at: 2 },
      ],
    };
    const query = (sql: string) => (sql.includes("sqlite_master") ? rows.tables! : sql.includes("FROM sessions") ? rows.sessions! : rows.messages!);
    const session = readCrushDatabase({ query, fileName: "crush.db", walApplied: false, walWarnings: [], sessionId: null, sideFiles: [], otherFileNames: [] });
    expect(session.entries.map((entry) => entry.id)).toEqual(["a", "b"]);
    expect(session.warnings.map((warning) => warning.reason)).toEqual([
      expect.stringContaining("opened without its -wal file"),
      expect.stringContaining("message a: parts are not valid JSON"),
      "message b: part 1 has no type or data, skipped",
      "message row 3 has no id or role, skipped",
    ]);
  });

  it("rebuilds each step's request: reminder first, reasoning not sent, the cancelled step left out, then the summary as a user message", async () => {
    const session = await loadDatabase(DB);
    // Six assistant rows answered main requests (the cancelled one too); the summary row answered the summariser.
    expect(countTurns(session, {})).toBe(6);
    const first = buildTurnRequest(session, {}, 1);
    expect(Object.keys(first.body)).toEqual(["messages", "model", "stream_options", "tools", "stream"]);
    expect(first.notRecorded).toEqual(["system", "max_tokens", "tools"]);
    expect(messagesOf(first.body).map((message) => message.role)).toEqual(["system", "user", "user"]);
    expect(messagesOf(first.body)[1]).toEqual({ content: CRUSH_TODO_REMINDER, role: "user" });
    const second = messagesOf(buildTurnRequest(session, {}, 2).body);
    expect(second[3]).toEqual({ tool_calls: [{ id: "call_view_1", function: { arguments: '{"file_path":"main.go"}', name: "view" }, type: "function" }], role: "assistant" });
    expect(second[4]).toMatchObject({ tool_call_id: "call_view_1", role: "tool" });
    // Turn 6 follows the cancelled step (turn 5) and the summary: it starts at the summary.
    const last = messagesOf(buildTurnRequest(session, {}, 6).body);
    expect(last.map((message) => message.role)).toEqual(["system", "user", "user", "user"]);
    expect(String(last[2]!.content)).toMatch(/^## Current State/);
    expect(last[3]!.content).toBe("Go on with the edit.");
    const fifth = messagesOf(buildTurnRequest(session, {}, 5).body);
    expect(fifth.at(-1)).toEqual({ content: "Try again.", role: "user" });
  });

  it("writes the body in openai-go's field order with what a capture supplies: settings between model and stream_options, tools with strict, stream last", async () => {
    const session = await loadDatabase(DB);
    const header = {
      api: "openai-completions" as const,
      systemPrompt: "You are Crush.",
      tools: [{ name: "view", description: "Read a file", parameters: { type: "object" } }],
      maxTokens: 4000,
      extraSettings: { stream: true, temperature: 0.2 },
      source: "001.json",
    };
    const request = buildTurnRequest(session, { header }, 1);
    expect(Object.keys(request.body)).toEqual(["messages", "model", "max_tokens", "temperature", "stream_options", "tools", "stream"]);
    expect(request.notRecorded).toEqual([]);
    expect(messagesOf(request.body)[0]).toEqual({ content: "You are Crush.", role: "system" });
    expect(request.body.tools).toEqual([{ function: { name: "view", strict: false, description: "Read a file", parameters: { type: "object" } }, type: "function" }]);
  });

  it("shows the summary as a compaction before the turn after it", async () => {
    const session = await loadDatabase(DB);
    const timeline = analyzeSession(session, {}).timeline;
    expect(timeline.map((item) => (item.kind === "turn" ? `turn ${item.turn}` : item.kind))).toEqual(["turn 1", "turn 2", "turn 3", "turn 4", "turn 5", "compaction", "turn 6"]);
    expect(analyzeSession(session, {}).turns[5]!.afterCompaction).toBe(true);
  });

  it("rebuilds the summariser request: every row before the summary read back, the cancelled step left out, the prompt last, no tools", async () => {
    const session = await loadDatabase(DB);
    const auxiliary = analyzeSession(session, {}).auxiliary ?? [];
    expect(auxiliary.map((event) => `${event.purpose} ${event.entryId} before ${event.beforeTurn}`)).toEqual(["summary m11 before 6"]);
    const built = findAgent("crush")!.auxiliary!.build(session, {}, 0, [{ source: "007.json", body: { messages: [{ role: "system", content: "You are summarizing a conversation." }] } }]);
    expect(built.taughtBy).toEqual(["007.json"]);
    expect(Object.keys(built.request.body)).toEqual(["messages", "model", "stream_options", "stream"]);
    const messages = messagesOf(built.request.body);
    expect(messages[0]).toEqual({ content: "You are summarizing a conversation.", role: "system" });
    expect(messages[1]!.content).toBe(CRUSH_TODO_REMINDER);
    expect(messages.at(-2)).toEqual({ content: "Try again.", role: "user" });
    expect(messages.at(-1)).toEqual({ content: CRUSH_SUMMARY_PROMPT, role: "user" });
    expect(messages.filter((message) => message.role === "assistant")).toHaveLength(4);
    expect(findAgent("crush")!.auxiliary!.build(session, {}, 0).request.notRecorded).toEqual(["system"]);
  });
});
