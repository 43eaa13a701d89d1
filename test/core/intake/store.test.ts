// An agent's store files on a disk the host lists (the CLI): which go with a database, which file a
// home folder is read through, and what a store file given alone is read with. The disk here is a
// map of folders; the decisions are the intake's.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { homeDatabaseName, homeFolderHint, storeFileGivenAlone, storeFilesBesideDatabase, type FolderAccess } from "../../../src/core/intake/index";
import { fixturePath } from "../../support/fixtures";

const SNAPSHOT_NAME = "session_20260103_100000_cc0016.json";
const TRANSCRIPT_NAME = "20251201_090000_ff0001.jsonl";
const snapshot = readFileSync(fixturePath(`hermes/storage/sessions/${SNAPSHOT_NAME}`), "utf8");
const transcript = readFileSync(fixturePath(`hermes/storage/sessions/${TRANSCRIPT_NAME}`), "utf8");
const dump = JSON.stringify({ timestamp: "2026-01-03T10:00:05", session_id: "20260103_100000_cc0016", reason: "debug", request: { method: "POST", url: "https://x/v1/chat/completions", body: { model: "m", messages: [] } } });

function disk(folders: Record<string, Record<string, string>>): FolderAccess {
  return {
    list: (folder) => (folders[folder] ? Object.keys(folders[folder]!) : null),
    read: (folder, name) => folders[folder]![name]!,
    join: (folder, name) => `${folder}/${name}`,
  };
}

const home = disk({
  home: { "state.db": "", "config.yaml": "" },
  "home/sessions": { [SNAPSHOT_NAME]: snapshot, [TRANSCRIPT_NAME]: transcript, "notes.txt": "x", "other.json": "{}" },
  lone: { [SNAPSHOT_NAME]: snapshot, [`request_dump_20260103_100000_cc0016_001.json`]: dump, [`request_dump_other_001.json`]: dump },
});

describe("store files on a disk", () => {
  it("a database is read with its agent's store files of the folder beside it, in name order", () => {
    expect(storeFilesBesideDatabase(home, "home").map((file) => file.name)).toEqual([TRANSCRIPT_NAME, SNAPSHOT_NAME]);
    expect(storeFilesBesideDatabase(home, "lone")).toEqual([]);
  });

  it("a home folder is read through its agent's database", () => {
    expect(homeDatabaseName(["config.yaml", "state.db"])).toBe("state.db");
    expect(homeDatabaseName(["config.yaml"])).toBeNull();
    // An agent's data folder is read through the database it keeps there.
    expect(homeDatabaseName(["opencode.db", "opencode.db-wal", "opencode.db-shm"])).toBe("opencode.db");
    expect(homeDatabaseName(["kilo.db", "log"])).toBe("kilo.db");
    expect(homeFolderHint()).toMatch(/state\.db \(hermes-agent\)/);
    expect(homeFolderHint()).toMatch(/opencode\.db \(opencode\)/);
  });

  it("a store file given alone is read with its session's request dumps, and only those", () => {
    const bytes = new TextEncoder().encode(snapshot);
    const given = storeFileGivenAlone(home, "lone", SNAPSHOT_NAME, bytes, bytes.length);
    expect(given?.files.map((file) => file.name)).toEqual([SNAPSHOT_NAME, "request_dump_20260103_100000_cc0016_001.json"]);
    expect(given?.read(null).formatId).toBe("hermes");
  });

  it("a file another agent's reader recognises, or one of no store name, is not a store file", () => {
    const pi = new TextEncoder().encode(`${JSON.stringify({ type: "session", version: 3, id: "x", timestamp: "2026-01-01T00:00:00Z", cwd: "/" })}\n`);
    const folder = disk({ f: { "session.jsonl": new TextDecoder().decode(pi), "notes.txt": "x" } });
    expect(storeFileGivenAlone(folder, "f", "session.jsonl", pi, pi.length)).toBeNull();
    expect(storeFileGivenAlone(folder, "f", "notes.txt", new TextEncoder().encode("x"), 1)).toBeNull();
  });
});
