// WAL overlay (FM-OC-1) on a generated opencode-shaped database whose newest rows live only in
// its -wal file (test/fixtures/opencode/wal-synthetic/make.py), read through sql.js like the CLI
// and the worker do.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { readOpencodeDatabase } from "../../../../src/core/agents/opencode";
import { type SqlQuery } from "../../../../src/core/storage/sqlite";
import { databasePageSize } from "../../../../src/core/storage/wal";
import { applyWal } from "../../../../src/core/storage/wal";
import { loadDatabase, loadSqlEngine } from "../../../../src/cli/sqlite";
import type { Session } from "../../../../src/core/model";
import { fixturePath } from "../../../support/fixtures";

const DB = fixturePath("opencode/wal-synthetic/opencode.db");
const db = new Uint8Array(fs.readFileSync(DB));
const wal = new Uint8Array(fs.readFileSync(fixturePath("opencode/wal-synthetic/opencode.db-wal")));
const FRAME = 24 + 4096;

/** Flips bits of one byte of a copy of `bytes`. */
function flipped(bytes: Uint8Array, offset: number, mask: number): Uint8Array {
  const copy = bytes.slice();
  copy[offset] = (copy[offset] as number) ^ mask;
  return copy;
}

async function read(image: Uint8Array, walApplied: boolean, sessionId?: string): Promise<{ session: Session; tables: string[]; queries: string[] }> {
  const SQL = await loadSqlEngine();
  const database = new SQL.Database(image);
  const queries: string[] = [];
  const query: SqlQuery = (sql, params = []) => {
    queries.push(sql);
    const statement = database.prepare(sql);
    statement.bind(params as (string | number)[]);
    const rows: Record<string, unknown>[] = [];
    while (statement.step()) rows.push(statement.getAsObject());
    statement.free();
    return rows;
  };
  try {
    const tables = query("SELECT name FROM sqlite_master WHERE type='table'").map((row) => String(row.name));
    queries.length = 0;
    return { session: readOpencodeDatabase(query, { fileName: "opencode.db", walApplied, sessionId }), tables, queries };
  } finally {
    database.close();
  }
}

describe("applyWal", () => {
  it("applies every committed frame and clears the WAL journal mode", () => {
    expect(databasePageSize(db)).toBe(4096);
    expect(db[18]).toBe(2); // WAL mode in the original header
    const result = applyWal(db, wal);
    expect(result.framesApplied).toBe(21);
    expect(result.framesUncommitted).toBe(0);
    expect(result.framesStale).toBe(0);
    expect(result.warnings).toEqual([]);
    expect(result.bytes.length).toBe(13 * 4096);
    expect([result.bytes[18], result.bytes[19]]).toEqual([1, 1]);
    expect(db[18]).toBe(2); // the input is not modified
  });

  it("ignores the frames of a transaction without its commit frame", () => {
    const result = applyWal(db, wal.subarray(0, 32 + 20 * FRAME));
    expect(result.framesApplied).toBe(11);
    expect(result.framesUncommitted).toBe(9);
    expect(result.bytes.length).toBe(9 * 4096);
  });

  it("stops at a frame whose checksum does not match and at frames of an older WAL generation", () => {
    const damaged = flipped(wal, 32 + 11 * FRAME + 24 + 100, 0xff); // page data of frame 12
    const result = applyWal(db, damaged);
    expect(result.framesApplied).toBe(11);
    expect(result.framesStale).toBe(10);
    const resalted = flipped(wal, 32 + 5 * FRAME + 8, 0x01); // salt-1 of frame 6
    expect(applyWal(db, resalted).framesApplied).toBe(5);
  });

  it("warns about and ignores a file that is not a WAL or belongs to another page size", () => {
    expect(applyWal(db, new Uint8Array(10)).warnings[0]).toMatch(/shorter than a WAL header/);
    expect(applyWal(db, new Uint8Array(64)).warnings[0]).toMatch(/magic/);
    const otherSize = wal.slice();
    otherSize[10] = 0x20; // page size 8192
    expect(applyWal(db, otherSize).warnings[0]).toMatch(/page size|checksum/);
    const badHeader = flipped(wal, 27, 0xff);
    expect(applyWal(db, badHeader).warnings[0]).toMatch(/header checksum/);
    expect(applyWal(db, null).framesApplied).toBe(0);
  });
});

describe("reading an opencode database with and without its WAL", () => {
  it("without the WAL: fewer rows and a warning that rows may be missing", async () => {
    const { session } = await read(applyWal(db, null).bytes, false);
    expect(session.warnings[0]?.reason).toMatch(/without its -wal file.*recent rows may be missing/);
    expect(session.header?.sessions).toHaveLength(1);
    expect(session.header?.id).toBe("ses_a");
    expect(session.entries.map((entry) => entry.id)).toEqual(["msg_a1", "msg_a2"]);
  });

  it("with the WAL: every row, both sessions listed, the newest shown by default", async () => {
    const { session, tables, queries } = await read(applyWal(db, wal).bytes, true);
    expect(tables).toContain("credential");
    expect(queries.some((sql) => /credential/i.test(sql))).toBe(false); // FM-OC-3
    expect(session.warnings.some((w) => /without its -wal/.test(w.reason))).toBe(false);
    const sessions = session.header?.sessions as { id: string; messageCount: number; title: string }[];
    expect(sessions.map((s) => [s.id, s.messageCount, s.title])).toEqual([
      ["ses_b", 3, "Second session"],
      ["ses_a", 4, "First session"],
    ]);
    expect(session.header?.id).toBe("ses_b");
    expect(session.warnings.some((w) => /holds 2 sessions/.test(w.reason))).toBe(true);
    expect(session.entries.map((entry) => entry.id)).toEqual(["msg_b1", "msg_b2", "msg_b3"]);
  });

  it("reads the session chosen in the picker", async () => {
    const { session } = await read(applyWal(db, wal).bytes, true, "ses_a");
    expect(session.entries.map((entry) => entry.id)).toEqual(["msg_a1", "msg_a2", "msg_a3", "msg_a4"]);
    const raw = session.entries[1]?.raw as { info: Record<string, unknown>; parts: Record<string, unknown>[] };
    expect(raw.info.sessionID).toBe("ses_a");
    expect(raw.parts.map((part) => part.type)).toEqual(["step-start", "text", "step-finish"]);
    expect(raw.parts[1]?.messageID).toBe("msg_a2");
    await expect(read(applyWal(db, wal).bytes, true, "ses_nope")).rejects.toThrow(/no session ses_nope/);
  });
});

describe("CLI loader (src/cli/sqlite.ts)", () => {
  it("applies the sibling -wal by default and can be told not to", async () => {
    const withWal = await loadDatabase(DB, { sessionId: "ses_a" });
    expect(withWal.entries).toHaveLength(4);
    expect(withWal.header?.walApplied).toBe(true);
    const mainOnly = await loadDatabase(DB, { walPath: null });
    expect(mainOnly.entries).toHaveLength(2);
    expect(mainOnly.header?.walApplied).toBe(false);
    expect(mainOnly.warnings[0]?.reason).toMatch(/recent rows may be missing/);
  });
});

describe("a WAL of another database, and a schema we do not know", () => {
  it("opencode.db beside another database's WAL of the same page size: the main file opens, with a warning naming SQLite's complaint", async () => {
    // hermes-agent's v6 state.db WAL: 4096-byte pages like opencode.db, frames valid against their own header.
    const foreign = fixturePath("hermes/storage/v6-wal-state.db-wal");
    expect(applyWal(db, new Uint8Array(fs.readFileSync(foreign))).framesApplied).toBeGreaterThan(0);
    const session = await loadDatabase(DB, { walPath: foreign });
    expect(session.entries.map((entry) => entry.id)).toEqual(["msg_a1", "msg_a2"]);
    const reasons = session.warnings.map((w) => w.reason).join("\n");
    expect(reasons).toMatch(/the -wal file's pages make the database unreadable \(SQLite: .*malformed.*\): it belongs to another database or is damaged, so the main file was opened without it/);
    expect(reasons).not.toMatch(/Drop opencode\.db together with/);
  });

  it("a WAL that does not make the image unreadable is still applied (its own database's)", async () => {
    const session = await loadDatabase(DB, { sessionId: "ses_a" });
    expect(session.entries).toHaveLength(4);
    expect(session.warnings.some((w) => /belongs to another database/.test(w.reason))).toBe(false);
  });

  it("a message table without session_id: the error names the table and column in words, not SQLite's text about our query", async () => {
    const SQL = await loadSqlEngine();
    const copy = new SQL.Database(applyWal(db, wal).bytes);
    copy.run("ALTER TABLE message RENAME COLUMN session_id TO owner_id");
    const changed = copy.export();
    copy.close();
    const error = await read(changed, true).then(
      () => null,
      (thrown: unknown) => thrown as Error,
    );
    expect(error?.message).toMatch(/opencode\.db: opencode's tables are there, but the message table has no session_id column: a schema Contextscope does not read/);
    expect(error?.message).not.toMatch(/no such column|m\.session_id/);
  });
});
