// deepseek-harness requests share their surface list while it only grows: each node's context
// messages and entry id are taken once per list and carried from request to request
// (pipeline.ts surfaceCarry), not derived again for every request. Every request must still be
// the one built on its own, in any order of turns, and the session's entries are read a number
// of times that grows with the entries, not with requests × context. The one walk of every request
// (walk.ts) gives each request as built on its own, its lists handed out in turn or copied.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateAgentSession } from "../../../../bench/generate-agent-session";
import type { Session } from "../../../../src/core/model";
import { readSessionText } from "../../../../src/core/session/index";
import { analyzeSession, buildTurnContext, buildTurnRequest, countTurns } from "../../../../src/core/session/pipeline";
import { iterateTurnRequests } from "../../../../src/core/session/turnRequests";
import { sharedHeadWith } from "../../../../src/core/util/list-lineage";
import { llmMessageChars } from "../../../../src/core/agents/pi/convert";
import { harnessIndex } from "../../../../src/core/agents/deepseek-harness/sessionIndex";

const generated = () => {
  const session = generateAgentSession("deepseek-harness", { minBytes: 512 * 1024, seed: 3, callsPerCompaction: 12 });
  return { name: path.basename(session.file), text: readFileSync(session.file, "utf8") };
};

const requestOf = (session: Session, turn: number) => {
  const context = buildTurnContext(session, {}, turn);
  return JSON.stringify([buildTurnRequest(session, {}, turn).body, context.messages, context.pathEntryIds, context.compactionId]);
};

describe("deepseek-harness surface carried from request to request", () => {
  it("builds every request as it is built alone, walked forwards, backwards and jumping", () => {
    const chat = generated();
    const open = () => readSessionText(chat.text, chat.name)!;
    const turns = countTurns(open(), {});
    expect(turns).toBeGreaterThan(20);
    const alone = Array.from({ length: turns }, (_, i) => requestOf(open(), i + 1));
    const forwards = open();
    const backwards = open();
    const jumping = open();
    for (let turn = 1; turn <= turns; turn++) expect(requestOf(forwards, turn), `turn ${turn}`).toBe(alone[turn - 1]);
    for (let turn = turns; turn >= 1; turn--) expect(requestOf(backwards, turn), `turn ${turn}`).toBe(alone[turn - 1]);
    for (let i = 0; i < turns; i++) {
      const turn = ((i * 7) % turns) + 1;
      expect(requestOf(jumping, turn), `turn ${turn}`).toBe(alone[turn - 1]);
    }
  });

  it("reads each entry a bounded number of times, however many requests share it", () => {
    const chat = generated();
    const session = readSessionText(chat.text, chat.name)!;
    let reads = 0;
    const entries = new Proxy(session.entries, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const counted: Session = { ...session, entries };
    const turns = countTurns(counted, {});
    // Context messages per request, summed: what a per-request derivation reads at least.
    let context = 0;
    for (let turn = 1; turn <= turns; turn++) context += buildTurnContext(counted, {}, turn).messages.length;
    expect(context).toBeGreaterThan(4 * session.entries.length);
    // The index's one pass over the entries, and a few reads per request (its header, answer,
    // usage); the code before read each node twice per request (11,436 reads here, against 1,392).
    expect(reads).toBeLessThan(session.entries.length + 10 * turns);
  });

  it("walks every request as it is built alone, with its lists handed out in turn or copied", () => {
    const chat = generated();
    const open = () => readSessionText(chat.text, chat.name)!;
    const alone = open();
    const turns = countTurns(alone, {});
    const expected = Array.from({ length: turns }, (_, i) => {
      const request = buildTurnRequest(alone, {}, i + 1);
      return JSON.stringify([request.body, request.messages, request.model, request.notRecorded]);
    });
    for (const reuseRequestLists of [false, true]) {
      const session = open();
      let turn = 0;
      // The lists handed out (a reused one changes two turns on) and their items as they were.
      let previous: { body: unknown[]; bodyItems: unknown[]; messages: unknown[] } | null = null;
      let recorded = 0;
      for (const item of iterateTurnRequests(session, {}, { reuseRequestLists })) {
        turn++;
        const { request } = item;
        expect(item.turn).toBe(turn);
        // Read at once: a list handed out in turn is brought to a later request two turns on.
        expect(JSON.stringify([request.body, request.messages, request.model, request.notRecorded]), `turn ${turn} (reuse ${reuseRequestLists})`).toBe(expected[turn - 1]);
        const body = request.body.messages as unknown[];
        if (previous) {
          expect(body).not.toBe(previous.body);
          expect(request.messages).not.toBe(previous.messages);
          // What the wire list says it shares with the request before is what it shares.
          const shared = sharedHeadWith(body, previous.body);
          if (shared !== undefined) {
            recorded++;
            for (let i = 0; i < shared; i++) expect(body[i]).toBe(previous.bodyItems[i]);
          }
        }
        previous = { body, bodyItems: body.slice(), messages: request.messages };
      }
      expect(turn).toBe(turns);
      expect(recorded).toBeGreaterThan(turns / 2);
    }
  });

  it("analyses each request's message count and characters as its context holds them", () => {
    const chat = generated();
    const session = readSessionText(chat.text, chat.name)!;
    const analysis = analyzeSession(session, {});
    expect(analysis.turns.length).toBe(countTurns(session, {}));
    for (const summary of analysis.turns) {
      const messages = buildTurnContext(session, {}, summary.turn).messages;
      const chars = messages.reduce((sum, item) => sum + llmMessageChars(item.message), 0);
      expect([summary.messageCount, summary.chars, summary.estimatedTokens], `turn ${summary.turn}`).toEqual([messages.length, chars, Math.ceil(chars / 4)]);
    }
  });

  it("names as each request's compaction the newest one whose checkpoint is among its nodes", () => {
    const session = generateAgentSession("deepseek-harness", { minBytes: 512 * 1024, seed: 5, callsPerCompaction: 4 });
    const chat = readSessionText(readFileSync(session.file, "utf8"), path.basename(session.file))!;
    const index = harnessIndex(chat);
    const orders = new Map<number, number>();
    index.compactions.forEach((record, order) => {
      if (record.checkpoint !== null) orders.set(record.checkpoint, order);
    });
    expect(orders.size).toBeGreaterThan(1);
    let named = 0;
    for (const request of index.requests) {
      // Every node of the request's context, looked up on its own.
      let newest = -1;
      for (const node of request.surface.slice(0, request.surfaceLength)) newest = Math.max(newest, orders.get(node) ?? -1);
      const expected = newest < 0 ? null : chat.entries[index.compactions[newest]!.checkpoint!]!.id;
      if (expected !== null) named++;
      expect(buildTurnContext(chat, {}, request.turn).compactionId, `request ${request.turn}`).toBe(expected);
    }
    expect(named).toBeGreaterThan(index.requests.length / 2);
  });
});
