// Every agent's pipeline, under every profile, takes any JSON value where its files hold another:
// a property test per agent and storage kind puts an arbitrary JSON value (null, numbers, strings,
// arrays, objects, nested) into a random field of a valid recorded session — a line of a Claude
// Code or Codex transcript, a hermes transcript line, the opencode export document, a hermes
// session snapshot, the `data` JSON of an opencode database row, a column of a hermes state.db
// row — and runs reading, analysis, every turn's request, the last request in every provider
// shape and prefix analysis. Nothing may throw; what cannot be read becomes a warning.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { API_IDS, type Session } from "../../src/core/model";
import { findAgent } from "../../src/core/session/agents";
import { ownedSideFile, readSessionText, readSideFiles } from "../../src/core/session/index";
import { analyzeSession, buildTurnRequest } from "../../src/core/session/pipeline";
import { iterateSessionPrefixes } from "../../src/core/session/sessionPrefixes";
import { iterateTurnRequests } from "../../src/core/session/turnRequests";
import { readOpencodeDatabase } from "../../src/core/agents/opencode";
import type { SqlRow } from "../../src/core/storage/sqlite";
import { loadSqlEngine } from "../../src/cli/sqlite";
import { sqlQuery } from "../../src/app/sqlQuery";
import { applyWal } from "../../src/core/storage/wal";
import { fixtureCase, fixturePath } from "../support/fixtures";
import { readDb, withDb } from "./agents/hermes/storage/helpers";

type Path = (string | number)[];

/** Every path in a JSON value (breadth first, capped). */
function valuePaths(root: unknown, cap = 3000): Path[] {
  const paths: Path[] = [];
  const queue: { value: unknown; path: Path }[] = [{ value: root, path: [] }];
  for (let head = 0; head < queue.length && paths.length < cap; head++) {
    const { value, path } = queue[head]!;
    if (path.length > 0) paths.push(path);
    if (Array.isArray(value)) value.forEach((child, i) => queue.push({ value: child, path: [...path, i] }));
    else if (value !== null && typeof value === "object") for (const [key, child] of Object.entries(value)) queue.push({ value: child, path: [...path, key] });
  }
  return paths;
}

/** `root` (a parsed copy) with the value at the `pick`-th path replaced by `value`. */
function replaced(root: unknown, pick: number, value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(root)) as unknown;
  const paths = valuePaths(copy);
  if (paths.length === 0) return value;
  const path = paths[pick % paths.length]!;
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = value;
  return copy;
}

/** Reading's later stages, under every profile of the session's agent. */
function everyStage(session: Session): void {
  const profiles = findAgent(session.formatId)?.profiles?.map((profile) => profile.id) ?? [];
  for (const profile of profiles.length > 0 ? profiles : [undefined]) {
    const options = profile === undefined ? {} : { profile };
    const analysis = analyzeSession(session, options);
    let walked = 0;
    for (const built of iterateTurnRequests(session, options)) {
      void built;
      walked++;
    }
    expect(walked, `${profile}: the request walk and the analysis count the same turns`).toBe(analysis.turns.length);
    const last = analysis.turns.length;
    if (last > 0) for (const api of API_IDS) buildTurnRequest(session, { ...options, api }, last);
    for (const report of iterateSessionPrefixes(session, options, { analysis, prefix: { tokenizer: "estimate" } })) void report;
  }
}

// Values of every JSON kind, nested a little; plus the ones readers most often trip on.
const jsonArb = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, [], {}, "", 0, -1, 1e308, true, [null], { __proto__: null }, "not-a-date", [[[]]]) },
);
const RUNS = { numRuns: 40, seed: 33 };

/** A JSONL transcript: a random field of a random line gets the value. */
function jsonlProperty(text: string, fileName: string): void {
  const lines = text.trimEnd().split("\n");
  // Lines that are JSON (a fixture may hold a damaged line on purpose).
  const jsonLines = lines.flatMap((line, index) => {
    try {
      JSON.parse(line);
      return [index];
    } catch {
      return [];
    }
  });
  const before = readSessionText(text, fileName);
  fc.assert(
    fc.property(fc.nat(), fc.nat(), jsonArb, (line, pick, value) => {
      const at = jsonLines[line % jsonLines.length]!;
      const changed = lines.map((original, i) => (i === at ? JSON.stringify(replaced(JSON.parse(original), pick, value)) : original));
      const session = readSessionText(changed.join("\n"), fileName);
      expect(session.formatId).toBe(before.formatId);
      everyStage(session);
    }),
    RUNS,
  );
}

describe("any JSON value in any field, per agent", () => {
  it("Claude Code transcript", () => {
    const path = fixtureCase("claude/print-autocompact-manualcompact").sessionPath;
    jsonlProperty(readFileSync(path, "utf8"), path.split("/").pop()!);
  });

  it("Codex rollout", () => {
    const path = fixtureCase("codex/exec-autocompact").sessionPath;
    jsonlProperty(readFileSync(path, "utf8"), path.split("/").pop()!);
  });

  it("pi and senpi sessions", () => {
    jsonlProperty(readFileSync(fixtureCase("pi/print-openai-autocompact").sessionPath, "utf8"), "s.jsonl");
    jsonlProperty(readFileSync(fixtureCase("senpi/print-openai-autocompact").sessionPath, "utf8"), "s.jsonl");
  });

  it("hermes transcript", () => {
    jsonlProperty(readFileSync(fixturePath("hermes/storage/sessions/20251201_090000_ff0001.jsonl"), "utf8"), "20251201_090000_ff0001.jsonl");
  });

  it("opencode export document", () => {
    const document = JSON.parse(readFileSync(fixturePath("opencode/run-autocompact/session/export.json"), "utf8")) as unknown;
    fc.assert(
      fc.property(fc.nat(), jsonArb, (pick, value) => {
        let session: Session;
        try {
          session = readSessionText(JSON.stringify(replaced(document, pick, value)), "export.json");
        } catch (error) {
          // Only the fields that make the document an export (`info` with its id, `messages`)
          // may turn it into a file no reader recognises; that is a refusal in words.
          const path = valuePaths(document)[pick % valuePaths(document).length]!;
          expect((error as Error).name).toBe("UnsupportedFormatError");
          expect(path.join(".")).toMatch(/^(info|info\.id|messages)$/);
          return;
        }
        everyStage(session);
      }),
      RUNS,
    );
  });

  it("hermes session snapshot", () => {
    const name = "session_20260103_100000_cc0016.json";
    const snapshot = JSON.parse(readFileSync(fixturePath(`hermes/storage/sessions/${name}`), "utf8")) as unknown;
    fc.assert(
      fc.property(fc.nat(), jsonArb, (pick, value) => {
        const file = ownedSideFile({ name, text: JSON.stringify(replaced(snapshot, pick, value)) }, "session-store");
        if (file === null) return; // no longer a snapshot by its shape: another reader's business
        const session = readSideFiles([file], null, 1)!;
        everyStage(session);
      }),
      RUNS,
    );
  });

  it("opencode database rows (the data JSON of a message or part row, or a session column)", async () => {
    const SQL = await loadSqlEngine();
    const db = new SQL.Database(
      applyWal(readFileSync(fixturePath("opencode/run-autocompact/session/opencode-db/opencode.db")), readFileSync(fixturePath("opencode/run-autocompact/session/opencode-db/opencode.db-wal"))).bytes,
    );
    const query = sqlQuery(db);
    // The rows as the reader queries them, kept; each run changes one and reads them again.
    const rows = new Map<string, SqlRow[]>();
    const recording = (sql: string, params?: readonly (string | number)[]) => {
      const result = query(sql, params);
      rows.set(`${sql}\u0000${JSON.stringify(params ?? [])}`, result);
      return result;
    };
    readOpencodeDatabase(recording, { fileName: "opencode.db", walApplied: true });
    db.close();
    const keys = [...rows.keys()].filter((key) => rows.get(key)!.length > 0);
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.nat(), jsonArb, fc.boolean(), (which, row, pick, value, asColumn) => {
        const key = keys[which % keys.length]!;
        const list = rows.get(key)!;
        const at = row % list.length;
        const original = list[at]!;
        let changed: SqlRow;
        if (!asColumn && typeof original.data === "string") changed = { ...original, data: JSON.stringify(replaced(JSON.parse(original.data), pick, value)) };
        else {
          const columns = Object.keys(original);
          const column = columns[pick % columns.length]!;
          changed = { ...original, [column]: value === null || typeof value !== "object" ? value : JSON.stringify(value) };
        }
        const replay = (sql: string, params?: readonly (string | number)[]) => {
          const own = `${sql}\u0000${JSON.stringify(params ?? [])}`;
          const result = rows.get(own) ?? [];
          return own === key ? result.map((r, i) => (i === at ? changed : r)) : result;
        };
        let session: Session;
        try {
          session = readOpencodeDatabase(replay, { fileName: "opencode.db", walApplied: true });
        } catch (error) {
          // A database whose chosen session is gone is refused with words, not a crash.
          expect((error as Error).name).toBe("OpencodeDatabaseError");
          return;
        }
        everyStage(session);
      }),
      RUNS,
    );
  });

  it("hermes state.db rows (any column of a message or session row)", async () => {
    const bytes = readFileSync(fixturePath("hermes/storage/v30-state.db"));
    const shape = await withDb(bytes, null, (_query, db) => ({
      messages: db.exec("SELECT id FROM messages")[0]!.values.map((v) => v[0] as number),
      messageColumns: db.exec("PRAGMA table_info(messages)")[0]!.values.map((v) => String(v[1])).filter((c) => c !== "id"),
      sessions: db.exec("SELECT id FROM sessions")[0]!.values.map((v) => v[0] as string),
      sessionColumns: db.exec("PRAGMA table_info(sessions)")[0]!.values.map((v) => String(v[1])).filter((c) => c !== "id"),
    }));
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), jsonArb, fc.boolean(), async (row, column, value, sessionRow) => {
        const stored = value === null || typeof value === "number" || typeof value === "string" ? value : typeof value === "boolean" ? Number(value) : JSON.stringify(value);
        const changed = await withDb(bytes, null, (_query, db) => {
          try {
            if (sessionRow) {
              const name = shape.sessionColumns[column % shape.sessionColumns.length]!;
              db.run(`UPDATE sessions SET "${name}" = ? WHERE id = ?`, [stored as never, shape.sessions[row % shape.sessions.length]!]);
            } else {
              const name = shape.messageColumns[column % shape.messageColumns.length]!;
              db.run(`UPDATE messages SET "${name}" = ? WHERE id = ?`, [stored as never, shape.messages[row % shape.messages.length]!]);
            }
          } catch (error) {
            // SQLite refuses the change (a NOT NULL column, the full-text index's trigger): hermes
            // could not have written it either.
            expect(String(error)).toMatch(/constraint|malformed/i);
            return null;
          }
          return db.export();
        });
        if (changed !== null) everyStage(await readDb(changed));
      }),
      { numRuns: 30, seed: 33 },
    );
  });
});

describe("what the properties found", () => {
  it("a hermes transcript whose first line has a role of the wrong type opens with its other lines, a warning on line 1", () => {
    const text = readFileSync(fixturePath("hermes/storage/sessions/20251201_090000_ff0001.jsonl"), "utf8");
    const lines = text.split("\n");
    const damaged = [JSON.stringify({ ...(JSON.parse(lines[0]!) as object), role: [] }), ...lines.slice(1)].join("\n");
    const before = readSessionText(text, "20251201_090000_ff0001.jsonl");
    const session = readSessionText(damaged, "20251201_090000_ff0001.jsonl");
    expect(session.formatId).toBe(before.formatId);
    expect(session.warnings.some((w) => w.line === 1 && /recognised as a hermes transcript by its other lines/.test(w.reason))).toBe(true);
    expect(session.entries.length).toBe(before.entries.length - 1);
    everyStage(session);
  });

  it("a Claude Code session quoting a Claude special-token string (<EOT>) gets its token estimates", () => {
    const path = fixtureCase("claude/print-autocompact-manualcompact").sessionPath;
    const text = readFileSync(path, "utf8").replace(/"text":"/, '"text":"<EOT> <META> ');
    const session = readSessionText(text, path.split("/").pop()!);
    const analysis = analyzeSession(session, {});
    for (const report of iterateSessionPrefixes(session, {}, { analysis, prefix: { tokenizer: "auto" } })) void report;
  });
});
