// Lines parsed with their large texts kept as bytes give back exactly what JSON.parse gives once
// each stored text is decoded, with the facts measured on the bytes (UTF-16 length, well-formed,
// JSON.stringify's own rendering) equal to those of the decoded string.
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { hashJsonRendering } from "../../../src/core/prefix/hash";
import { LARGE_TEXT_BYTES, parseLineKeepingLargeTexts, storedTextKeys } from "../../../src/core/text/largeLiterals";
import { measureLiteral } from "../../../src/core/text/measureLiteral";
import { describeShared } from "../../support/fixtures";
import { adoptTextStore, createTextStore, decodeStoredText, isStoredText, releaseTextStore, storedTextBytes, trimTextStore, type StoredText } from "../../../src/core/text/storedText";

const encoder = new TextEncoder();

/** No lone surrogate (String.prototype.isWellFormed, which the project's ES2022 lib does not type). */
function isWellFormed(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/** The parsed value with every stored text decoded back into a string. */
function decodeAll(value: unknown): unknown {
  if (isStoredText(value)) return decodeStoredText(value);
  if (Array.isArray(value)) return value.map((item) => decodeAll(item));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, decodeAll(item)]));
  return value;
}

function storedTexts(value: unknown, found: unknown[] = []): unknown[] {
  if (isStoredText(value)) found.push(value);
  else if (typeof value === "object" && value !== null) for (const item of Object.values(value)) storedTexts(item, found);
  return found;
}

function parse(line: string, store = createTextStore(4096)) {
  const bytes = encoder.encode(line);
  return { value: parseLineKeepingLargeTexts(bytes, 0, bytes.length, store), store };
}

// Texts long enough to be stored, mixing ASCII, escapes, Korean, emoji (pairs) and lone surrogates.
const piece = fc.constantFrom("a", "quote \" and \\ backslash", "\n", "\t", "\u0001", "한국어 ", "✓", "😀", "/", "\ud800", "\udc00", "x".repeat(300));
const longText = fc.array(piece, { minLength: 20, maxLength: 200 }).map((parts) => parts.join("").padEnd(LARGE_TEXT_BYTES + 1, "z"));
const shortText = fc.string({ maxLength: 40, unit: "binary" });
const record = fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(longText, shortText, fc.integer(), fc.array(fc.oneof(longText, shortText), { maxLength: 3 })), { maxKeys: 6 });

describe("parseLineKeepingLargeTexts", () => {
  it("gives what JSON.parse gives, once the stored texts are decoded", () => {
    fc.assert(
      fc.property(record, (value) => {
        const line = JSON.stringify(value);
        const parsed = parse(line);
        expect(decodeAll(parsed.value)).toEqual(JSON.parse(line));
      }),
      { numRuns: 200 },
    );
  });

  it("stores every large string value, and measures it as the decoded string", () => {
    fc.assert(
      fc.property(longText, (text) => {
        const { value, store } = parse(JSON.stringify({ content: [{ type: "text", text }] }));
        const [stored] = storedTexts(value);
        expect(isStoredText(stored)).toBe(true);
        if (!isStoredText(stored)) return;
        expect(decodeStoredText(stored)).toBe(text);
        expect(stored.units).toBe(text.length);
        expect(stored.wellFormed).toBe(isWellFormed(text));
        // JSON.stringify's own bytes are canonical, and then equal its rendering.
        expect(stored.canonical).toBe(true);
        expect(new TextDecoder().decode(storedTextBytes(stored))).toBe(JSON.stringify(text).slice(1, -1));
      }),
      { numRuns: 200 },
    );
  });

  it("keeps small strings and object keys as strings", () => {
    const longKey = "k".repeat(LARGE_TEXT_BYTES + 10);
    const { value } = parse(JSON.stringify({ [longKey]: 1, small: "s", list: ["t"] }));
    expect(value).toEqual({ [longKey]: 1, small: "s", list: ["t"] });
  });

  it("finds literals after escaped quotes and backslashes", () => {
    const text = `${"\\\"".repeat(600)}\\`;
    const { value, store } = parse(JSON.stringify({ a: text, b: "after" }));
    const stored = (value as { a: unknown }).a;
    expect(isStoredText(stored) && decodeStoredText(stored)).toBe(text);
    expect((value as { b: unknown }).b).toBe("after");
  });

  it("tells other escapes apart: they decode right, and are not JSON.stringify's rendering", () => {
    const body = "x".repeat(LARGE_TEXT_BYTES);
    for (const escaped of ["\\/", "\\u00e9", "\\u000A", "\\ud83d\\ude00"]) {
      const { value, store } = parse(`{"a":"${body}${escaped}"}`);
      const stored = (value as { a: unknown }).a;
      expect(isStoredText(stored)).toBe(true);
      if (!isStoredText(stored)) continue;
      const decoded = JSON.parse(`"${body}${escaped}"`) as string;
      expect(decodeStoredText(stored)).toBe(decoded);
      expect(stored.units).toBe(decoded.length);
      expect(stored.canonical).toBe(false);
    }
    // A lone surrogate escape is what JSON.stringify writes, and not well formed.
    const lone = parse(`{"a":"${body}\\udc00"}`).value as { a: { canonical: boolean; wellFormed: boolean } };
    expect(lone.a).toMatchObject({ canonical: true, wellFormed: false });
  });

  it("parses a line as JSON.parse would when a large literal is not JSON (and says why, as JSON.parse does)", () => {
    const body = "x".repeat(LARGE_TEXT_BYTES);
    for (const line of [`{"a":"${body}\\x"}`, `{"a":"${body}\u0001"}`, `{"a":"${body}"`, `{"a":"${body}"} trailing`]) {
      let expected = "";
      try {
        JSON.parse(line);
      } catch (error) {
        expected = (error as Error).message;
      }
      const store = createTextStore(4096);
      expect(() => parse(line, store)).toThrow(expected);
      expect(store.used).toBe(0);
    }
  });

  it("never takes a text for a placeholder", () => {
    const body = "x".repeat(LARGE_TEXT_BYTES);
    const line = JSON.stringify({ a: body, b: "\u0000stored-text:0", c: "\u0000stored-text:1" });
    const { value } = parse(line);
    expect(value).toEqual(JSON.parse(line));
  });

  it("crosses a worker boundary: the store and the references survive a structured clone, and read once the store is adopted", () => {
    const text = "한국어 ".repeat(500);
    const { value, store } = parse(JSON.stringify({ a: text }));
    const copy = structuredClone({ value, store });
    // As in another realm: only the clone is there, and it reads once adopted.
    releaseTextStore(store);
    const stored = (copy.value as { a: unknown }).a;
    expect(isStoredText(stored)).toBe(true);
    if (!isStoredText(stored)) return;
    expect(() => decodeStoredText(stored)).toThrow(/not known here/);
    adoptTextStore(copy.store);
    expect(decodeStoredText(stored)).toBe(text);
    releaseTextStore(copy.store);
  });

  it("with the keys a reader keeps stored, stores only their values: others, and array items, are parsed as strings", () => {
    const keys = storedTextKeys(["text", "output"]);
    const long = (mark: string) => `${mark} ${"x\"y\\z ".repeat(LARGE_TEXT_BYTES / 4)}`;
    const value = {
      text: long("text"),
      args: { command: long("command"), output: long("output") },
      items: [long("item")],
      "a\"text": long("escaped key"),
      spaced: long("spaced"),
    };
    for (const line of [JSON.stringify(value), JSON.stringify(value, null, 1)]) {
      const bytes = encoder.encode(line);
      const parsed = parseLineKeepingLargeTexts(bytes, 0, bytes.length, createTextStore(4096), undefined, undefined, keys) as typeof value;
      expect(decodeAll(parsed)).toEqual(JSON.parse(line));
      expect(storedTexts(parsed).map((text) => decodeStoredText(text as StoredText).split(" ")[0])).toEqual(["text", "output"]);
      expect(typeof parsed.args.command).toBe("string");
    }
    // Without keys, every large value is stored.
    expect(storedTexts(parse(JSON.stringify(value)).value)).toHaveLength(6);
  });

  it("fills the store chunk after chunk, each twice the last, and gives back the unused room", () => {
    const store = createTextStore(8192);
    const texts = Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(3000, "y"));
    const values = texts.map((text) => parse(JSON.stringify({ text }), store).value as { text: unknown });
    expect(store.chunks.length).toBeGreaterThan(1);
    values.forEach((value, i) => expect(isStoredText(value.text) && decodeStoredText(value.text)).toBe(texts[i]));
    // Trimmed once read: the last chunk holds what it uses, every text still reads, and more can come.
    trimTextStore(store);
    expect(store.chunks.at(-1)!.length).toBe(store.used);
    values.forEach((value, i) => expect(isStoredText(value.text) && decodeStoredText(value.text)).toBe(texts[i]));
    const later = parse(JSON.stringify({ text: "z".repeat(5000) }), store).value as { text: unknown };
    expect(isStoredText(later.text) && decodeStoredText(later.text)).toBe("z".repeat(5000));
  });
});

describeShared("stored texts of real sessions (../shared/fixtures/realworld)", (shared) => {
  const files = ["claude-code", "codex", "pi"].flatMap((agent) =>
    readdirSync(shared.path(`realworld/${agent}`))
      .filter((name) => name.endsWith(".jsonl"))
      .map((name) => `realworld/${agent}/${name}`),
  );

  it.each(files)("%s: every line as JSON.parse reads it, every stored text measured as its decoded string", (relative) => {
    const file = readFileSync(shared.path(relative));
    const store = createTextStore();
    let checked = 0;
    let start = 0;
    for (let newline = file.indexOf(10); newline !== -1; newline = file.indexOf(10, start)) {
      const value = parseLineKeepingLargeTexts(file, start, newline, store);
      for (const stored of storedTexts(value)) {
        if (!isStoredText(stored)) continue;
        const text = decodeStoredText(stored);
        expect(stored.units).toBe(text.length);
        expect(stored.wellFormed).toBe(isWellFormed(text));
        expect(stored.canonical).toBe(true); // every agent here writes JSON.stringify's rendering
        checked++;
      }
      expect(decodeAll(value)).toEqual(JSON.parse(file.toString("utf8", start, newline)));
      start = newline + 1;
    }
    expect(checked).toBeGreaterThan(10);
  });
});

describe("measureLiteral", () => {
  it("refuses bytes that are not UTF-8, so their line is read as before (the decoder's U+FFFD, its lengths)", () => {
    const body = encoder.encode(`{"a":"${"x".repeat(LARGE_TEXT_BYTES + 10)}`);
    const invalid = [[0xe0, 0x80], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe0, 0x80, 0x80], [0xf0, 0x80, 0x80, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xff], [0xc3], [0x80]];
    for (const bad of invalid) {
      expect(measureLiteral(new Uint8Array(bad), 0, bad.length)).toBeNull();
      const line = new Uint8Array([...body, ...bad, ...encoder.encode('"}')]);
      const value = parseLineKeepingLargeTexts(line, 0, line.length, createTextStore());
      expect(value).toEqual(JSON.parse(new TextDecoder().decode(line)));
    }
    // Valid neighbours of those: the smallest 3- and 4-byte forms, the last one before the surrogates, U+10FFFF.
    for (const good of [[0xe0, 0xa0, 0x80], [0xed, 0x9f, 0xbf], [0xf0, 0x90, 0x80, 0x80], [0xf4, 0x8f, 0xbf, 0xbf], [0xc2, 0x80]]) {
      const text = new TextDecoder().decode(new Uint8Array(good));
      expect(measureLiteral(new Uint8Array(good), 0, good.length)).toMatchObject({ units: text.length, wellFormed: true, canonical: true });
    }
  });
});

describe("the segment hash of a stored text", () => {
  // Long enough for several chunks on both sides (16 K units a chunk for strings, 64 KiB of
  // unescaped bytes for stored texts), so the chunks are cut at different places.
  const longer = fc.tuple(longText, fc.integer({ min: 1, max: 80 })).map(([text, times]) => text.repeat(times));

  it("equals the hash of the same text held as a string, and its rendering's length", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(longer, shortText), { minLength: 1, maxLength: 3 }), (parts) => {
        const line = JSON.stringify({ role: "toolResult", content: parts.map((text) => ({ type: "text", text })) });
        const { value, store } = parse(line);
        expect(hashJsonRendering(value)).toEqual(hashJsonRendering(JSON.parse(line)));
        expect(hashJsonRendering(value)!.bytes).toBe(encoder.encode(line).length);
      }),
      { numRuns: 60 },
    );
  });

  it("tells texts apart that differ in one character, wherever it is", () => {
    const text = "한국어 \"줄\"\n".repeat(20_000);
    const changed = `${text.slice(0, 150_000)}x${text.slice(150_001)}`;
    const a = parse(JSON.stringify({ text }));
    const b = parse(JSON.stringify({ text: changed }));
    expect(hashJsonRendering(a.value)!.hash).not.toBe(hashJsonRendering(b.value)!.hash);
    expect(hashJsonRendering(b.value)).toEqual(hashJsonRendering({ text: changed }));
  });

  it("decodes texts that are not JSON.stringify's rendering, or not well formed, and hashes them as strings", () => {
    const body = "x".repeat(LARGE_TEXT_BYTES);
    for (const escaped of ["\\/", "\\u00e9", "\\ud83d\\ude00", "\\udc00"]) {
      const line = `{"a":"${body}${escaped}"}`;
      const { value, store } = parse(line);
      expect(hashJsonRendering(value)).toEqual(hashJsonRendering(JSON.parse(line)));
    }
  });

  it("is measured with the text: it needs no bytes once read, and equals the hash of the bytes read back", () => {
    fc.assert(
      fc.property(longer, fc.integer({ min: 0, max: 7 }), (text, shift) => {
        // The literal at every alignment in its line.
        const line = `{"${"k".repeat(shift)}":${JSON.stringify(text)}}`;
        const { value, store } = parse(line);
        const stored = storedTexts(value)[0] as StoredText;
        if (!stored.canonical || !stored.wellFormed) return;
        expect(stored.contentA).toBeTypeOf("number");
        const measured = hashJsonRendering(value);
        // The same text without its measured hash: hashed from its bytes, read back.
        const { contentA: _a, contentB: _b, ...unmeasured } = stored;
        expect(hashJsonRendering({ [`${"k".repeat(shift)}`]: unmeasured })).toEqual(measured);
        releaseTextStore(store);
        expect(hashJsonRendering(value)).toEqual(measured);
        expect(() => decodeStoredText(stored)).toThrow(/not known here/);
      }),
      { numRuns: 40 },
    );
  });
});
