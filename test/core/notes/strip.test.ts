// RL-2 strip steps and the RL-4 linear bound of the tag pass (asserted on the visit counter).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isLogLine, resolveOptions, stripForReading, stripTaggedBlocks } from "../../../src/core/notes";

const O = resolveOptions();

describe("tag strip (RL-2 step 3)", () => {
  it("removes a well-formed pair with attributes", () => {
    expect(stripTaggedBlocks('a <ctx kind="x">inner</ctx> b').text).toBe("a  b");
  });
  it("keeps unclosed and mismatched tags as text", () => {
    expect(stripTaggedBlocks("a <ctx> b").text).toBe("a <ctx> b");
    expect(stripTaggedBlocks("a <x>inner</y> b").text).toBe("a <x>inner</y> b");
  });
  it("keeps generics as text", () => {
    const t = "Map<string, Array<Foo>> and List<T>";
    expect(stripTaggedBlocks(t).text).toBe(t);
  });
  it("matches an opening tag with the next closing tag of its name", () => {
    expect(stripTaggedBlocks("<a>1</a>2<a>3</a>").text).toBe("2");
    expect(stripTaggedBlocks("<a><a></a></a>x").text).toBe("</a>x");
    expect(stripTaggedBlocks("</a><a>1</a>").text).toBe("</a>");
  });
  it("an opening tag inside a removed block is not reused", () => {
    expect(stripTaggedBlocks("<a><b></a>x</b>").text).toBe("x</b>");
  });
  it("tag names follow [A-Za-z][A-Za-z0-9_-]*", () => {
    expect(stripTaggedBlocks("<environment_context>x</environment_context>y").text).toBe("y");
    expect(stripTaggedBlocks("<1a>x</1a>y").text).toBe("<1a>x</1a>y");
    expect(stripTaggedBlocks("<a-b_1>x</a-b_1>y").text).toBe("y");
  });
  it("spans lines", () => {
    expect(stripTaggedBlocks("<a>\nx\n</a>\ny").text).toBe("\ny");
  });
});

describe("RL-4: the tag pass visits at most 3 × length characters", () => {
  const n = 100_000;
  const adversarial: [string, string][] = [
    ["generics paste", "Map<string, Array<Record<K, V>>> ".repeat(Math.ceil(n / 33))],
    ["10 000 unclosed `<a` tags", "<a".repeat(10_000) + "x".repeat(n - 20_000)],
    ["unclosed `<a` tags to the end", "<a".repeat(n / 2)],
    ["one 100 KB tag name", "<" + "a".repeat(n)],
    ["one 100 KB tag name, closed", "<" + "a".repeat(n) + ">"],
    ["opening tags with attributes never closed", "<a b ".repeat(n / 5)],
    ["attribute runs cut by `<`", "<a bbbbbbbbbb<".repeat(n / 14)],
    ["closing tags only", "</a>".repeat(n / 4)],
    ["nested same-name pairs", "<a>".repeat(n / 7) + "</a>".repeat(n / 7)],
    ["many small blocks", "<a>x</a>y".repeat(n / 9)],
    ["`</` without names", "</".repeat(n / 2)],
  ];
  it.each(adversarial)("%s", (_label, text) => {
    expect(text.length).toBeGreaterThanOrEqual(n - 40);
    const r = stripTaggedBlocks(text);
    expect(r.visited).toBeGreaterThan(0);
    expect(r.visited).toBeLessThanOrEqual(3 * text.length);
  });
  it("holds for random strings over the tag alphabet", () => {
    const alphabet = fc.constantFrom("<", "/", ">", "a", "b", " ", "x", "\n", "=", '"');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 400 }), (chars) => {
        const text = chars.join("");
        const r = stripTaggedBlocks(text);
        expect(r.visited).toBeLessThanOrEqual(3 * text.length);
        // Removing blocks never adds text.
        expect(r.text.length).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 500 },
    );
  });
  it("the counter is exposed through stripForReading", () => {
    const text = "<a".repeat(50_000);
    expect(stripForReading(text, O).tagPassVisited).toBeLessThanOrEqual(3 * text.length);
    expect(stripForReading(text, O).tagPassVisited).toBeGreaterThanOrEqual(text.length);
  });
  it("stripForReading over 120 KB of adversarial text stays fast (linear steps)", () => {
    const text = ("[[[[(((https:// \"\"\"`` <a " + "a".repeat(50)).repeat(1600);
    const t0 = Date.now();
    stripForReading(text, O);
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});

describe("other strip steps", () => {
  it("fenced code up to the matching fence or the end", () => {
    expect(stripForReading("a\n```\nb\n```\nc", O).text).toBe("a\nc");
    expect(stripForReading("a\n~~~~\nb\n~~~\nc", O).text).toBe("a");
    expect(stripForReading("a\n```\nb", O).text).toBe("a");
  });
  it("inline code on one line only", () => {
    expect(stripForReading("a `b` c `d", O).text).toBe("a  c `d");
  });
  it("URLs and link targets", () => {
    expect(stripForReading("see https://x.y/z?q=1 now", O).text).toBe("see  now");
    expect(stripForReading("see [the docs](https://x.y/z) now", O).text).toBe("see [the docs] now");
  });
  it("quoted lines and spans; ASCII ' is not a delimiter", () => {
    expect(stripForReading("> quoted\nkept", O).text).toBe("\nkept");
    expect(stripForReading("a «b» c 「d」 e ‘f’ g", O).text).toBe("a  c  e  g");
    expect(stripForReading("don't 'x' stop", O).text).toBe("don't 'x' stop");
  });
  it.each([
    ["2024-05-01 12:00 started", true],
    ["2024-05-01T12:00:00Z started", true],
    ["[12:30] x", true],
    ["[12:30:01] x", true],
    ["ERROR: x", true],
    ["warning: x", true],
    ["[WARN] x", true],
    ["error[E0308]: mismatched types", true],
    ["INFO - started", true],
    ["Info about this", false],
    ["Debug this please", false],
    ["    at Object.<anonymous> (/x/y.js:1:2)", true],
    ["at com.foo.Bar.method(Bar.java:10)", true],
    ["at /path/file.js:1:2", true],
    ["at least I tried", false],
    ['  File "x.py", line 3, in <module>', true],
    ["Traceback (most recent call last):", true],
    ["Error: boom", true],
    ["panic: runtime error", true],
    ["TypeError: x is undefined", true],
    ["java.lang.NullPointerException: null", true],
    ["$ npm test", true],
    ["src/app.ts:12:5: error", true],
    ["C:\\x\\y.ts:1:2 error", true],
    ["This is prose", false],
  ])("log line %j → %s", (line, expected) => {
    expect(isLogLine(line, O)).toBe(expected);
  });
});
