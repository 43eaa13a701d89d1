// sameJsonValue says what comparing canonical JSON renderings says, texts kept as bytes included.
import { describe, expect, it } from "vitest";
import { sameJsonValue } from "../../../src/core/text/sameJsonValue";
import { canonicalJson } from "../../../src/core/util/canonical-json";
import { parseLineKeepingLargeTexts } from "../../../src/core/text/largeLiterals";
import { createTextStore } from "../../../src/core/text/storedText";

const long = (word: string) => word.repeat(2000);

describe("sameJsonValue", () => {
  const values: unknown[] = [
    null,
    undefined,
    0,
    1,
    "a",
    "b",
    [],
    [1, 2],
    [2, 1],
    { a: 1, b: [true, null] },
    { b: [true, null], a: 1 },
    { a: 1, b: [true, false] },
    { a: 1 },
    { a: 1, c: undefined },
    { role: "user", content: [{ type: "text", text: long("x") }] },
    { role: "user", content: [{ type: "text", text: long("y") }] },
  ];
  it("agrees with canonical JSON on every pair", () => {
    for (const a of values) for (const b of values) expect(sameJsonValue(a, b), `${canonicalJson(a)} / ${canonicalJson(b)}`).toBe(canonicalJson(a) === canonicalJson(b));
  });

  it("compares texts kept as bytes with each other and with strings", () => {
    const store = createTextStore();
    const read = (value: unknown) => {
      const bytes = new TextEncoder().encode(JSON.stringify(value));
      return parseLineKeepingLargeTexts(bytes, 0, bytes.length, store);
    };
    const x = { message: { content: [{ type: "text", text: long("x") }] } };
    const first = read(x) as { message: unknown };
    const again = read(x) as { message: unknown };
    const other = read({ message: { content: [{ type: "text", text: long("y") }] } }) as { message: unknown };
    const escaped = read({ message: { content: [{ type: "text", text: long("x").slice(1) + "\u00e9" }] } }) as { message: unknown };
    expect(typeof (first.message as { content: { text: unknown }[] }).content[0]!.text).toBe("object");
    expect(sameJsonValue(first.message, again.message)).toBe(true);
    expect(sameJsonValue(first.message, x.message)).toBe(true);
    expect(sameJsonValue(first.message, other.message)).toBe(false);
    expect(sameJsonValue(first.message, escaped.message)).toBe(false);
  });
});
