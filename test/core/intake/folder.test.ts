// What a dropped folder opens as: the library, one session followed with its files, or the
// snapshot; and which names a folder walk looks at.
import { describe, expect, it } from "vitest";
import { dropRole, isFollowedName, isSessionName, isWalkedName, needsJsonRole, planFolder, subAgentParent, type JsonRole } from "../../../src/core/intake/index";

const none = new Set<string>();

/** The folder plan with the `.json` files a reader recognises (`sessions`) and those that are side files of notes. */
function planDroppedFolder(paths: readonly string[], sessions: ReadonlySet<string>, sideFiles: ReadonlySet<string> = new Set()) {
  const roles = new Map<string, JsonRole>([...sessions].map((path) => [path, sideFiles.has(path) ? "side file" : "session"]));
  return planFolder(paths, roles);
}

describe("planFolder", () => {
  it("opens a folder of several sessions as the library", () => {
    expect(planDroppedFolder(["2026/03/01/rollout-a.jsonl", "2026/03/02/rollout-b.jsonl"], none)).toEqual({ kind: "library" });
    expect(planDroppedFolder(["p/a.jsonl", "opencode.db", "opencode.db-wal"], none)).toEqual({ kind: "library" });
  });

  it("follows a folder's one session with its sub-agent files, leaving other files out", () => {
    const paths = ["-home-dev-p/abc.jsonl", "-home-dev-p/abc/subagents/agent-2.jsonl", "-home-dev-p/abc/subagents/agent-1.jsonl", "notes.txt", ".DS_Store"];
    expect(planDroppedFolder(paths, none)).toEqual({ kind: "session", paths: ["-home-dev-p/abc.jsonl", "-home-dev-p/abc/subagents/agent-1.jsonl", "-home-dev-p/abc/subagents/agent-2.jsonl"] });
  });

  it("follows a database with its -wal, never its -shm", () => {
    expect(planDroppedFolder(["opencode.db-shm", "opencode.db", "opencode.db-wal"], none)).toEqual({ kind: "session", paths: ["opencode.db", "opencode.db-wal"] });
    expect(planDroppedFolder(["state.db"], none)).toEqual({ kind: "session", paths: ["state.db"] });
  });

  it("counts a sub-agents folder without its session as sessions of their own", () => {
    expect(planDroppedFolder(["orphan/subagents/agent-1.jsonl", "orphan/subagents/agent-2.jsonl"], none)).toEqual({ kind: "library" });
  });

  it("reads a Gemini CLI chat with the side files near it", () => {
    const paths = ["projects.json", "tmp/notes/logs.json", "tmp/notes/chats/session-1.json"];
    expect(planDroppedFolder(paths, new Set(paths), new Set(["projects.json", "tmp/notes/logs.json"]))).toEqual({ kind: "session", paths: ["tmp/notes/chats/session-1.json", "projects.json", "tmp/notes/logs.json"] });
  });

  it("leaves captured requests, compressed sessions and folders without a session to the snapshot", () => {
    expect(planDroppedFolder(["s.jsonl", "001.json", "001.meta.json"], none)).toEqual({ kind: "snapshot" });
    expect(planDroppedFolder(["a.jsonl", "b.jsonl.zst"], none)).toEqual({ kind: "snapshot" });
    expect(planDroppedFolder(["a.jsonl", "b.jsonl.gz"], none)).toEqual({ kind: "snapshot" });
    expect(planDroppedFolder(["readme.md"], none)).toEqual({ kind: "snapshot" });
    expect(planDroppedFolder([], none)).toEqual({ kind: "snapshot" });
  });
});

describe("folder walks", () => {
  it("look at sessions, compressed ones only where they are read once, and a database's own files", () => {
    const table: [string, boolean, boolean, boolean][] = [
      // name, followed (library, a followed set), session (scan), walked (a dropped folder)
      ["a.jsonl", true, true, true],
      ["a.json", true, true, true],
      ["opencode.db", true, true, true],
      ["opencode.db-wal", false, false, true],
      ["opencode.db-shm", false, false, true],
      ["session.jsonl.zstd", false, true, true],
      ["session.jsonl.zst", false, true, true],
      ["session.jsonl.gz", false, true, true],
      ["notes.txt", false, false, false],
      [".DS_Store", false, false, false],
    ];
    for (const [name, followed, session, walked] of table) {
      expect([name, isFollowedName(name), isSessionName(name), isWalkedName(name)]).toEqual([name, followed, session, walked]);
    }
  });

  it("put a sub-agent's file with the session file beside its folder", () => {
    expect(subAgentParent("p/abc/subagents/agent-1.jsonl")).toBe("p/abc.jsonl");
    expect(subAgentParent("abc/subagents/agent-1.jsonl")).toBe("abc.jsonl");
    expect(subAgentParent("p/abc/agent-1.jsonl")).toBeNull();
    expect(subAgentParent("subagents/agent-1.jsonl")).toBeNull();
  });
});

describe("dropped files", () => {
  it("open as sessions, attach as captured requests, or are left out, by name and `.json` role", () => {
    const table: [string, JsonRole | undefined, boolean, string][] = [
      // name, its jsonRole, asked about, what it is
      ["session.jsonl", undefined, false, "session"],
      ["opencode.db-wal", undefined, false, "session"],
      ["session.jsonl.gz", undefined, false, "session"],
      ["export.json", "session", true, "session"],
      ["projects.json", "side file", true, "session"],
      ["007.json", null, true, "capture"],
      ["007.meta.json", undefined, false, "left out"],
      ["CAPTURE.JSON", null, true, "capture"],
    ];
    for (const [name, role, asked, expected] of table) expect([name, needsJsonRole(name), dropRole(name, role)]).toEqual([name, asked, expected]);
  });
});
