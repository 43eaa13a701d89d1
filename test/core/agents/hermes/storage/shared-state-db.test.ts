// The state.db written by hermes-agent's own SessionDB (schema 6) in ../shared/fixtures/hermes-storage:
// three sessions listed, the compressed pair one timeline with its compaction between, every row
// kept, every turn's request built, snapshots filling system prompt and tools.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { analyzeSession, buildTurnRequest, countTurns } from "../../../../../src/core/session/pipeline";
import { hermesStorageHeaderOf, readHermesStorage } from "../../../../../src/core/agents/hermes/storage";
import { isNotRecorded, type PipelineOptions } from "../../../../../src/core/model";
import { HERMES_SYSTEM_PROMPT_RULE } from "../../../../../src/core/agents/hermes/pipeline";
import { tokenComposition } from "../../../../../src/core/prefix/composition";
import { iterateSessionPrefixCompositions } from "../../../../../src/core/session/sessionPrefixCompositions";
import { rebuildRecordedCompaction, replayRecordedCompactions } from "../../../../../src/core/session/simulate/index";
import { describeShared } from "../../../../support/fixtures";
import { folderTexts, readDb, withDb } from "./helpers";

const OPTIONS: PipelineOptions = { profile: "pi" };
const PLAIN = "20261201_090624_3e9952";
const PARENT = "20261201_090624_d1fb52";
const CHILD = "20261201_090624_dbb368";

describeShared("hermes-agent state.db (shared fixture, SessionDB schema 6)", (shared) => {
  const dir = shared.path("hermes-storage");
  const db = new Uint8Array(readFileSync(`${dir}/state.db`));
  const wal = new Uint8Array(readFileSync(`${dir}/state.db-wal`));
  const sideFiles = folderTexts(`${dir}/sessions`);

  it("lists the three sessions with title, source, model, start time, message count and lineage", async () => {
    const session = await readDb(db, { wal, sideFiles });
    const header = hermesStorageHeaderOf(session)!;
    expect(header.origin.schemaVersion).toBe(6);
    expect(header.sessions.map((s) => s.id).sort()).toEqual([PLAIN, PARENT, CHILD].sort());
    const rowCounts = await withDb(db, wal, (query) =>
      Object.fromEntries(query("SELECT session_id, COUNT(*) AS n FROM messages GROUP BY session_id").map((r) => [r.session_id, r.n])),
    );
    for (const listing of header.sessions) {
      expect(listing.messageCount).toBe(rowCounts[listing.id]);
      expect(listing.source).toBe("cli");
      expect(listing.model).toBe("anthropic/claude-sonnet-4");
      expect(listing.timeCreated).toBeGreaterThan(0);
    }
    expect(header.sessions.find((s) => s.id === PLAIN)!.title).toBe("Count files in tmp");
    expect(header.sessions.find((s) => s.id === CHILD)!.lineage).toMatch(/continues "Echo steps" after compression/);
    expect(header.sessions.find((s) => s.id === PARENT)!.lineage).toMatch(/compressed/);
  });

  it("shows the compressed parent and its continuation as one timeline with the compaction between", async () => {
    for (const id of [PARENT, CHILD]) {
      const session = await readDb(db, { wal, sideFiles, sessionId: id });
      // Every row of both sessions is an entry (20 + 12).
      expect(session.entries).toHaveLength(32);
      const analysis = analyzeSession(session, OPTIONS);
      const kinds = analysis.timeline.map((item) => (item.kind === "turn" ? `t${item.turn}` : item.kind));
      // Parent: five steps of (tool call, answer) = 10 calls; child: its new turn = 2 calls.
      expect(kinds).toEqual(["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "compaction", "t11", "t12"]);
      const event = analysis.timeline.find((item) => item.kind === "compaction")!;
      expect(event.kind === "compaction" && event.entryId).toBe(`${CHILD}:31`);
      expect(event.kind === "compaction" && event.firstKeptEntryId).toBe(`${CHILD}:32`);
      const header = hermesStorageHeaderOf(session)!;
      // Protected head (3 messages) and tail (4 messages) copied from the parent.
      expect(header.segments[1]!.compacted!.keptFrom).toEqual([8, 9, 10, 24, 25, 26, 27].map((row) => `${PARENT}:${row}`));
    }
  });

  it("builds every turn's request; the child's first request starts with the compacted history", async () => {
    const session = await readDb(db, { wal, sideFiles, sessionId: CHILD });
    const turns = countTurns(session, OPTIONS);
    expect(turns).toBe(12);
    for (let turn = 1; turn <= turns; turn++) {
      const built = buildTurnRequest(session, OPTIONS, turn);
      expect(built.body.model).toBe("anthropic/claude-sonnet-4");
      expect(Array.isArray(built.body.tools)).toBe(true);
    }
    const first = buildTurnRequest(session, OPTIONS, 11).body.messages as Record<string, unknown>[];
    expect(first.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "user", "assistant", "tool", "assistant", "user"]);
    expect(String(first[4]!.content)).toMatch(/^\[CONTEXT COMPACTION\]/);
  });

  it("fills system prompt and tools from the session_<id>.json snapshots", async () => {
    const withSnapshots = await readDb(db, { wal, sideFiles, sessionId: PLAIN });
    const built = buildTurnRequest(withSnapshots, OPTIONS, 1);
    expect(built.notRecorded).not.toContain("tools");
    expect((built.body.tools as { function: { name: string } }[])[0]!.function.name).toBe("terminal");
    const system = (built.body.messages as Record<string, unknown>[])[0]!;
    expect(JSON.stringify(system)).toContain("You are Hermes Agent");
    // Without the snapshots: the prompt is still in state.db; the tools are not recorded.
    const alone = buildTurnRequest(await readDb(db, { wal, sessionId: PLAIN }), OPTIONS, 1);
    expect(alone.notRecorded).toContain("tools");
    expect(isNotRecorded(alone.body.tools)).toBe(true);
  });

  it("counts the stored system prompt once in a turn's composition: as the system prompt, not again as a message", async () => {
    const session = await readDb(db, { wal, sideFiles, sessionId: PLAIN });
    const built = buildTurnRequest(session, OPTIONS, 1);
    // The prompt is listed first among the context messages, where its provenance is explained.
    expect(built.messages[0]!.provenance.rule).toBe(HERMES_SYSTEM_PROMPT_RULE);
    const composition = tokenComposition(built, { tokenizer: "o200k" });
    expect(composition.messages[0]!.kind).toBe("system");
    const system = composition.rows.find((row) => row.kind === "system")!;
    // One system segment, and the listed prompt message counted by it.
    expect(system.count).toBe(1);
    expect(system.tokens).toBe(composition.messages[0]!.tokens);
    expect(composition.rows.find((row) => row.kind === "synthesized")).toBeUndefined();
    const others = composition.messages.slice(1).reduce((sum, message) => sum + message.tokens, 0);
    const tools = composition.rows.find((row) => row.kind === "tools")?.tokens ?? 0;
    expect(composition.total).toBe(tools + system.tokens + others);
    // The carried sums of a whole-session walk agree turn by turn.
    const carried = [...iterateSessionPrefixCompositions(session, OPTIONS, { tokenizer: "o200k" })];
    expect(carried[0]!.composition.total).toBe(composition.total);
    for (const { report, composition: turn } of carried) {
      expect(turn.total).toBe(tokenComposition(buildTurnRequest(session, OPTIONS, report.turn), { tokenizer: "o200k" }).total);
    }
  });

  it("rebuilds the plain session's reasoning and parallel tool calls as hermes sends them", async () => {
    const session = await readDb(db, { wal, sideFiles, sessionId: PLAIN });
    expect(session.entries).toHaveLength(7);
    expect(countTurns(session, OPTIONS)).toBe(3);
    const messages = buildTurnRequest(session, OPTIONS, 2).body.messages as Record<string, unknown>[];
    const assistant = messages[2]!;
    expect(assistant.reasoning_content).toBe("I should run ls.");
    expect(assistant).not.toHaveProperty("reasoning");
    expect(assistant).not.toHaveProperty("finish_reason");
    const calls = assistant.tool_calls as { function: { arguments: string } }[];
    expect(calls).toHaveLength(2);
    expect(calls[0]!.function.arguments).toBe('{"command":"ls -1 /tmp | wc -l"}');
  });

  it("rebuilds the compaction's summariser request with the hermes policy, role split off and on, with the record's facts", async () => {
    const session = await readDb(db, { wal, sideFiles, sessionId: CHILD });
    const entryId = `${CHILD}:31`;
    const off = rebuildRecordedCompaction(session, OPTIONS, entryId, { parameters: { roleSplit: "off" } });
    const on = rebuildRecordedCompaction(session, OPTIONS, entryId, { parameters: { roleSplit: "on" } });
    expect(off.available).toBe(true);
    expect(off.policyId).toBe("hermes");
    expect(off.requests.length).toBeGreaterThan(0);
    expect(JSON.stringify(on.requests[0]!.body)).not.toBe(JSON.stringify(off.requests[0]!.body));
    const facts = Object.fromEntries(off.facts.map((f) => [f.label, f.value]));
    expect(facts["summary message"]).toBe(entryId);
    expect(facts["protected head (copied)"]).toBe(`${PARENT}:8 … ${PARENT}:10 (3)`);
    expect(facts["protected tail (copied)"]).toBe(`${PARENT}:24 … ${PARENT}:27 (4)`);
    expect(facts["summarised (recorded)"]).toBe(`${PARENT}:11 … ${PARENT}:23 (13)`);
    // The policy partitions the parent's whole history, its last answer included (kept in its
    // token-budget tail, which keeps more than the 4 messages this forced compression kept).
    const replay = replayRecordedCompactions(session, OPTIONS, "hermes");
    expect(replay).toHaveLength(1);
    expect(replay[0]!.recordedKept).toEqual([8, 9, 10, 24, 25, 26, 27].map((row) => `${PARENT}:${row}`));
    expect(replay[0]!.simulatedKept).toContain(`${PARENT}:27`);
    expect(JSON.stringify(off.requests[0]!.body)).toContain("TURNS TO SUMMARIZE");
  });

  it("the snapshots alone: three sessions; the child's copied head is not counted, the missing parent link is said", () => {
    const session = readHermesStorage({ sideFiles, sessionId: CHILD });
    const header = hermesStorageHeaderOf(session)!;
    expect(header.sessions).toHaveLength(3);
    expect(header.origin.kind).toBe("files");
    expect(session.entries.length).toBeGreaterThan(0);
    expect(session.warnings.some((w) => /starts with a compaction summary, but the session it continues is not in this storage/.test(w.reason))).toBe(true);
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.timeline[0]!.kind).toBe("compaction");
    // No turn is answered by a message of the copied head.
    const firstTurn = buildTurnRequest(session, OPTIONS, 1);
    expect((firstTurn.body.messages as unknown[]).length).toBeGreaterThan(4);
  });

  it("without the -wal file says so", async () => {
    let reasons = "";
    try {
      const session = await readDb(db, { sideFiles });
      reasons = session.warnings.map((w) => w.reason).join("\n");
    } catch (error) {
      // The main file alone may not even hold the tables yet (all pages still in the WAL).
      reasons = (error as Error).message;
    }
    expect(reasons).toMatch(/without its -wal file|no session|without the column/);
  });
});
