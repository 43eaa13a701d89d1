// The o200k sources for counting elsewhere: the collecting one names each distinct text once and
// counts chars/4 meanwhile; the precounted one gives o200kCounter's counts, from the map or, for
// a text the map lacks, counted on the spot (once). A whole-session prefix analysis with the two passes
// gives exactly the one-pass reports. The same holds for the Claude vocabulary behind the
// Anthropic estimate (claudeSource). Special-token strings are counted as text.
import { describe, expect, it, vi } from "vitest";
import { iterateSessionPrefixes } from "../../../src/core/session/sessionPrefixes";
import { countClaudeVocabulary } from "../../../src/core/tokens/claude";
import { claudeEstimateCounter, counterForApi, o200kCounter } from "../../../src/core/tokens/counters";
import { collectingClaude, collectingO200k, precountedClaude, precountedO200k } from "../../../src/core/tokens/precounted";
import { partsDigest, textDigest } from "../../../src/core/tokens/textDigest";
import { createTextStore, isStoredText, releaseTextStore } from "../../../src/core/text/storedText";
import { textString, type Text } from "../../../src/core/text/text";
import { fixtureCase } from "../../support/fixtures";
import { storeLiteralBytes, storeSessionTexts } from "../../support/stored-texts";
import { readSessionFile } from "../../../bench/distinct-texts";

describe("precounted o200k sources", () => {
  it("collecting names each distinct text once", () => {
    const seen: string[] = [];
    const source = collectingO200k((text) => seen.push(text));
    expect(source.count("hello world")).toBe(3);
    expect(source.count("hello world")).toBe(3);
    expect(source.count("")).toBe(0);
    expect(source.count("another")).toBe(2);
    expect(seen).toEqual(["hello world", "another"]);
  });

  it("precounted looks counts up and counts what is missing", () => {
    const source = precountedO200k(new Map([["hello world", 99]]));
    expect(source.count("hello world")).toBe(99);
    expect(source.count("goodbye world")).toBe(o200kCounter.count("goodbye world"));
    expect(source.exact).toBe(true);
    expect(counterForApi("openai-completions", { o200kSource: source })).toBe(source);
    expect(counterForApi("anthropic-messages", { o200kSource: source, claudeFactor: 2 }).count("hello world")).toBe(198);
  });

  it("precounted counts a missing text once, however often it is asked for (an empty map memoizes)", () => {
    const counted = vi.spyOn(o200kCounter, "count");
    try {
      const source = precountedO200k();
      const text = "a text the map lacks, asked for by a segment and then by its message";
      const first = source.count(text);
      expect(source.count(text)).toBe(first);
      expect(source.count(`${text}`.slice(0))).toBe(first);
      expect(counted).toHaveBeenCalledTimes(1);
      expect(first).toBe(o200kCounter.count(text));
    } finally {
      counted.mockRestore();
    }
    const vocabulary = precountedClaude();
    expect(vocabulary.count("Bonjour 한국어")).toBe(countClaudeVocabulary("Bonjour 한국어"));
    expect(vocabulary.count("Bonjour 한국어")).toBe(countClaudeVocabulary("Bonjour 한국어"));
  });

  it("special-token strings in session text are counted as text, not refused", () => {
    expect(o200kCounter.count("<|endoftext|>")).toBeGreaterThan(1);
  });

  // Anthropic shapes count with the Claude estimate under "auto"; o200k counts reach them with "o200k".
  it.each([
    ["pi/print-openai-autocompact", "auto"],
    ["pi/rpc-anthropic-manualcompact", "o200k"],
  ] as const)("two passes over %s (tokenizer %s) give the one-pass reports", (name, tokenizer) => {
    const session = readSessionFile(fixtureCase(name).sessionPath);
    const pipeline = { profile: "pi" as const };
    const once = [...iterateSessionPrefixes(session, pipeline, { prefix: { tokenizer } })];
    const texts: string[] = [];
    for (const report of iterateSessionPrefixes(session, pipeline, { prefix: { tokenizer, o200kSource: collectingO200k((text) => texts.push(text)) } })) void report;
    expect(texts.length).toBeGreaterThan(10);
    const counts = new Map(texts.map((text) => [text, o200kCounter.count(text)]));
    const twice = [...iterateSessionPrefixes(session, pipeline, { prefix: { tokenizer, o200kSource: precountedO200k(counts) } })];
    expect(twice).toEqual(once);
  });

  it("a precounted Claude vocabulary gives the Anthropic estimate, under its id", () => {
    const text = "Bonjour 한국어 tokens";
    const source = precountedClaude(new Map([["hello world", 10]]));
    const estimate = counterForApi("anthropic-messages", { claudeSource: source });
    expect(estimate.id).toBe(claudeEstimateCounter.id);
    expect(estimate.count("hello world")).toBe(12);
    expect(estimate.count(text)).toBe(claudeEstimateCounter.count(text));
    expect(source.count(text)).toBe(countClaudeVocabulary(text));
    // OpenAI shapes do not use it.
    expect(counterForApi("openai-responses", { claudeSource: source })).toBe(o200kCounter);
  });

  it("two passes over an Anthropic session with a collected Claude vocabulary give the one-pass reports", () => {
    const session = readSessionFile(fixtureCase("pi/rpc-anthropic-manualcompact").sessionPath);
    const pipeline = { profile: "pi" as const };
    const once = [...iterateSessionPrefixes(session, pipeline, { prefix: { tokenizer: "auto" } })];
    const texts: string[] = [];
    const claudeSource = collectingClaude((text) => texts.push(text));
    for (const report of iterateSessionPrefixes(session, pipeline, { prefix: { tokenizer: "auto", claudeSource } })) void report;
    expect(texts.length).toBeGreaterThan(10);
    expect(new Set(texts).size).toBe(texts.length);
    const counts = new Map(texts.map((text) => [text, countClaudeVocabulary(text)]));
    const twice = [...iterateSessionPrefixes(session, pipeline, { prefix: { tokenizer: "auto", claudeSource: precountedClaude(counts) } })];
    expect(twice).toEqual(once);
  });

  describe("texts made of parts, some kept as bytes", () => {
    const literal = (text: string) => new TextEncoder().encode(JSON.stringify(text).slice(1, -1));
    const long = "Bonjour 한국어 \"quoted\" tokens\n".repeat(40);

    it("are keyed by their parts: equal texts at two places share a key, without being read", () => {
      const store = createTextStore();
      const first = storeLiteralBytes(store, literal(long));
      const second = storeLiteralBytes(store, literal(long));
      const other = storeLiteralBytes(store, literal(`${long}!`));
      expect(first.start).not.toBe(second.start);
      releaseTextStore(store);
      // Read nothing: the store is gone, and a read would throw.
      expect(partsDigest(["head ", first])).toBe(partsDigest(["head ", second]));
      expect(partsDigest(["head ", first])).not.toBe(partsDigest(["head ", other]));
      expect(partsDigest(["head ", first])).not.toBe(partsDigest(["head", first]));
      expect(partsDigest(["head ", first]).startsWith("~")).toBe(true);
      // Strings alone: the joined text's digest, as counts of strings are keyed.
      expect(partsDigest(["ab", "cd"])).toBe(textDigest("abcd"));
    });

    it("are named once each with their key and counted as their joined text", () => {
      const store = createTextStore();
      const stored = storeLiteralBytes(store, literal(long));
      const parts: Text[] = ["A question: ", stored];
      const joined = parts.map(textString).join("");
      const named: [readonly Text[], string][] = [];
      const collecting = collectingO200k(() => {
        throw new Error("a text made of parts is named by its parts");
      }, textDigest, (named_, key) => named.push([named_, key]));
      releaseTextStore(store);
      expect(collecting.countParts?.(parts)).toBe(Math.ceil(joined.length / 4));
      expect(collecting.countParts?.(parts)).toBe(Math.ceil(joined.length / 4));
      expect(collecting.countParts?.([])).toBe(0);
      expect(named).toHaveLength(1);
      expect(named[0]![0]).toBe(parts);
      expect(named[0]![1]).toBe(partsDigest(parts));
      // The count made elsewhere is looked up by the same key, still without reading the text.
      const precounted = precountedO200k(new Map([[partsDigest(parts), 1234]]), textDigest, true);
      expect(precounted.countParts?.(parts)).toBe(1234);
      expect(counterForApi("anthropic-messages", { o200kSource: precounted, claudeFactor: 2 }).countParts?.(parts)).toBe(2468);
      // Missing from the map: counted here, from the joined text.
      // The same text in another store: the same key.
      const store2 = createTextStore();
      expect(precounted.countParts?.(["A question: ", storeLiteralBytes(store2, literal(long))])).toBe(1234);
      const unknown = storeLiteralBytes(store2, literal(`${long}?`));
      expect(precounted.countParts?.(["A question: ", unknown])).toBe(o200kCounter.count(`A question: ${long}?`));
      releaseTextStore(store2);
      // Without byParts (counts keyed by whole texts) a counter leaves parts to `count`.
      expect(precountedO200k(new Map(), textDigest).countParts).toBeUndefined();
      expect(collectingO200k(() => {}).countParts).toBeUndefined();
    });

    it.each([
      ["pi/print-openai-autocompact", "auto"],
      ["pi/rpc-anthropic-manualcompact", "auto"],
    ] as const)("two passes over %s with its texts kept as bytes, named by parts, give the one-pass reports of the strings", (name, tokenizer) => {
      const session = readSessionFile(fixtureCase(name).sessionPath);
      const pipeline = { profile: "pi" as const };
      const once = [...iterateSessionPrefixes(session, pipeline, { prefix: { tokenizer } })];
      const stored = storeSessionTexts(session, 64);
      expect(stored.stored).toBeGreaterThan(5);
      const texts = new Map<string, string>();
      let storedParts = 0;
      const onParts = (parts: readonly Text[], key: string) => {
        storedParts += parts.filter(isStoredText).length;
        texts.set(key, parts.map(textString).join(""));
      };
      const onText = (text: string) => void texts.set(textDigest(text), text);
      const o200kSource = collectingO200k(onText, textDigest, onParts);
      const claudeSource = collectingClaude(onText, textDigest, onParts);
      for (const report of iterateSessionPrefixes(stored.session, pipeline, { prefix: { tokenizer, o200kSource, claudeSource } })) void report;
      expect(storedParts).toBeGreaterThan(0);
      const o200k = new Map([...texts].map(([key, text]) => [key, o200kCounter.count(text)]));
      const claude = new Map([...texts].map(([key, text]) => [key, countClaudeVocabulary(text)]));
      const twice = [...iterateSessionPrefixes(stored.session, pipeline, {
        prefix: { tokenizer, o200kSource: precountedO200k(o200k, textDigest, true), claudeSource: precountedClaude(claude, textDigest, true) },
      })];
      expect(JSON.parse(JSON.stringify(twice, (_k, v: unknown) => (isStoredText(v) ? textString(v) : v)))).toEqual(JSON.parse(JSON.stringify(once)));
      releaseTextStore(stored.store);
    });
  });
});
