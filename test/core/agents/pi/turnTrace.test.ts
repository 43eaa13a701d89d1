// The pi request walk follows the analysis walk's trace (src/core/agents/pi/turnTrace.ts): a
// session analysed and then walked for its requests, as `prefix` does, is projected once, and
// the contexts the walk hands out from the trace equal those of a walk that projects the branch
// itself (path ids, dropped messages and warnings included, across compactions).
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PipelineOptions, Session } from "../../../../src/core/model";
import { PathProjector } from "../../../../src/core/agents/pi/projection";
import { iteratePiTurnContexts } from "../../../../src/core/agents/pi/turnContexts";
import { analyzeSession } from "../../../../src/core/session/pipeline";
import { iterateTurnRequests } from "../../../../src/core/session/turnRequests";
import { assistant, assistantCall, chain, compaction, toJsonl, toolResult, user, type EntryInput } from "./sessionBuilder";
import { readSessionText } from "../../../../src/core/session/index";

const ENTRIES: EntryInput[] = [
  { id: "m0", type: "model_change", provider: "p", modelId: "m" },
  user("u1", "first"),
  assistantCall("a1", "c1"),
  toolResult("r1", "c1", "listing"),
  assistant("a2", "done"),
  // Dropped from the context (PI-C2) and a role pi does not know (PI-C6): a dropped message and a warning.
  { id: "b1", type: "message", message: { role: "bashExecution", command: "ls", output: "x", exitCode: 0, cancelled: false, truncated: false, excludeFromContext: true, timestamp: 4 } },
  { id: "w1", type: "message", message: { role: "mystery", content: [], timestamp: 4 } },
  { id: "t1", type: "thinking_level_change", thinkingLevel: "high" },
  user("u2", "second"),
  assistant("a3", "ok", { provider: "q", model: "n" }),
  compaction("C1", "u2", "summary one"),
  user("u3", "third"),
  assistant("a4", "fine"),
  compaction("C2", "nothing-kept", "summary two"),
  compaction("C3", "u3", "summary three"),
  user("u4", "fourth"),
  assistant("a5", "end"),
  user("u5", "fifth"),
  assistant("a6", "last"),
];

const TEXT = toJsonl(chain(ENTRIES));

/** A fresh Session of the same text each time: its own memo, nothing analysed yet. */
function freshSession(): Session {
  return readSessionText(TEXT, "trace.jsonl");
}

const PI: PipelineOptions = { profile: "pi" };

afterEach(() => {
  vi.restoreAllMocks();
});

describe("pi request walk after the analysis", () => {
  it("projects the branch once for the analysis and every turn's request together", () => {
    const session = freshSession();
    const push = vi.spyOn(PathProjector.prototype, "push");
    const analysis = analyzeSession(session, PI);
    const turns = [...iterateTurnRequests(session, PI, { reuseRequestLists: true })].length;
    expect(turns).toBe(analysis.turns.length);
    expect(turns).toBe(6);
    // Every entry but the session header, pushed once: not once per walk.
    expect(push).toHaveBeenCalledTimes(session.entries.length);
  });

  it("hands out the contexts a walk of its own gives, with and without path ids and list reuse", () => {
    for (const walk of [{}, { pathEntryIds: false }, { reuseWalk: {} }]) {
      const own = [...iteratePiTurnContexts(freshSession(), PI, {}, walk)].map((context) => structuredClone(context));
      const session = freshSession();
      analyzeSession(session, PI);
      const push = vi.spyOn(PathProjector.prototype, "push");
      const traced = [...iteratePiTurnContexts(session, PI, {}, walk)].map((context) => structuredClone(context));
      expect(push).not.toHaveBeenCalled();
      push.mockRestore();
      expect(traced).toEqual(own);
      expect(traced.some((context) => context.dropped.length > 0)).toBe(true);
      expect(traced.some((context) => context.warnings.length > 0)).toBe(true);
      expect(new Set(traced.map((context) => context.compactionId)).size).toBeGreaterThan(2);
    }
  });

  it("senpi still projects on its own (its steps read the projected list)", () => {
    const session = freshSession();
    const options: PipelineOptions = { profile: "senpi" };
    analyzeSession(session, options);
    const push = vi.spyOn(PathProjector.prototype, "push");
    expect([...iteratePiTurnContexts(session, options)].length).toBe(6);
    expect(push).toHaveBeenCalled();
  });
});
