// The depth guard on parsed values agrees with the text scan it replaced on the read path, and
// parseJsonCapped cuts exactly the containers past the cap.
import fc from "fast-check";
import { expect, it } from "vitest";
import { MAX_JSON_DEPTH, nestsDeeperThan, parseJsonCapped, valueNestsDeeperThan } from "../../../src/core/util/json-depth";

function nested(depth: number): string {
  return `${"[".repeat(depth)}"x"${"]".repeat(depth)}`;
}

it("agrees with the text scan on arbitrary JSON values", () => {
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: "large", maxDepth: 12 }, fc.string(), fc.integer(), fc.constant(null), fc.array(tie("node")), fc.dictionary(fc.string(), tie("node"))),
  })).node;
  fc.assert(
    fc.property(value, fc.integer({ min: 1, max: 8 }), (v, limit) => {
      const text = JSON.stringify(v);
      expect(valueNestsDeeperThan(JSON.parse(text), limit)).toBe(nestsDeeperThan(text, limit));
    }),
  );
});

it("finds a too-deep container at the cap's edge, and only past it", () => {
  expect(valueNestsDeeperThan(JSON.parse(nested(MAX_JSON_DEPTH)))).toBe(false);
  expect(valueNestsDeeperThan(JSON.parse(nested(MAX_JSON_DEPTH + 1)))).toBe(true);
  expect(valueNestsDeeperThan(JSON.parse(`{"a":[1,{"b":${nested(MAX_JSON_DEPTH)}}]}`))).toBe(true);
  // Brackets inside strings are text, not nesting.
  expect(valueNestsDeeperThan(JSON.parse(JSON.stringify({ text: "[".repeat(1000) })))).toBe(false);
});

it("parses 10,000-deep text and cuts below the cap with a note", () => {
  const capped = parseJsonCapped(`{"deep":${nested(10_000)},"keep":1}`);
  expect(capped.note).toMatch(/^1 value nested more than 128 levels deep left out$/);
  expect((capped.value as { keep: number }).keep).toBe(1);
  expect(valueNestsDeeperThan(capped.value)).toBe(false);
  expect(parseJsonCapped('{"a":[1,2,{"b":"c"}]}')).toEqual({ value: { a: [1, 2, { b: "c" }] }, note: null });
});
