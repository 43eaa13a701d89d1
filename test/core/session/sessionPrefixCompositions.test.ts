// The one-walk prefix reports and compositions (src/core/session/sessionPrefixCompositions.ts)
// equal the two walks they replace: the prefix reports of iterateSessionPrefixes and the
// compositions of iterateSessionCompositions, turn by turn, on sessions with compactions (the
// carried sums start over) and with every tokenizer choice; and the carried sums equal a fresh
// tokenComposition when a turn rewrites a message in the middle of the history.
import { describe, expect, it } from "vitest";
import type { BuiltRequest, ContextMessage, PipelineOptions } from "../../../src/core/model";
import { iterateSessionCompositions } from "../../../src/core/session/sessionComposition";
import { iterateSessionPrefixCompositions } from "../../../src/core/session/sessionPrefixCompositions";
import { iterateSessionPrefixes, iterateSessionPrefixesWithRequests } from "../../../src/core/session/sessionPrefixes";
import { tokenComposition } from "../../../src/core/prefix/composition";
import { CompositionCarry } from "../../../src/core/prefix/composition-sums";
import { segmentRequest } from "../../../src/core/prefix/segment-request";
import { counterForApi, type TokenizerChoice } from "../../../src/core/tokens/counters";
import { fixtureCase } from "../../support/fixtures";

const CASES: { dir: string; options: PipelineOptions }[] = [
  { dir: "pi/print-openai-autocompact", options: { profile: "pi" } },
  { dir: "pi/rpc-anthropic-manualcompact", options: { profile: "pi" } },
  { dir: "senpi/print-openai-autocompact", options: { profile: "senpi" } },
];
const TOKENIZERS: TokenizerChoice[] = ["estimate", "auto", "o200k"];

describe("iterateSessionPrefixCompositions", () => {
  for (const tokenizer of TOKENIZERS) {
    it.each(CASES)(`$dir (${tokenizer}): the two walks' reports and compositions`, ({ dir, options }) => {
      const session = fixtureCase(dir).session;
      const oneWalk = [...iterateSessionPrefixCompositions(session, options, { tokenizer })];
      const reports = [...iterateSessionPrefixes(session, options, { prefix: { tokenizer } })];
      const compositions = [...iterateSessionCompositions(session, options, { tokenizer })];
      expect(oneWalk.length).toBeGreaterThan(2);
      expect(oneWalk.map((row) => row.report)).toEqual(reports);
      expect(oneWalk.map((row) => row.composition)).toEqual(compositions);
    });
  }
});

describe("CompositionCarry", () => {
  it("equals a fresh composition when a turn changes, drops or adds messages anywhere", () => {
    const { dir, options } = CASES[0]!;
    const session = fixtureCase(dir).session;
    const requests: BuiltRequest[] = [];
    for (const { request } of iterateSessionPrefixesWithRequests(session, options, { prefix: { tokenizer: "estimate" } })) requests.push(request);
    const last = requests[requests.length - 1]!;
    expect(last.messages.length).toBeGreaterThan(3);
    const replaced = (item: ContextMessage): ContextMessage => ({ ...item, message: { ...item.message } as ContextMessage["message"] });
    const middle = Math.floor(last.messages.length / 2);
    const variants: BuiltRequest[] = [
      last,
      { ...last, messages: last.messages.map((item, i) => (i === middle ? replaced(item) : item)) },
      { ...last, messages: last.messages.slice(0, middle) },
      { ...last, messages: [...last.messages.slice(0, middle), ...last.messages.slice(middle + 1)] },
      { ...last, messages: [replaced(last.messages[0]!), ...last.messages] },
      last,
    ];
    const carry = new CompositionCarry();
    for (const request of variants) {
      const fresh = tokenComposition(request, { tokenizer: "estimate" });
      const carried = carry.next(segmentRequest(request.api, request.body, { tokenizer: "estimate" }), request.messages, counterForApi(request.api, { tokenizer: "estimate" }));
      expect(carried.total).toBe(fresh.total);
      expect(carried.byKind).toEqual(Object.fromEntries(fresh.rows.map((row) => [row.kind, row.tokens])));
    }
  });
});
