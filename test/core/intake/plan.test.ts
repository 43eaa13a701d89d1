// The open plan, decision by decision: a set of named sources (name, size, first bytes) and what
// the intake says they are. Each row is one rule the page, the workers and the CLI follow.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { intakeHeadLength, missingDatabaseMessage, planOpen, type IntakeContext, type IntakeSource, type OpenPlan } from "../../../src/core/intake/index";
import { findSessionFile, fixtureCase, fixturePath } from "../../support/fixtures";

const text = (value: string) => new TextEncoder().encode(value);
const fixture = (relative: string) => new Uint8Array(readFileSync(fixturePath(relative)));
/** A source as a host makes it: as many first bytes as the intake asks for. */
function source(name: string, bytes: Uint8Array, context: IntakeContext): IntakeSource {
  return { name, size: bytes.length, head: bytes.subarray(0, intakeHeadLength(name, bytes.length, context)) };
}

const PI = new Uint8Array(readFileSync(findSessionFile(fixtureCase("pi/check-steady").path("session"))));
const SQLITE = fixture("hermes/storage/v6-wal-state.db");
const WAL = fixture("hermes/storage/v6-wal-state.db-wal");
const SNAPSHOT = fixture("hermes/storage/sessions/session_20260103_100000_cc0016.json");
const TRANSCRIPT = fixture("hermes/storage/sessions/20251201_090000_ff0001.jsonl");
const ZSTD = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0, 0]);
const GZIP = new Uint8Array(gzipSync(PI));
const PROJECTS = text(JSON.stringify({ projects: { "/home/dev/notes": "notes" } }));
const LOGS = text(JSON.stringify([{ sessionId: "s-1", messageId: 0, type: "user", message: "hi", timestamp: "2026-01-01T00:00:00.000Z" }]));
const GEMINI_CHAT = text(`${JSON.stringify({ sessionId: "s-1", projectHash: "ab", startTime: "2026-01-01T00:00:00.000Z", lastUpdated: "2026-01-01T00:00:00.000Z", kind: "main" })}\n`);
const SHM = new Uint8Array(32);

/** The plan with containers named by id and side files by name, agent and kind (what a table can say). */
function shape(plan: OpenPlan): unknown {
  switch (plan.kind) {
    case "database":
      return { ...plan, sideFiles: plan.sideFiles.map((file) => `${file.name} ${file.agentId} ${file.kind}`) };
    case "store":
      return { kind: "store", files: plan.files.map((file) => `${file.name} ${file.agentId} ${file.kind}`) };
    case "sessions":
      return {
        kind: "sessions",
        sessions: plan.sessions.map((session) => ({ name: session.name, agentId: session.agentId, container: session.container?.id ?? null })),
        sideFiles: plan.sideFiles.map((file) => `${file.name} ${file.agentId} ${file.kind}`),
      };
    case "refused":
      return plan;
  }
}

const together: IntakeContext = { together: true };
const alone: IntakeContext = { together: false };
const follow: IntakeContext = { together: true, follow: true };

const rows: { rule: string; context: IntakeContext; files: [string, Uint8Array][]; plan: unknown }[] = [
  {
    rule: "a plain session alone, its agent from its first lines",
    context: alone,
    files: [["session.jsonl", PI]],
    plan: { kind: "sessions", sessions: [{ name: "session.jsonl", agentId: "pi", container: null }], sideFiles: [] },
  },
  {
    rule: "a Zstandard file, whatever its name: its container; its agent is known once decoded",
    context: alone,
    files: [["session.jsonl.zstd", ZSTD]],
    plan: { kind: "sessions", sessions: [{ name: "session.jsonl.zstd", agentId: null, container: "zstd" }], sideFiles: [] },
  },
  {
    rule: "a gzip file, named as a plain one",
    context: alone,
    files: [["session.jsonl", GZIP]],
    plan: { kind: "sessions", sessions: [{ name: "session.jsonl", agentId: null, container: "gzip" }], sideFiles: [] },
  },
  {
    rule: "a database with its -wal and -shm; the agent's store files go with it, other files are named",
    context: together,
    files: [["state.db", SQLITE], ["state.db-wal", WAL], ["state.db-shm", SHM], ["session_20260103_100000_cc0016.json", SNAPSHOT], ["notes.txt", text("hello")]],
    plan: { kind: "database", database: "state.db", wal: "state.db-wal", sideFiles: ["session_20260103_100000_cc0016.json hermes session-store"], otherFileNames: ["notes.txt"] },
  },
  {
    rule: "a database's -wal under another name is taken when it is the only one",
    context: together,
    files: [["copy.db", SQLITE], ["state.db-wal", WAL]],
    plan: { kind: "database", database: "copy.db", wal: "state.db-wal", sideFiles: [], otherFileNames: [] },
  },
  {
    rule: "of two -wal files neither named after the database, none is taken",
    context: together,
    files: [["copy.db", SQLITE], ["a.db-wal", WAL], ["b.db-wal", WAL]],
    plan: { kind: "database", database: "copy.db", wal: null, sideFiles: [], otherFileNames: [] },
  },
  {
    rule: "a database followed: its store files are not looked for",
    context: follow,
    files: [["state.db", SQLITE], ["state.db-wal", WAL], ["session_20260103_100000_cc0016.json", SNAPSHOT]],
    plan: { kind: "database", database: "state.db", wal: "state.db-wal", sideFiles: [], otherFileNames: ["session_20260103_100000_cc0016.json"] },
  },
  {
    rule: "several store files of one agent without a database: one store",
    context: together,
    files: [["session_20260103_100000_cc0016.json", SNAPSHOT], ["20251201_090000_ff0001.jsonl", TRANSCRIPT]],
    plan: { kind: "store", files: ["session_20260103_100000_cc0016.json hermes session-store", "20251201_090000_ff0001.jsonl hermes session-store"] },
  },
  {
    rule: "store files followed are each a session",
    context: follow,
    files: [["session_20260103_100000_cc0016.json", SNAPSHOT], ["20251201_090000_ff0001.jsonl", TRANSCRIPT]],
    plan: {
      kind: "sessions",
      sessions: [
        { name: "session_20260103_100000_cc0016.json", agentId: "hermes", container: null },
        { name: "20251201_090000_ff0001.jsonl", agentId: "hermes", container: null },
      ],
      sideFiles: [],
    },
  },
  {
    rule: "one store file alone is a session its reader opens",
    context: alone,
    files: [["20251201_090000_ff0001.jsonl", TRANSCRIPT]],
    plan: { kind: "sessions", sessions: [{ name: "20251201_090000_ff0001.jsonl", agentId: "hermes", container: null }], sideFiles: [] },
  },
  {
    rule: "a chat with its agent's note files: the notes go with the session",
    context: together,
    files: [["session-1.jsonl", GEMINI_CHAT], ["projects.json", PROJECTS], ["logs.json", LOGS]],
    plan: { kind: "sessions", sessions: [{ name: "session-1.jsonl", agentId: "gemini-cli", container: null }], sideFiles: ["projects.json gemini-cli session-notes", "logs.json gemini-cli session-notes"] },
  },
  {
    rule: "a file named like a note file that is not one is a session to read",
    context: together,
    files: [["session.jsonl", PI], ["projects.json", text('{"name":"x"}')]],
    plan: {
      kind: "sessions",
      sessions: [
        { name: "session.jsonl", agentId: "pi", container: null },
        { name: "projects.json", agentId: null, container: null },
      ],
      sideFiles: [],
    },
  },
  {
    rule: "a note file alone is refused with what to open with it",
    context: alone,
    files: [["projects.json", PROJECTS]],
    plan: { kind: "refused", because: "side file alone", message: expect.stringMatching(/^projects\.json is Gemini CLI's list of project folders, not a chat\./) },
  },
  {
    rule: "note files without a session are refused",
    context: together,
    files: [["projects.json", PROJECTS], ["logs.json", LOGS]],
    plan: { kind: "refused", because: "side file alone", message: expect.stringMatching(/^projects\.json is Gemini CLI's list/) },
  },
  {
    rule: "a write-ahead log alone names the database to give",
    context: alone,
    files: [["opencode.db-wal", WAL]],
    plan: { kind: "refused", because: "no database", message: missingDatabaseMessage(["opencode.db-wal"]) },
  },
  {
    rule: "a -wal and a -shm without their database name both",
    context: together,
    files: [["opencode.db-wal", WAL], ["opencode.db-shm", SHM]],
    plan: { kind: "refused", because: "no database", message: missingDatabaseMessage(["opencode.db-wal", "opencode.db-shm"]) },
  },
  {
    rule: "a -shm among sessions is the database's, not a session; a -shm alone is read (and fails as a session)",
    context: together,
    files: [["session.jsonl", PI], ["x.db-shm", SHM]],
    plan: { kind: "sessions", sessions: [{ name: "session.jsonl", agentId: "pi", container: null }], sideFiles: [] },
  },
  {
    rule: "a -shm alone is read as a session file (the reader says what it is not)",
    context: alone,
    files: [["x.db-shm", SHM]],
    plan: { kind: "sessions", sessions: [{ name: "x.db-shm", agentId: null, container: null }], sideFiles: [] },
  },
];

describe("planOpen", () => {
  for (const row of rows) {
    it(row.rule, () => {
      const sources = row.files.map(([name, bytes]) => source(name, bytes, row.context));
      expect(shape(planOpen(sources, row.context))).toEqual(row.plan);
    });
  }
});

describe("intakeHeadLength", () => {
  it("asks for a whole note file, a whole store file only when files are opened together and not followed", () => {
    expect(intakeHeadLength("projects.json", 5000, alone)).toBe(5000);
    expect(intakeHeadLength("projects.json", 65 * 1024 * 1024, alone)).toBe(1024 * 1024);
    expect(intakeHeadLength("a.jsonl", 10 * 1024 * 1024, together)).toBe(10 * 1024 * 1024);
    expect(intakeHeadLength("a.jsonl", 10 * 1024 * 1024, alone)).toBe(256 * 1024);
    expect(intakeHeadLength("a.jsonl", 10 * 1024 * 1024, follow)).toBe(256 * 1024);
    expect(intakeHeadLength("capture.json", 10 * 1024 * 1024, alone)).toBe(1024 * 1024);
    expect(intakeHeadLength("session.jsonl.zstd", 10, alone)).toBe(10);
  });
});
