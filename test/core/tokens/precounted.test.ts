// The o200k sources for counting elsewhere: the collecting one names each distinct text once and
// counts chars/4 meanwhile; the precounted one gives o200kCounter's counts, from the map or, for
// a text the map lacks, counted on the spot (once). A whole-session prefix analysis with the two passes
// gives exactly the one-pass reports. The same holds for the Claude vocabulary behind the
// Anthropic estimate (claudeSource). Special-token strings are counted as text.
import { afterAll, describe, expect, it, vi } from "vitest";
import { iterateSessionPrefixes } from "../../../src/core/session/sessionPrefixes";
import { countClaudeVocabulary } from "../../../src/core/tokens/claude";
import { claudeEstimateCounter, counterForApi, o200kCounter } from "../../../src/core/tokens/counters";
import { collectingClaude, collectingO200k, precountedClaude, precountedO200k } from "../../../src/core/tokens/precounted";
import { fixtureCase } from "../../support/fixtures";
import { readSessionFile } from "../../../bench/distinct-texts";
import { createTextStore, releaseTextStore, type TextStore } from "../../../src/core/text/storedText";
import { stringifyWithTexts } from "../../../src/core/text/text";
import { storedPartsKey } from "../../../src/core/prefix/tokenKey";
import { textDigest } from "../../../src/core/tokens/textDigest";
import { storeLiteralBytes, storeSessionTexts } from "../../support/stored-texts";

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
    const counts = new Map<string, number>();
    const claudeSource = collectingClaude((text, key) => {
      texts.push(text);
      counts.set(key, countClaudeVocabulary(text));
    });
    for (const report of iterateSessionPrefixes(session, pipeline, { prefix: { tokenizer: "auto", claudeSource } })) void report;
    expect(texts.length).toBeGreaterThan(10);
    expect(counts.size).toBe(texts.length);
    const twice = [...iterateSessionPrefixes(session, pipeline, { prefix: { tokenizer: "auto", claudeSource: precountedClaude(counts) } })];
    expect(twice).toEqual(once);
  });
});

describe("counts of texts kept as bytes, found by the values' parts", () => {
  const store = createTextStore();
  afterAll(() => releaseTextStore(store));
  const stored = (text: string) => storeLiteralBytes(store, new TextEncoder().encode(JSON.stringify(text).slice(1, -1)));
  const long = "a line of a tool's output, long enough to be kept as bytes\n".repeat(40);

  it("keys a value by its parts: the same for the same characters in another place, null without a stored part", () => {
    const one = { role: "user", content: [{ type: "text", text: stored(long) }, { type: "text", text: "and a short one" }] };
    const same = { role: "user", content: [{ type: "text", text: stored(long) }, { type: "text", text: "and a short one" }] };
    const other = { role: "user", content: [{ type: "text", text: stored(`${long}!`) }, { type: "text", text: "and a short one" }] };
    const key = storedPartsKey(one);
    expect(key).toMatch(/^\d+:s:/);
    expect(storedPartsKey(same)).toBe(key);
    expect(storedPartsKey(other)).not.toBe(key);
    // The parts' order and the string parts are in the key.
    expect(storedPartsKey({ content: [{ text: "and a short one" }, { text: stored(long) }] })).not.toBe(key);
    expect(storedPartsKey({ content: [{ text: stored(long) }, { text: "and a short two" }] })).not.toBe(key);
    expect(storedPartsKey({ content: [{ type: "text", text: long }] })).toBeNull();
  });

  it("collecting names a value with a stored part once, under its parts' key, with its decoded text", () => {
    const named: [string, string][] = [];
    const source = collectingO200k((text, key) => named.push([text, key]), textDigest);
    const value = { content: [{ type: "text", text: stored(long) }] };
    const tokensOfLength = Math.ceil(long.length / 4);
    expect(source.countValue!(value)).toBe(tokensOfLength);
    expect(source.countValue!({ content: [{ type: "text", text: stored(long) }] })).toBe(tokensOfLength);
    expect(named).toEqual([[long, storedPartsKey(value)]]);
  });

  it("precounted finds the count under the parts' key without counting, and counts (once) what the map lacks", () => {
    const value = { content: [{ type: "text", text: stored(long) }] };
    const found = precountedO200k(new Map([[storedPartsKey(value)!, 12345]]), textDigest);
    expect(found.countValue!(value)).toBe(12345);
    const missing = precountedO200k(new Map(), textDigest);
    expect(missing.countValue!(value)).toBe(o200kCounter.count(long));
    // A scaled counter over the source looks the value up the same way.
    expect(counterForApi("google-generative-ai", { o200kSource: found, claudeFactor: 2 }).countValue!(value)).toBe(24690);
  });

  it("two passes over a session kept as bytes find every count of the second pass in the first's, and give the one-pass reports", () => {
    const session = readSessionFile(fixtureCase("pi/print-openai-autocompact").sessionPath);
    const kept = storeSessionTexts(session, 1);
    stores.push(kept.store);
    const pipeline = { profile: "pi" as const };
    const once = [...iterateSessionPrefixes(session, pipeline, { prefix: { tokenizer: "auto" } })];
    const counts = new Map<string, number>();
    const o200kSource = collectingO200k((text, key) => counts.set(key, o200kCounter.count(text)), textDigest);
    for (const report of iterateSessionPrefixes(kept.session, pipeline, { prefix: { tokenizer: "auto", o200kSource } })) void report;
    expect([...counts.keys()].filter((key) => key.includes(":s:")).length).toBeGreaterThan(5);
    const missed: string[] = [];
    const watched = new (class extends Map<string, number> {
      override get(key: string) {
        const found = super.get(key);
        if (found === undefined) missed.push(key);
        return found;
      }
    })(counts);
    const twice = [...iterateSessionPrefixes(kept.session, pipeline, { prefix: { tokenizer: "auto", o200kSource: precountedO200k(watched, textDigest) } })];
    expect(missed).toEqual([]);
    expect(JSON.parse(stringifyWithTexts(twice))).toEqual(JSON.parse(JSON.stringify(once)));
  });
});

const stores: TextStore[] = [];
afterAll(() => stores.forEach(releaseTextStore));
