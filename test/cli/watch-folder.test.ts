// watch's view of a folder, in process: a large folder is only listed at the start, and a file is
// looked into (told a session or not) once per version of it; a session listed at the start and
// told when it changed is followed from how it was then, its first new turn compared with the
// turns there at the start. A small folder is told whole at the start.
import { appendFileSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { assistant, SESSION_ID, toText, user } from "../core/agents/claude-code/helpers";
import { SessionFolder, type FileStamp } from "../../src/cli/watch/sessionFolder";
import { WatchedFile } from "../../src/cli/watch/watchedFile";
import type { CliIo } from "../../src/cli/io";

/** More files than the folder tells at the start. */
const LARGE = 520;

function claudeLines(turns: number, prefix: string, from = 1, parent: string | null = null): string {
  const records: Record<string, unknown>[] = [];
  for (let turn = from; turn < from + turns; turn++) {
    records.push(user(`${prefix}${turn}q`, parent, `question ${turn}`, { sessionId: SESSION_ID }));
    records.push(assistant(`${prefix}${turn}a`, `${prefix}${turn}q`, `msg_${prefix}${turn}`, [{ type: "text", text: `answer ${turn}` }], undefined, { sessionId: SESSION_ID }));
    parent = `${prefix}${turn}a`;
  }
  return `${toText(records)}\n`;
}

function stampOf(file: string): FileStamp {
  const stat = statSync(file);
  return { size: stat.size, mtimeMs: stat.mtimeMs, dev: stat.dev, ino: stat.ino };
}

/** A folder of `count` small sessions in day folders, a note that is no session, and a session with a sub-agent file. */
function makeFolder(count: number) {
  const root = mkdtempSync(path.join(tmpdir(), "cs-watch-folder-"));
  const sessions: string[] = [];
  for (let i = 0; i < count; i++) {
    const day = path.join(root, `day-${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(day);
    const file = path.join(day, `s-${i}.jsonl`);
    writeFileSync(file, claudeLines(2, `s${i}x`));
    sessions.push(file);
  }
  const note = path.join(root, "notes.json");
  writeFileSync(note, '{"not": "a session"}\n');
  const main = path.join(root, "main.jsonl");
  writeFileSync(main, claudeLines(2, "m"));
  const sub = path.join(root, "main", "subagents", "agent-a.jsonl");
  mkdirSync(path.dirname(sub), { recursive: true });
  writeFileSync(sub, claudeLines(1, "sub"));
  return { root, sessions, note, main, sub };
}

const quiet: CliIo = { stdout: () => undefined, stderr: () => undefined } as unknown as CliIo;
const settings = { pipeline: { leafId: null, api: null, header: null, notes: false }, tokenizer: "estimate" as const };

describe("watch: a folder's sessions", () => {
  it("tells a small folder whole at the start: its sessions, each sub-agent file after its session, never a note", () => {
    const folder = makeFolder(3);
    const index = new SessionFolder(folder.root, false);
    const found = index.check();
    expect(index.untold).toBe(0);
    expect(found.map((one) => one.file).sort()).toEqual([...folder.sessions, folder.main, folder.sub].sort());
    expect(found.find((one) => one.file === folder.sub)).toEqual({ file: folder.sub, parent: folder.main, listedAs: null });
    expect(found.findIndex((one) => one.file === folder.main)).toBeLessThan(found.findIndex((one) => one.file === folder.sub));
    // Nothing changed: nothing found again.
    expect(index.check()).toEqual([]);
  });

  it("only lists a large folder at the start, then tells each file when it changes (a new one at once)", () => {
    const folder = makeFolder(LARGE);
    const index = new SessionFolder(folder.root, false);
    expect(index.check()).toEqual([]);
    // Every line file is only listed; the note, a .json document, is told at the start (a JSON
    // document is rewritten whole, so its state at the start is read then).
    expect(index.untold).toBe(LARGE + 2);
    const changed = folder.sessions[7]!;
    const before = stampOf(changed);
    appendFileSync(changed, claudeLines(1, "s7x", 3, "s7x2a"));
    appendFileSync(folder.note, "\n");
    const added = path.join(folder.root, "day-0", "new.jsonl");
    writeFileSync(added, claudeLines(1, "n"));
    const found = index.check();
    // The changed session is followed from how it was at the start; the new one is new; the note is no session.
    expect(found.sort((a, b) => a.file.localeCompare(b.file))).toEqual([
      { file: added, parent: null, listedAs: null },
      { file: changed, parent: null, listedAs: before },
    ]);
    expect(index.untold).toBe(LARGE + 1);
    expect(index.check()).toEqual([]);
  });

  it("with the whole folder told at the start (--existing), a large folder is told whole too", () => {
    const folder = makeFolder(LARGE);
    const index = new SessionFolder(folder.root, true);
    expect(index.check()).toHaveLength(LARGE + 2);
    expect(index.untold).toBe(0);
  });

  it("finds a listed session with its sub-agent file when only the sub-agent file changed", () => {
    const folder = makeFolder(LARGE);
    const index = new SessionFolder(folder.root, false);
    index.check();
    const main = stampOf(folder.main);
    const sub = stampOf(folder.sub);
    appendFileSync(folder.sub, claudeLines(1, "sub", 2, "sub1a"));
    expect(index.check()).toEqual([
      { file: folder.main, parent: null, listedAs: main },
      { file: folder.sub, parent: folder.main, listedAs: sub },
    ]);
  });

  it("follows a session listed at the start from how it was then: its first new turn is the next one, compared with the last at the start", async () => {
    const folder = makeFolder(1);
    const file = folder.sessions[0]!;
    const listedAs = stampOf(file);
    // Two turns more were written before the file was first looked into.
    appendFileSync(file, claudeLines(2, "s0x", 3, "s0x2a"));
    const watched = new WatchedFile(file, settings, quiet, true, true, listedAs);
    const result = await watched.poll();
    expect(result?.turns.map((turn) => turn.turn)).toEqual([3, 4]);
    expect(result?.turns[0]!.cause).toBeNull();
    expect(await watched.poll()).toBeNull();
  });

  it("reads a listed session as it was at the start when asked (a sub-agent's turn is labelled from it), reporting none of its turns", async () => {
    const folder = makeFolder(1);
    const watched = new WatchedFile(folder.main, settings, quiet, true, true, stampOf(folder.main));
    expect(await watched.poll()).toBeNull();
    expect(watched.session).toBeNull();
    await watched.readStart();
    expect(watched.session?.entries.length).toBe(4);
    appendFileSync(folder.main, claudeLines(1, "m", 3, "m2a"));
    expect((await watched.poll())?.turns.map((turn) => turn.turn)).toEqual([3]);
  });
});
