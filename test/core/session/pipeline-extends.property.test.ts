// Issue 8 "Done when", property test: over generated pi and senpi sessions (branches, compactions,
// failed turns with stopReason error/aborted and their tool results, model switches, images a
// failed turn proves rejected), taken in the order the agent sent them (file order, across
// branches), request N+1 extends request N — its messages start with N's messages, byte-equal
// serialized — unless a compaction, a branch switch, a dropped failed turn or a model switch lies
// between them; and the prefix analyzer (src/core/prefix), fed the facts the pipeline knows, names
// which. The facts come from the pipeline's own outputs (turn contexts and turn summaries), not
// from the generator.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PipelineOptions, ProfileId, Session, TurnSummary } from "../../../src/core/model";
import { analyzeSession, buildTurnContext, buildTurnRequest } from "../../../src/core/session/pipeline";
import { analyzePrefixes, type PrefixTurnInput } from "../../../src/core/prefix";
import type { PrefixCause, TurnFacts } from "../../../src/core/prefix/types";
import { readSessionText } from "../../../src/core/session/index";

// ---------------------------------------------------------------------------------------------
// Generated sessions

type Step =
  | { kind: "prompt"; text: number; image: boolean }
  | { kind: "tools"; sizes: number[] }
  | { kind: "fail"; stopReason: "error" | "aborted"; withCall: boolean; imageError: boolean }
  | { kind: "compact"; keep: number }
  | { kind: "model"; model: number }
  | { kind: "branch"; back: number; summary: boolean };

const PROMPTS = ["이 함수 좀 고쳐줘", "Please fix the parser", "このバグを直してください", "Почини тест, пожалуйста", "영어로 답해줘"];
const MODELS = ["model-a", "model-b", "model-c"];
const IMAGE = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("prompt" as const), text: fc.nat(PROMPTS.length - 1), image: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("tools" as const), sizes: fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 3 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("fail" as const),
      stopReason: fc.constantFrom("error" as const, "aborted" as const),
      withCall: fc.boolean(),
      imageError: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("compact" as const), keep: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("model" as const), model: fc.nat(MODELS.length - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("branch" as const), back: fc.nat(20), summary: fc.boolean() }) },
);

interface Built {
  text: string;
  /** Assistant entry ids in file order: the chronological order of the requests. */
  assistants: string[];
}

/** Builds a pi session file from the steps. Every step leaves the leaf at a resting point. */
function buildSession(steps: Step[]): Built {
  const lines: Record<string, unknown>[] = [
    { type: "session", version: 3, id: "gen", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" },
  ];
  const parentOf = new Map<string, string | null>();
  const kindOf = new Map<string, string>();
  const assistants: string[] = [];
  let next = 0;
  let clock = 0;
  let leaf: string | null = null;
  let model = MODELS[0]!;

  const add = (entry: Record<string, unknown>, kind: string): string => {
    const id = `e${++next}`;
    clock += 1;
    lines.push({ ...entry, id, parentId: leaf, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, clock)).toISOString() });
    parentOf.set(id, leaf);
    kindOf.set(id, kind);
    leaf = id;
    return id;
  };
  const pathIds = (): string[] => {
    const ids: string[] = [];
    for (let at = leaf; at !== null; at = parentOf.get(at) ?? null) ids.unshift(at);
    return ids;
  };
  const message = (m: Record<string, unknown>, kind: string) => add({ type: "message", message: { timestamp: clock, ...m } }, kind);
  const user = (text: string, image: boolean) =>
    message({ role: "user", content: [{ type: "text", text }, ...(image ? [IMAGE] : [])] }, "user");
  const assistant = (content: unknown[], stopReason: string, extra: Record<string, unknown> = {}) => {
    const id = message(
      {
        role: "assistant",
        content,
        api: "openai-completions",
        provider: "p",
        model,
        usage: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 12 },
        stopReason,
        ...extra,
      },
      stopReason === "error" || stopReason === "aborted" ? "failed" : "assistant",
    );
    assistants.push(id);
    return id;
  };
  const toolResult = (callId: string, text: string) =>
    message({ role: "toolResult", toolCallId: callId, toolName: "bash", content: [{ type: "text", text }], isError: false }, "tool");

  for (const step of steps) {
    switch (step.kind) {
      case "prompt":
        user(PROMPTS[step.text]!, step.image);
        assistant([{ type: "text", text: `answer ${next}` }], "stop");
        break;
      case "tools": {
        if (leaf === null) user(PROMPTS[0]!, false);
        const calls = step.sizes.map((_, i) => ({ type: "toolCall", id: `call-${next}-${i}`, name: "bash", arguments: { command: `ls ${i}` } }));
        assistant(calls, "toolUse");
        step.sizes.forEach((size, i) => toolResult(calls[i]!.id, "x".repeat(size)));
        assistant([{ type: "text", text: `done ${next}` }], "stop");
        break;
      }
      case "fail": {
        user(PROMPTS[1]!, false);
        const errorMessage = step.imageError ? "400 image could not be processed" : "connection reset";
        if (step.withCall) {
          const callId = `call-${next}-f`;
          assistant([{ type: "toolCall", id: callId, name: "bash", arguments: { command: "sleep 9" } }], step.stopReason, { errorMessage });
          toolResult(callId, "Operation aborted");
        } else {
          assistant([{ type: "text", text: "partial" }], step.stopReason, { errorMessage });
        }
        break;
      }
      case "compact": {
        // Cut at a user message after the path's newest compaction (pi cuts at turn starts too).
        const ids = pathIds();
        const lastCompaction = ids.map((id) => kindOf.get(id)).lastIndexOf("compaction");
        const users = ids.slice(lastCompaction + 1).filter((id) => kindOf.get(id) === "user");
        if (users.length === 0) break;
        const kept = users[Math.max(0, users.length - 1 - step.keep)]!;
        add({ type: "compaction", summary: `summary ${next}`, firstKeptEntryId: kept, tokensBefore: 1000, details: { readFiles: [], modifiedFiles: [] } }, "compaction");
        break;
      }
      case "model":
        model = MODELS[step.model]!;
        add({ type: "model_change", provider: "p", modelId: model }, "model");
        break;
      case "branch": {
        // Go back to an earlier assistant answer on the path and continue from there.
        const resting = pathIds().filter((id) => kindOf.get(id) === "assistant");
        if (resting.length < 2) break;
        const fromLeaf = leaf;
        leaf = resting[resting.length - 2 - (step.back % (resting.length - 1))]!;
        if (step.summary) add({ type: "branch_summary", fromId: fromLeaf, summary: `left branch at ${fromLeaf}` }, "branch-summary");
        break;
      }
    }
  }
  return { text: lines.map((l) => JSON.stringify(l)).join("\n") + "\n", assistants };
}

// ---------------------------------------------------------------------------------------------
// Requests in the order they were sent, with the facts the pipeline knows about each gap

const FAILED = new Set(["error", "aborted"]);

interface SentRequest {
  leafId: string;
  turn: number;
  summary: TurnSummary;
  pathIds: string[];
  compactionId: string | null;
  input: PrefixTurnInput;
  messageTexts: string[];
}

function sentRequests(session: Session, assistants: string[], base: PipelineOptions): SentRequest[] {
  return assistants.map((leafId, index) => {
    const options = { ...base, leafId };
    const analysis = analyzeSession(session, options);
    const summary = analysis.turns[analysis.turns.length - 1]!;
    expect(summary.entryId).toBe(leafId);
    const context = buildTurnContext(session, options, summary.turn);
    const built = buildTurnRequest(session, options, summary.turn);
    const wire = (built.body.messages as unknown[]) ?? [];
    return {
      leafId,
      turn: summary.turn,
      summary,
      pathIds: context.pathEntryIds,
      compactionId: context.compactionId,
      input: { turn: index + 1, api: built.api, body: built.body, messages: built.messages },
      messageTexts: wire.map((m) => JSON.stringify(m)),
    };
  });
}

/** What lies between two consecutive requests, from the pipeline's outputs. */
function factsBetween(previous: SentRequest, next: SentRequest): TurnFacts {
  const onPath = next.pathIds.includes(previous.leafId);
  return {
    // The next request's context rests on a compaction the previous one did not have.
    compactionBetween: next.compactionId !== null && next.compactionId !== previous.compactionId,
    // The previous answer is not on the next request's branch: the agent went back in the tree.
    branchSwitched: !onPath,
    // The previous answer failed; pi-ai (and senpi's SP-C3) leave it out of the next request.
    droppedFailedTurn: onPath && FAILED.has(previous.summary.stopReason ?? ""),
    modelChanged:
      previous.summary.model?.modelId !== next.summary.model?.modelId || previous.summary.model?.provider !== next.summary.model?.provider,
  };
}

const CAUSE_OF_FACT: Record<keyof Omit<TurnFacts, "gapMs">, PrefixCause> = {
  compactionBetween: "history-rewritten",
  branchSwitched: "branch-switch",
  droppedFailedTurn: "failed-turn-dropped",
  modelChanged: "model-changed",
};

function extendsPrevious(previous: SentRequest, next: SentRequest): boolean {
  if (next.messageTexts.length < previous.messageTexts.length) return false;
  return previous.messageTexts.every((text, i) => next.messageTexts[i] === text);
}

function checkSession(steps: Step[], profile: ProfileId, notes: boolean): void {
  const { text, assistants } = buildSession(steps);
  const session = readSessionText(text, "generated.jsonl");
  expect(session.warnings).toEqual([]);
  const requests = sentRequests(session, assistants, { profile, notes });
  const facts = requests.map((request, i) => (i === 0 ? {} : factsBetween(requests[i - 1]!, request)));
  const reports = analyzePrefixes(
    requests.map((request, i) => ({ ...request.input, facts: facts[i] })),
    { simulate: false },
  );
  for (let i = 1; i < requests.length; i++) {
    const previous = requests[i - 1]!;
    const next = requests[i]!;
    const between = facts[i] as TurnFacts;
    const report = reports[i]!;
    const named = (Object.keys(CAUSE_OF_FACT) as (keyof typeof CAUSE_OF_FACT)[]).filter((fact) => between[fact]).map((fact) => CAUSE_OF_FACT[fact]);
    const where = `request ${i + 1} (${next.leafId}) after ${previous.leafId}; facts ${JSON.stringify(between)}; cause ${report.cause}`;
    if (named.length === 0) {
      // Nothing lies between them: N+1 extends N, and the analyzer sees no break.
      expect(extendsPrevious(previous, next), where).toBe(true);
      expect(report.cause, where).toBeNull();
      continue;
    }
    if (extendsPrevious(previous, next) && !between.modelChanged) continue;
    // It does not extend (or the model changed): the reported reason is one of what lies between.
    expect(named, where).toContain(report.cause);
    // Each alone is named exactly.
    if (named.length === 1) expect(report.cause, where).toBe(named[0]);
    // A compaction outranks a branch switch and a dropped failed turn (PD-2 order).
    if (between.compactionBetween && !between.modelChanged) {
      expect(report.cause, where).toBe("history-rewritten");
      expect(report.causeDetail, where).toBe("compaction");
    }
  }
}

describe("issue 8: request N+1 extends request N unless something lies between them", () => {
  const sessions = fc.array(stepArb, { minLength: 2, maxLength: 14 });

  it("pi profile", () => {
    fc.assert(fc.property(sessions, (steps) => checkSession(steps, "pi", false)), { numRuns: 50 });
  });

  it("senpi profile, notes off", () => {
    fc.assert(fc.property(sessions, (steps) => checkSession(steps, "senpi", false)), { numRuns: 50 });
  });

  it("senpi profile, notes on (notes never break the prefix, RL-28)", () => {
    fc.assert(fc.property(sessions, (steps) => checkSession(steps, "senpi", true)), { numRuns: 50 });
  });

  it("each cause occurs in a fixed session and is named", () => {
    // A compaction, a failed turn whose image error rewrites an earlier image (senpi SP-C2), a
    // branch switch and a model switch, one after another.
    const steps: Step[] = [
      { kind: "prompt", text: 0, image: true },
      { kind: "tools", sizes: [10] },
      { kind: "fail", stopReason: "error", withCall: false, imageError: true },
      { kind: "prompt", text: 1, image: false },
      { kind: "compact", keep: 0 },
      { kind: "prompt", text: 2, image: false },
      { kind: "branch", back: 0, summary: true },
      { kind: "prompt", text: 3, image: false },
      { kind: "model", model: 1 },
      { kind: "prompt", text: 4, image: false },
    ];
    const { text, assistants } = buildSession(steps);
    const session = readSessionText(text, "fixed.jsonl");
    const requests = sentRequests(session, assistants, { profile: "senpi" });
    const facts = requests.map((request, i) => (i === 0 ? {} : factsBetween(requests[i - 1]!, request)));
    const reports = analyzePrefixes(requests.map((request, i) => ({ ...request.input, facts: facts[i] })), { simulate: false });
    const causes = reports.map((report) => report.cause);
    expect(causes).toContain("failed-turn-dropped");
    expect(causes).toContain("history-rewritten");
    expect(causes).toContain("branch-switch");
    expect(causes).toContain("model-changed");
    checkSession(steps, "senpi", false);
    checkSession(steps, "pi", false);

    // Without the caller's facts, the image a failed turn proved rejected (senpi SP-C2) is still
    // named from provenance: the analyzer's own fallback in causes.ts.
    const bare = analyzePrefixes(requests.map((request) => request.input), { simulate: false });
    const failedAt = facts.findIndex((f) => (f as TurnFacts).droppedFailedTurn);
    expect(failedAt).toBeGreaterThan(0);
    expect(bare[failedAt]!.cause).toBe("failed-turn-dropped");
  });
});
