// RL-25 … RL-27: FNV-1a vectors and the reading cache (one reading per distinct message; an
// in-place edit that keeps every length is read again; repeated conversions do not re-read).
import { describe, expect, it } from "vitest";
import {
  createReadingCache,
  createReplyLanguageStep,
  fnv1a32,
  fnv1a32Utf8,
  hashTextParts,
  insertReplyLanguageNotes,
  readUserMessage,
  resolveOptions,
} from "../../../src/core/notes";
import type { TextBlock } from "../../../src/core/model";
import { assistant, tool, user } from "./helpers";

const O = resolveOptions();

describe("FNV-1a (RL-25)", () => {
  it("matches the spec's vectors", () => {
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
    expect(fnv1a32("foobar")).toBe(0xbf9cf968);
  });
  it("UTF-8 variant agrees on ASCII and differs on Hangul", () => {
    expect(fnv1a32Utf8("foobar")).toBe(0xbf9cf968);
    expect(fnv1a32Utf8("가")).not.toBe(fnv1a32("가"));
  });
  it("joins text parts with U+0000", () => {
    expect(hashTextParts(["a", "b"], O)).toBe(fnv1a32("a\u0000b"));
    expect(hashTextParts(["a", "b"], O)).not.toBe(hashTextParts(["ab"], O));
  });
});

describe("reading cache (RL-26, RL-27)", () => {
  it("#25 three conversions of an unchanged session: 1 reading", () => {
    const cache = createReadingCache();
    const context = [user("이 함수 좀 고쳐줘", "u1"), assistant(), tool(5000), assistant()];
    for (let k = 0; k < 3; k++) insertReplyLanguageNotes(context, undefined, { cache });
    expect(cache.stats.readings).toBe(1);
    expect(cache.stats.hits).toBe(2);
  });

  it("#24 in-place edit that keeps every length: read again (2 readings)", () => {
    const cache = createReadingCache();
    const u = user("이 함수 좀 고쳐줘", "u1");
    const context = [u, assistant(), tool(5000), assistant()];
    const first = insertReplyLanguageNotes(context, undefined, { cache });
    expect(first.map((m) => m.provenance.rule)).toContain("note:reply-language");
    // Same length, same object, different text: now English.
    const block = (u.message.content as TextBlock[])[0] as TextBlock;
    block.text = "fix it now";
    expect(block.text.length).toBe("이 함수 좀 고쳐줘".length);
    const second = insertReplyLanguageNotes(context, undefined, { cache });
    expect(cache.stats.readings).toBe(2);
    expect(second.map((m) => m.provenance.rule)).not.toContain("note:reply-language");
  });

  it("a string content is keyed by the message object", () => {
    const cache = createReadingCache();
    const message = { role: "user" as const, content: "이 함수 좀 고쳐줘" };
    readUserMessage(message, O, cache);
    readUserMessage(message, O, cache);
    expect(cache.stats.readings).toBe(1);
  });

  it("equal options re-resolved from a new partial still hit", () => {
    const cache = createReadingCache();
    const message = { role: "user" as const, content: [{ type: "text" as const, text: "안녕" }] };
    readUserMessage(message, resolveOptions({ thresholdChars: 10 }), cache);
    readUserMessage(message, resolveOptions({ thresholdChars: 10 }), cache);
    expect(cache.stats.readings).toBe(1);
    readUserMessage(message, resolveOptions({ namedShare: 0.9 }), cache);
    expect(cache.stats.readings).toBe(2);
  });

  it("#27 20 conversions of a session holding a 120 KB paste do not re-read history", () => {
    const paste = `이 로그 좀 봐줘\n${"<a ".repeat(20_000)}${"ERROR: x\n".repeat(6_000)}`;
    expect(paste.length).toBeGreaterThan(110_000);
    const step = createReplyLanguageStep();
    const messages = [user(paste, "u1"), assistant(), tool(5000)];
    let out = step(messages);
    for (let k = 0; k < 19; k++) {
      messages.push(assistant(), tool(10));
      out = step(messages);
    }
    expect(out.filter((m) => m.provenance.rule === "note:reply-language")).toHaveLength(1);
    // The step owns its cache; a second, explicit cache shows the count.
    const cache = createReadingCache();
    const explicit = createReplyLanguageStep(undefined, { cache });
    for (let k = 0; k < 20; k++) explicit(messages);
    expect(cache.stats.readings).toBe(1);
    expect(cache.stats.charsRead).toBe(paste.length);
    expect(cache.stats.tagPassVisited).toBeLessThanOrEqual(3 * paste.length);
  });
});
