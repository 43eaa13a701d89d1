// Our own state.db files, one per documented schema version (test/fixtures/hermes/storage,
// made by make_fixtures.py there to the DDL of hermes-storage.md HS-8 … HS-11), and the side files.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { analyzeSession, buildTurnRequest, countTurns } from "../../../../../src/core/session/pipeline";
import { hermesStorageHeaderOf, readHermesStorage } from "../../../../../src/core/agents/hermes/storage";
import type { PipelineOptions } from "../../../../../src/core/model";
import { fixturePath } from "../../../../support/fixtures";
import { readDb } from "./helpers";

const OPTIONS: PipelineOptions = { profile: "pi" };
const bytes = (name: string) => new Uint8Array(readFileSync(fixturePath(`hermes/storage/${name}`)));
const text = (name: string) => readFileSync(fixturePath(`hermes/storage/${name}`), "utf8");
const messagesOf = (session: Parameters<typeof buildTurnRequest>[0], turn: number) => buildTurnRequest(session, OPTIONS, turn).body.messages as Record<string, unknown>[];

describe("hermes-agent state.db by schema version (columns discovered, HS-12)", () => {
  it("v2: no title, no reasoning columns; the stored prompt is stripped; a gateway tool row keeps tool_name", async () => {
    const session = await readDb(bytes("v2-state.db"));
    const header = hermesStorageHeaderOf(session)!;
    expect(header.origin.schemaVersion).toBe(2);
    expect(header.origin.columns.sessions).not.toContain("title");
    expect(session.entries).toHaveLength(4);
    expect(countTurns(session, OPTIONS)).toBe(2);
    const messages = messagesOf(session, 2);
    // Not Claude: no cache markers; string contents stripped (HS-39).
    expect(messages[0]).toEqual({ role: "system", content: "You are Hermes Agent. [our fixture prompt]\nModel: openai/gpt-4.1\nProvider: openrouter" });
    expect(messages[1]).toEqual({ role: "user", content: "What is the date?" });
    expect(messages[3]).toMatchObject({ role: "tool", tool_call_id: "call_v2a", tool_name: "terminal" });
  });

  it("v6 in WAL mode: every row is only in the -wal and is read from it", async () => {
    const withoutWal = await readDb(bytes("v6-wal-state.db"), { fileName: "state.db" }).catch((error: Error) => error);
    expect(withoutWal instanceof Error ? withoutWal.message : "").toMatch(/holds no session/);
    const session = await readDb(bytes("v6-wal-state.db"), { wal: bytes("v6-wal-state.db-wal") });
    expect(session.entries).toHaveLength(3);
    // Ends with a user message: the request sent without a stored answer is a last turn.
    expect(countTurns(session, OPTIONS)).toBe(2);
    const assistant = messagesOf(session, 2)[2]!;
    expect(assistant.reasoning_details).toEqual([{ type: "reasoning.text", text: "greet", signature: "sig" }]);
    expect(assistant.reasoning_content).toBe("greet");
    // Claude via OpenRouter (model slug): system_and_3 markers on the system and the last three.
    const marked = messagesOf(session, 2).filter((m) => JSON.stringify(m).includes("cache_control"));
    expect(marked).toHaveLength(4);
  });

  it("v16: rewound rows (active = 0) are kept as entries but never sent; \\x00json: list content is decoded; a branch child is its own session", async () => {
    const session = await readDb(bytes("v16-state.db"), { sessionId: "20260103_100000_cc0016" });
    expect(session.entries).toHaveLength(5);
    const header = hermesStorageHeaderOf(session)!;
    expect(header.excluded).toHaveLength(2);
    expect(header.segments).toHaveLength(1);
    expect(countTurns(session, OPTIONS)).toBe(2);
    const last = messagesOf(session, 2);
    expect(last.map((m) => m.content)).not.toContain("Wrong question");
    expect(last[1]!.content).toEqual([{ type: "text", text: "Describe this" }, { type: "text", text: "[screenshot]" }]);
    expect(last[2]!.reasoning_content).toBe("looks like a cat");
    const branch = header.sessions.find((s) => s.id === "20260103_100100_cc0017")!;
    expect(branch.lineage).toMatch(/branch of "Picture"/);
    expect(branch.directory).toBeNull();
    expect(header.sessions.find((s) => s.id === "20260103_100000_cc0016")!.directory).toBe("/home/me/project");
  });

  it("v30: the prompt comes from system_prompts by hash; in-place compaction is a compaction between archived and active rows; api_content is what was sent", async () => {
    const session = await readDb(bytes("v30-state.db"));
    expect(session.entries).toHaveLength(10);
    const header = hermesStorageHeaderOf(session)!;
    expect(header.segments.map((s) => s.kind)).toEqual(["archived", "session"]);
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.timeline.map((i) => (i.kind === "turn" ? i.turn : i.kind))).toEqual([1, 2, "compaction", 3]);
    const messages = messagesOf(session, 3);
    expect(JSON.stringify(messages[0])).toContain("[deduplicated prompt]");
    expect(messages).toHaveLength(1 + 5);
    const user = messages[5]!;
    expect(JSON.stringify(user)).toContain("<memory-context>");
    expect(messages.some((m) => "_compressed_summary" in m)).toBe(false);
  });

  it("a schema-30 file without the columns its version implies is read by the columns it has", async () => {
    const session = await readDb(bytes("v30-stale-state.db"));
    expect(hermesStorageHeaderOf(session)!.origin.schemaVersion).toBe(30);
    expect(session.entries).toHaveLength(2);
    expect(messagesOf(session, 1)[0]).toEqual({ role: "system", content: "Stale prompt" });
  });

  it("a database with hermes' tables but no messages.role is named, not guessed", async () => {
    await expect(readDb(bytes("no-role-state.db"))).rejects.toThrow(/hermes-agent state\.db .*schema_version 99.* without the column messages\.role: this storage kind is not supported/);
  });
});

describe("hermes-agent side files", () => {
  it("a snapshot fills the tools of its state.db session; the system prompt stays the database's", async () => {
    const session = await readDb(bytes("v16-state.db"), {
      sessionId: "20260103_100000_cc0016",
      sideFiles: [{ name: "session_20260103_100000_cc0016.json", text: text("sessions/session_20260103_100000_cc0016.json") }],
    });
    const built = buildTurnRequest(session, OPTIONS, 1);
    expect((built.body.tools as { function: { name: string } }[])[0]!.function.name).toBe("vision");
    expect(hermesStorageHeaderOf(session)!.segments[0]!.toolsFrom).toBe("snapshot");
  });

  it("a gateway transcript alone: every good line kept, the bad one a warning with its line", () => {
    const session = readHermesStorage({ sideFiles: [{ name: "20251201_090000_ff0001.jsonl", text: text("sessions/20251201_090000_ff0001.jsonl") }] });
    expect(session.entries).toHaveLength(3);
    expect(session.warnings.some((w) => w.line === 3 && /not valid JSON/.test(w.reason))).toBe(true);
    const built = buildTurnRequest(session, OPTIONS, 2);
    expect(built.notRecorded).toContain("system");
    expect(built.notRecorded).toContain("tools");
  });

  it("a `hermes sessions export` line is a session with its rows", () => {
    const session = readHermesStorage({ sideFiles: [{ name: "export.jsonl", text: text("export.jsonl") }] });
    expect(session.entries).toHaveLength(4);
    expect(countTurns(session, OPTIONS)).toBe(2);
    expect(hermesStorageHeaderOf(session)!.sessions[0]).toMatchObject({ source: "cron", title: "Nightly" });
  });

  it("files that are not hermes' are named, never silently dropped", () => {
    const session = readHermesStorage({
      sideFiles: [
        { name: "export.jsonl", text: text("export.jsonl") },
        { name: "notes.json", text: '{"hello": 1}' },
      ],
    });
    expect(session.warnings.some((w) => /not hermes-agent storage, not read: notes\.json/.test(w.reason))).toBe(true);
  });
});

describe("hermes-agent files that hold no session", () => {
  it("the gateway routing index alone is named for what it is", () => {
    expect(() => readHermesStorage({ sideFiles: [{ name: "sessions.json", text: '{"telegram:123": {"session_id": "x"}}' }] })).toThrow(/gateway's routing index/);
  });
});
