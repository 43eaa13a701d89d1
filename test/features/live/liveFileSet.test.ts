// Files followed together (src/features/live/liveFileSet.ts), through handles like the File System
// Access API's: a database with its -wal is read again whole when the -wal grows, keeping the
// session shown; a Claude Code session with its sub-agent file reads only the bytes appended to
// the file that grew, and the sub-agent's new turn joins its thread; when the main file grew, the
// linked value carries the agent's caches over.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it, vi } from "vitest";
import { openFileSet } from "../../../src/features/live/liveFileSet";
import { storageSummary } from "../../../src/core/session/index";
import { analyzeSession } from "../../../src/core/session/pipeline";
import { fixturePath } from "../../support/fixtures";
import { assistant, SESSION_ID, toText, user } from "../../core/agents/claude-code/helpers";

// The worker loads sql.js's WebAssembly from the page's bundle; here, from node_modules.
vi.mock("sql.js/dist/sql-wasm-browser.wasm?url", () => ({ default: createRequire(import.meta.url).resolve("sql.js/dist/sql-wasm.wasm") }));

/** A file handle whose file the test rewrites or appends to. */
class FakeHandle {
  readonly kind = "file";
  private lastModified = 1;
  constructor(
    readonly name: string,
    private bytes: Uint8Array<ArrayBuffer>,
  ) {}
  write(bytes: Uint8Array<ArrayBuffer>): void {
    this.bytes = bytes;
    this.lastModified += 1000;
  }
  append(text: string): void {
    const added = new TextEncoder().encode(text);
    const next = new Uint8Array(this.bytes.byteLength + added.byteLength);
    next.set(this.bytes);
    next.set(added, this.bytes.byteLength);
    this.write(next);
  }
  async getFile(): Promise<File> {
    return new File([this.bytes], this.name, { lastModified: this.lastModified });
  }
}

const control = { isCancelled: () => false, onProgress: () => undefined };
const asHandles = (handles: FakeHandle[]) => handles as unknown as FileSystemFileHandle[];
const text = (lines: unknown[]) => `${toText(lines)}\n`;

describe("files followed together", () => {
  it("a database with its -wal: read again whole when the -wal grows, the session shown kept", async () => {
    const db = new Uint8Array(readFileSync(fixturePath("opencode/wal-synthetic/opencode.db")));
    const wal = new Uint8Array(readFileSync(fixturePath("opencode/wal-synthetic/opencode.db-wal")));
    // The -wal as opencode left it after a checkpoint: its header, no frame yet.
    const walHandle = new FakeHandle("opencode.db-wal", wal.slice(0, 32));
    const { read, source } = await openFileSet(asHandles([new FakeHandle("opencode.db", db), walHandle]), null, control);
    expect(storageSummary(read.session)?.sessionId).toBe("ses_a");
    expect(read.session.entries).toHaveLength(2);
    expect(await source.readChanges()).toBeNull();
    // opencode writes: two more messages of ses_a, and a newer session ses_b, all in the -wal.
    walHandle.write(wal);
    const changed = await source.readChanges();
    expect(changed?.kind).toBe("rewritten");
    expect(storageSummary(changed!.session)?.sessionId).toBe("ses_a");
    expect(changed!.session.entries).toHaveLength(4);
    expect(storageSummary(changed!.session)?.sessions.map((listing) => listing.id)).toContain("ses_b");
    expect(changed!.byteLength).toBe(db.byteLength + wal.byteLength);
  });

  it("a session with its sub-agent file: only the file that grew is read, its new turn joins the thread", async () => {
    const task = { type: "tool_use", id: "t2", name: "Task", input: { description: "Check tests", prompt: "check tests", subagent_type: "general-purpose" } };
    const main = new FakeHandle(
      `${SESSION_ID}.jsonl`,
      new TextEncoder().encode(
        text([
          user("u1", null, "review this"),
          assistant("a1", "u1", "msg_1", [task]),
          user("r2", "a1", [{ type: "tool_result", tool_use_id: "t2", content: "launched" }], {
            toolUseResult: { isAsync: true, status: "async_launched", agentId: "agent2", description: "Check tests" },
          }),
          assistant("a2", "r2", "msg_2", [{ type: "text", text: "started" }]),
        ]),
      ),
    );
    const sidechain = { isSidechain: true, agentId: "agent2" };
    // Enough lines for its format to be known (a file of fewer lines is read whole on each change).
    const exchanges = Array.from({ length: 11 }, (_, index) => [
      user(`f${2 * index + 1}`, index === 0 ? null : `f${2 * index}`, `check part ${index}`, sidechain),
      assistant(`f${2 * index + 2}`, `f${2 * index + 1}`, `msg_f${index}`, [{ type: "text", text: `part ${index} passes` }], undefined, sidechain),
    ]).flat();
    const sub = new FakeHandle("agent-agent2.jsonl", new TextEncoder().encode(text(exchanges)));
    const { read, source } = await openFileSet(asHandles([main, sub]), null, control);
    const thread = read.session.threads?.find((candidate) => candidate.id === "agent2");
    expect(thread?.origin).toBe("file");
    expect(thread?.label).toContain("Check tests");
    expect(thread?.session.entries).toHaveLength(22);
    expect(await source.readChanges()).toBeNull();
    const appended = text([user("f23", "f22", "and the lint?", sidechain), assistant("f24", "f23", "msg_f11", [{ type: "text", text: "lint passes" }], undefined, sidechain)]);
    sub.append(appended);
    const changed = await source.readChanges();
    expect(changed?.kind).toBe("appended");
    expect(changed?.readBytes).toBe(new TextEncoder().encode(appended).byteLength);
    expect(changed?.session.fileName).toBe(`${SESSION_ID}.jsonl`);
    expect(changed?.session.threads?.find((candidate) => candidate.id === "agent2")?.session.entries).toHaveLength(24);
    // The main file did not change: what the carried caches give equals a fresh analysis.
    const options = { profile: "pi", leafId: null, api: null, header: null, notes: false } as const;
    analyzeSession(read.session, options);
    expect(analyzeSession(changed!.session, options)).toEqual(analyzeSession({ ...changed!.session }, options));
  });

  it("a session with its sub-agent file whose main file grew: the linked value carries the agent's caches (earlier turns kept)", async () => {
    const task = { type: "tool_use", id: "t0", name: "Task", input: { description: "Check tests", prompt: "check tests", subagent_type: "general-purpose" } };
    const turns = Array.from({ length: 11 }, (_, index) => [
      user(`u${index}`, index === 0 ? null : `a${index - 1}`, `question ${index}`),
      assistant(`a${index}`, `u${index}`, `msg_${index}`, index === 0 ? [task] : [{ type: "text", text: `answer ${index}` }]),
    ]).flat();
    const main = new FakeHandle(`${SESSION_ID}.jsonl`, new TextEncoder().encode(text(turns)));
    const sidechain = { isSidechain: true, agentId: "agent0" };
    const exchanges = Array.from({ length: 11 }, (_, index) => [
      user(`f${2 * index + 1}`, index === 0 ? null : `f${2 * index}`, `check part ${index}`, sidechain),
      assistant(`f${2 * index + 2}`, `f${2 * index + 1}`, `msg_f${index}`, [{ type: "text", text: `part ${index} passes` }], undefined, sidechain),
    ]).flat();
    const sub = new FakeHandle("agent-agent0.jsonl", new TextEncoder().encode(text(exchanges)));
    const { read, source } = await openFileSet(asHandles([main, sub]), null, control);
    const options = { profile: "pi", leafId: null, api: null, header: null, notes: false } as const;
    const before = analyzeSession(read.session, options);
    main.append(text([user("u11", "a10", "one more"), assistant("a11", "u11", "msg_11", [{ type: "text", text: "done" }])]));
    const changed = await source.readChanges();
    expect(changed?.kind).toBe("appended");
    const after = analyzeSession(changed!.session, options);
    expect(after.turns).toHaveLength(before.turns.length + 1);
    // Carried, not rebuilt: the earlier turns' summaries are the same objects.
    expect(after.turns[0]).toBe(before.turns[0]);
    expect(after.turns[before.turns.length - 2]).toBe(before.turns[before.turns.length - 2]);
    expect(after).toEqual(analyzeSession({ ...changed!.session }, options));
  });
});

