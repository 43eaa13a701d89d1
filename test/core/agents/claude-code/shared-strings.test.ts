// The Claude Code reader holds the strings every line repeats once (sharedStrings.ts): a session
// whose lines repeat their session id, working folder, request id, model and parent uuid keeps
// far less than one whose lines hold different values of the same lengths, and reads the same.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import type { Session } from "../../../../src/core/model";
import { assistant, readClaude, user } from "./helpers";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const LINES = 4000;
/** Long enough that the copies dwarf everything else a line keeps (and below the size of a stored text). */
const LENGTH = 600;

function padded(prefix: string, n: number): string {
  return `${prefix}-${n}-`.padEnd(LENGTH, "x");
}

/** A chain of user and assistant lines; `distinct`: every line's repeated fields hold another value. */
function lines(distinct: boolean): unknown[] {
  const result: unknown[] = [];
  let parent: string | null = null;
  for (let i = 0; i < LINES; i++) {
    const uuid = padded("uuid", i);
    const key = distinct ? i : 0;
    const extra = { sessionId: padded("session", key), cwd: padded("/home/dev/project", key) };
    const line =
      i % 2 === 0
        ? user(uuid, parent, "go on", extra)
        : assistant(uuid, parent, padded("msg", distinct ? i : 0), [{ type: "text", text: "ok" }], undefined, { ...extra, requestId: padded("req", key) });
    result.push(line);
    parent = uuid;
  }
  return result;
}

/** The heap the session `read` makes keeps alive. */
function retainedBy(read: () => Session): { bytes: number; session: Session } {
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const session = read();
  collectGarbage();
  return { bytes: process.memoryUsage().heapUsed - before, session };
}

describe("Claude Code reader: repeated strings", () => {
  it("keeps one copy of what every line repeats", () => {
    const sameLines = lines(false);
    const distinctLines = lines(true);
    const same = retainedBy(() => readClaude(sameLines));
    const distinct = retainedBy(() => readClaude(distinctLines));
    expect(same.session.entries.length).toBe(LINES);
    expect(distinct.session.entries.length).toBe(LINES);
    // Repeated per line: session id and cwd, and on half the lines request id and message id
    // (one-byte strings of LENGTH characters). The code before kept each copy: both sessions kept
    // about as much.
    const copies = LINES * 3;
    expect(distinct.bytes - same.bytes).toBeGreaterThan(0.6 * copies * LENGTH);
    // Still the values the file holds.
    const second = same.session.entries[1]!.raw;
    expect(second.parentUuid).toBe(padded("uuid", 0));
    expect(same.session.entries[1]!.parentId).toBe(padded("uuid", 0));
    expect(second.sessionId).toBe(padded("session", 0));
    expect(second.requestId).toBe(padded("req", 0));
    expect((second.message as Record<string, unknown>).id).toBe(padded("msg", 0));
  });
});
