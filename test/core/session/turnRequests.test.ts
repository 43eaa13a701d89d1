// The one-pass request builder (src/core/session/turnRequests.ts) against the per-turn pipeline: every
// turn's body and context must be identical, on the fixtures (pi, senpi with notes on and off,
// every wire shape, with and without a captured header) and on a synthetic session exercising
// every pipeline step. Also: the serializers' per-message caches give the same bytes as a cold
// serialization, share message objects between turns, and freeze what they share.
import { describe, expect, it } from "vitest";
import { API_IDS, type ApiId, type PipelineOptions, type RequestHeader, type Session } from "../../../src/core/model";
import { buildTurnContext, buildTurnRequest, countTurns } from "../../../src/core/session/pipeline";
import { iteratePiTurnContexts } from "../../../src/core/agents/pi/turnContexts";
import { extractRequestHeader, getSerializer } from "../../../src/core/providers";
import { resolveModel } from "../../../src/core/models/catalogue";
import { readSessionText } from "../../../src/core/session/index";
import { buildAllTurnRequests, iterateTurnRequests } from "../../../src/core/session/turnRequests";
import { assistant, assistantCall, compaction, sessionOf, toolResult, user } from "../agents/pi/sessionBuilder";
import { fixtureCase } from "../../support/fixtures";
import { sharedHeadWith } from "../../../src/core/util/list-lineage";

function fixture(dir: string): { session: Session; header: RequestHeader } {
  const recorded = fixtureCase(dir);
  const header = extractRequestHeader(JSON.parse(recorded.requestText(1)), "001.json");
  return { session: recorded.session, header };
}

function richSession(): Session {
  return sessionOf([
    { id: "m0", type: "model_change", provider: "p", modelId: "m" },
    { id: "t0", type: "thinking_level_change", thinkingLevel: "medium" },
    user("u1", "first"),
    assistantCall("a1", "c1"),
    toolResult("r1", "c1", "listing"),
    assistant("a2", "done"),
    { id: "b1", type: "message", message: { role: "bashExecution", command: "ls", output: "x", exitCode: 0, cancelled: false, truncated: false, timestamp: 4 } },
    user("u2", "second"),
    assistantCall("a3", "c2", "ask", { stopReason: "error", errorMessage: "boom" }),
    toolResult("r2", "c2", "partial"),
    assistantCall("a4", "c3", "ask"),
    toolResult("r3", "c3", "asked", { details: { userWords: [{ label: "answer", text: "yes" }] } }),
    assistant("a5", "thanks", { provider: "q", model: "n" }),
    compaction("C1", "u2", "summary one"),
    { id: "env", type: "custom_message", customType: "environment-context", content: "<environment_context>\n  <cwd>/w</cwd>\n</environment_context>", display: false },
    user("u3", "third"),
    assistant("a6", "ok"),
    { id: "e1", type: "context_edit", targetId: "r3", replacement: "[edited]" },
    user("u4", "fourth"),
    assistant("a7", "fine"),
    compaction("C2", "nothing-kept", "summary two"),
    user("u5", "after"),
    assistant("a8", "end"),
  ]);
}

/** Every turn built both ways: bodies byte-equal, contexts equal. */
function expectSameAsPerTurn(session: Session, options: PipelineOptions): number {
  const all = [...iterateTurnRequests(session, options)];
  expect(all.length).toBe(countTurns(session, options));
  for (const { turn, request } of all) {
    const single = buildTurnRequest(session, options, turn);
    expect(JSON.stringify(request.body), `turn ${turn}`).toBe(JSON.stringify(single.body));
    expect(request.api).toBe(single.api);
    expect(request.messages).toEqual(single.messages);
    expect(request.dropped).toEqual(single.dropped);
    expect(request.notRecorded).toEqual(single.notRecorded);
    expect(request.model).toEqual(single.model);
  }
  return all.length;
}

const SESSIONS: { name: string; load: () => { session: Session; header: RequestHeader | null }; profiles: PipelineOptions[] }[] = [
  { name: "pi/print-openai-autocompact", load: () => fixture("pi/print-openai-autocompact"), profiles: [{ profile: "pi" }] },
  { name: "pi/rpc-anthropic-manualcompact", load: () => fixture("pi/rpc-anthropic-manualcompact"), profiles: [{ profile: "pi" }] },
  {
    name: "senpi/print-openai-autocompact",
    load: () => fixture("senpi/print-openai-autocompact"),
    profiles: [{ profile: "senpi" }, { profile: "senpi", notes: true }],
  },
  { name: "synthetic rich session", load: () => ({ session: richSession(), header: null }), profiles: [{ profile: "pi" }, { profile: "senpi" }] },
];

describe("iterateTurnRequests equals buildTurnRequest turn by turn", () => {
  for (const { name, load, profiles } of SESSIONS) {
    for (const base of profiles) {
      it(`${name} (${base.profile}${base.notes ? ", notes" : ""}), every wire shape, with and without header`, () => {
        const { session, header } = load();
        let turns = 0;
        for (const api of [null, ...API_IDS] as (ApiId | null)[]) {
          turns += expectSameAsPerTurn(session, { ...base, api });
          if (header) turns += expectSameAsPerTurn(session, { ...base, api, header });
        }
        expect(turns).toBeGreaterThan(0);
      });
    }
  }

  it("iteratePiTurnContexts equals buildTurnContext, path ids and warnings included", () => {
    for (const { load, profiles } of SESSIONS) {
      const { session } = load();
      for (const options of profiles) {
        const contexts = [...iteratePiTurnContexts(session, options)];
        expect(contexts.length).toBe(countTurns(session, options));
        for (const context of contexts) expect(context).toEqual(buildTurnContext(session, options, context.turn));
      }
    }
  });

  it("an empty session yields nothing", () => {
    const session = readSessionText("", "empty.jsonl");
    expect(buildAllTurnRequests(session, { profile: "pi" })).toEqual([]);
  });
});

describe("serializer caches", () => {
  it("a warm serialization equals a cold one (fresh message objects) for every turn and shape", () => {
    const { session, header } = fixture("pi/print-openai-autocompact");
    for (const api of API_IDS) {
      for (const { request } of iterateTurnRequests(session, { profile: "pi", api, header })) {
        const messages = request.messages.map((item) => item.message);
        const model = resolveModel({ provider: request.model.provider, modelId: request.model.id }, api);
        const input = { model, header, thinkingLevel: "off" };
        const warm = getSerializer(api).serialize({ ...input, messages });
        const cold = getSerializer(api).serialize({ ...input, messages: structuredClone(messages) });
        expect(JSON.stringify(warm.body)).toBe(JSON.stringify(cold.body));
      }
    }
  });

  it("turn N+1 reuses turn N's wire messages and the shared ones are frozen", () => {
    const { session, header } = fixture("pi/rpc-anthropic-manualcompact");
    const requests = buildAllTurnRequests(session, { profile: "pi", header });
    const [first, second] = [requests[0]!, requests[1]!];
    const a = first.body.messages as object[];
    const b = second.body.messages as object[];
    // All but the last message (which carries the moved cache_control on a copy) are the same objects.
    for (let i = 0; i < a.length - 1; i++) expect(b[i]).toBe(a[i]);
    expect(Object.isFrozen(b[0])).toBe(true);
    expect(() => {
      (b[0] as { role: string }).role = "changed";
    }).toThrow(TypeError);
    // The final user message of turn 1 carried cache_control on a copy; turn 2's copy of it does not.
    const last = a[a.length - 1] as { content: { cache_control?: unknown }[] };
    expect(last.content[last.content.length - 1]!.cache_control).toBeDefined();
    const same = b[a.length - 1] as { content: { cache_control?: unknown }[] };
    expect(same.content[same.content.length - 1]!.cache_control).toBeUndefined();
  });

  it("each turn's context and wire list name the head they share with the previous turn's", () => {
    const sameHead = (a: readonly unknown[], b: readonly unknown[]) => {
      let same = 0;
      while (same < Math.min(a.length, b.length) && a[same] === b[same]) same++;
      return same;
    };
    const sessions = [richSession(), fixture("pi/rpc-anthropic-manualcompact").session, fixture("pi/print-openai-autocompact").session];
    for (const session of sessions) {
      for (const api of ["anthropic-messages", "openai-completions", "openai-responses"] as const) {
        const requests = buildAllTurnRequests(session, { profile: "pi", api });
        let recordedWire = 0;
        for (let k = 1; k < requests.length; k++) {
          const [before, after] = [requests[k - 1]!, requests[k]!];
          // The context list: exactly what it shares (nothing shared is not recorded).
          expect(sharedHeadWith(after.messages, before.messages) ?? 0, `${api} turn ${k + 1}`).toBe(sameHead(after.messages, before.messages));
          const wire = (request: typeof after) => (request.body.messages ?? request.body.input) as unknown[];
          const known = sharedHeadWith(wire(after), wire(before));
          expect(known ?? 0, `${api} turn ${k + 1}`).toBe(sameHead(wire(after), wire(before)));
          if (known !== undefined) recordedWire++;
        }
        expect(recordedWire, `${api} ${requests.length} turns`).toBeGreaterThan(0);
      }
    }
  });
});

describe("a walk whose reader keeps no request past the next turn (reuseRequestLists)", () => {
  const sameHead = (a: readonly unknown[], b: readonly unknown[]) => {
    let same = 0;
    while (same < Math.min(a.length, b.length) && a[same] === b[same]) same++;
    return same;
  };
  const wireOf = (body: Record<string, unknown>) => (body.messages ?? body.input ?? body.contents) as unknown[];

  /**
   * Walks with the two alternating lists and checks, at each step: the request equals the per-turn
   * build; its lists are not the previous turn's arrays; the previous request still reads as it
   * did (its lists are left alone for one more turn); the recorded shared heads are exact.
   */
  function expectReusedWalkSameAsPerTurn(session: Session, options: PipelineOptions): number {
    let previous: { messages: readonly unknown[]; wire: unknown[]; json: string; items: unknown[] } | null = null;
    // Read during the walk, compared after it: a one-turn build in between would start the lists over.
    const seen: { turn: number; body: string; messages: unknown[] }[] = [];
    for (const { turn, request } of iterateTurnRequests(session, options, { reuseRequestLists: true })) {
      seen.push({ turn, body: JSON.stringify(request.body), messages: [...request.messages] });
      const wire = wireOf(request.body);
      if (previous) {
        expect(JSON.stringify({ messages: previous.messages, wire: previous.wire }), `turn ${turn - 1} kept`).toBe(previous.json);
        expect(previous.items).toEqual([...previous.messages]);
        if (options.profile !== "senpi") expect(request.messages).not.toBe(previous.messages);
        expect(wire).not.toBe(previous.wire);
        const recorded = sharedHeadWith(request.messages, previous.messages);
        if (recorded !== undefined) expect(recorded, `turn ${turn} context head`).toBe(sameHead(request.messages, previous.messages));
        const recordedWire = sharedHeadWith(wire, previous.wire);
        if (recordedWire !== undefined) expect(recordedWire, `turn ${turn} wire head`).toBe(sameHead(wire, previous.wire));
      }
      previous = { messages: request.messages, wire, json: JSON.stringify({ messages: request.messages, wire }), items: [...request.messages] };
    }
    expect(seen.length).toBe(countTurns(session, options));
    for (const { turn, body, messages } of seen) {
      const single = buildTurnRequest(session, options, turn);
      expect(body, `turn ${turn}`).toBe(JSON.stringify(single.body));
      expect(messages).toEqual(single.messages);
    }
    return seen.length;
  }

  for (const { name, load, profiles } of SESSIONS) {
    for (const base of profiles) {
      it(`${name} (${base.profile}${base.notes ? ", notes" : ""}): every wire shape, with and without header`, () => {
        const { session, header } = load();
        let turns = 0;
        for (const api of [null, ...API_IDS] as (ApiId | null)[]) {
          turns += expectReusedWalkSameAsPerTurn(session, { ...base, api });
          if (header) turns += expectReusedWalkSameAsPerTurn(session, { ...base, api, header });
        }
        expect(turns).toBeGreaterThan(0);
      });
    }
  }

  it("hands out two lists in turn, and a plain walk or another walk in between does not change what either reads", () => {
    const { session, header } = fixture("pi/rpc-anthropic-manualcompact");
    const options: PipelineOptions = { profile: "pi", header };
    const expected = buildAllTurnRequests(session, options).map((request) => JSON.stringify(request.body));
    expect(expected.length).toBeGreaterThan(3);
    const first = iterateTurnRequests(session, options, { reuseRequestLists: true })[Symbol.iterator]();
    const second = iterateTurnRequests(session, options, { reuseRequestLists: true })[Symbol.iterator]();
    const lists: unknown[] = [];
    for (let k = 0; k < expected.length; k++) {
      const a = first.next().value!;
      // A plain one-turn build and a second walk at another turn, between two steps of the first.
      expect(JSON.stringify(buildTurnRequest(session, options, expected.length - k).body)).toBe(expected[expected.length - k - 1]);
      const b = second.next().value!;
      expect(JSON.stringify(a.request.body), `first walk, turn ${k + 1}`).toBe(expected[k]);
      expect(JSON.stringify(b.request.body), `second walk, turn ${k + 1}`).toBe(expected[k]);
      lists.push(a.request.messages);
    }
    // Within one walk not interrupted, turn k+2 is handed the list of turn k again.
    const alone = [...(function* () {
      for (const { request } of iterateTurnRequests(session, options, { reuseRequestLists: true })) yield [request.messages, request.body.messages];
    })()];
    expect(alone[2]![0]).toBe(alone[0]![0]);
    expect(alone[2]![1]).toBe(alone[0]![1]);
    expect(alone[1]![0]).not.toBe(alone[0]![0]);
    expect(new Set(lists).size).toBeGreaterThan(1);
  });
});
