// A deepseek-harness walk keeps the context messages of the surface list in force (and the one
// before it), not every message of the session: a compaction replaces the surface, and the
// messages of the events it replaced must become garbage, or a gigabyte log keeps hundreds of
// megabytes more alive and the collector marks them again and again. The walk's carried state
// is its own: two sessions walked one after the other share no message objects.
import { readFileSync } from "node:fs";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { generateAgentSession } from "../../../../bench/generate-agent-session";
import type { Session } from "../../../../src/core/model";
import { readSessionText } from "../../../../src/core/session/index";
import { analyzeSession } from "../../../../src/core/session/pipeline";
import { iterateTurnRequests } from "../../../../src/core/session/turnRequests";
import { harnessIndex } from "../../../../src/core/agents/deepseek-harness/sessionIndex";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

function generated(seed: number): Session {
  const file = generateAgentSession("deepseek-harness", { minBytes: 2048 * 1024, seed, callsPerCompaction: 3 }).file;
  return readSessionText(readFileSync(file, "utf8"), path.basename(file))!;
}

/** Weak references to every distinct context message object the walk handed out. */
function walkedMessages(session: Session): { refs: WeakRef<object>[]; lastCount: number } {
  const seen = new WeakSet<object>();
  const refs: WeakRef<object>[] = [];
  let lastCount = 0;
  for (const { request } of iterateTurnRequests(session, {}, { reuseRequestLists: true })) {
    for (const item of request.messages) {
      if (seen.has(item)) continue;
      seen.add(item);
      refs.push(new WeakRef(item));
    }
    lastCount = request.messages.length;
  }
  return { refs, lastCount };
}

describe("deepseek-harness walk memory", () => {
  it("lets the messages of replaced surface lists go, with the session still open", async () => {
    const session = generated(7);
    // The analysis first, as the prefix command runs it: it must not keep them either.
    analyzeSession(session, {});
    const compactions = harnessIndex(session).compactions.length;
    expect(compactions).toBeGreaterThan(5);
    const { refs, lastCount } = walkedMessages(session);
    expect(refs.length).toBeGreaterThan(10 * lastCount);
    // A WeakRef made in this job keeps its target until the job ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    const alive = refs.filter((ref) => ref.deref() !== undefined).length;
    // The session is still open; the code before kept every message derived from it (a cache
    // per event for the session's lifetime): `alive` was `refs.length`.
    expect(session.entries.length).toBeGreaterThan(0);
    expect(alive).toBeLessThan(refs.length / 4);
  });

  it("shares no message object between two sessions walked one after the other", () => {
    const first = generated(8);
    const second = generated(8);
    const firstWalk = [...iterateTurnRequests(first, {}, {})].map(({ request }) => request);
    const secondWalk = [...iterateTurnRequests(second, {}, {})].map(({ request }) => request);
    expect(secondWalk.length).toBe(firstWalk.length);
    const firstObjects = new Set<unknown>();
    for (const request of firstWalk) for (const item of request.body.messages as unknown[]) firstObjects.add(item);
    let shared = 0;
    for (const request of secondWalk) for (const item of request.body.messages as unknown[]) if (firstObjects.has(item)) shared++;
    // The same prompt in both: the code before handed the second walk the first one's system message.
    expect((secondWalk[0]!.body.messages as { role: string }[])[0]!.role).toBe("system");
    expect(shared).toBe(0);
  });
});
