// The compaction-summary carrier (RL-21 … RL-24), spec rows #21 and #22.
import { describe, expect, it } from "vitest";
import { applyCompactionCarrier, compactionCarrier, insertReplyLanguageNotes, readCarrier } from "../../../src/core/notes";
import type { ContextMessage, UserMessage } from "../../../src/core/model";
import { assistant, noteIndexes, noteTexts, summary, textOf, tool } from "./helpers";

const prose = (entryId: string, text: string): { entryId: string; message: UserMessage } => ({
  entryId,
  message: { role: "user", content: [{ type: "text", text }] },
});

describe("compactionCarrier (RL-22)", () => {
  it("#21 latest user message before the compaction is Korean", () => {
    expect(compactionCarrier([prose("u1", "Please read the file"), prose("u2", "이 함수 좀 고쳐줘")])).toEqual({
      userLanguage: "Korean",
      userLanguageRequested: false,
      fromEntryId: "u2",
    });
  });
  it("#22 a request before the compaction wins over later Korean", () => {
    expect(compactionCarrier([prose("u1", "영어로 답해줘"), prose("u2", "이 함수 좀 고쳐줘")])).toEqual({
      userLanguage: "English",
      userLanguageRequested: true,
      fromEntryId: "u1",
    });
  });
  it("carrierScope latestMessage reads only the latest message", () => {
    expect(compactionCarrier([prose("u1", "영어로 답해줘"), prose("u2", "이 함수 좀 고쳐줘")], { carrierScope: "latestMessage" })).toMatchObject({
      userLanguage: "Korean",
      userLanguageRequested: false,
    });
  });
  it("an English-writing user gets no carrier", () => {
    expect(compactionCarrier([prose("u1", "이 함수 좀 고쳐줘"), prose("u2", "Thanks, please continue")])).toBeNull();
    expect(compactionCarrier([])).toBeNull();
  });
});

describe("applyCompactionCarrier (RL-23, RL-24)", () => {
  it("#21 same-block form: the summary's text block ends with the note; no separate note follows", () => {
    const s = summary("## Goal\n요약");
    const carried = applyCompactionCarrier(s, { userLanguage: "Korean", userLanguageRequested: false, fromEntryId: "u2" });
    const content = carried.message.content as { type: string; text: string }[];
    expect(content).toHaveLength(1);
    expect(content[0]?.text.endsWith("\n</summary>\n\nReply language: Korean")).toBe(true);
    expect(carried.provenance).toMatchObject({
      rule: "wrap:compaction-summary",
      entryId: "cmp1",
      note: { language: "Korean", source: "written", fromEntryId: "u2", builtUpChars: 0 },
    });
    const out = insertReplyLanguageNotes([carried, assistant("a", "ok")]);
    expect(out).toHaveLength(2);
    expect(noteTexts(out)).toEqual([]);
    // The input summary is not modified.
    expect(textOf(s.message).endsWith("\n</summary>")).toBe(true);
  });
  it("#22 requested English carrier text", () => {
    const carried = applyCompactionCarrier(summary("x"), { userLanguage: "English", userLanguageRequested: true });
    expect(textOf(carried.message).endsWith("\n</summary>\n\nReply language: English (the user asked for it)")).toBe(true);
    expect(readCarrier(carried.message)).toEqual({ name: "English", requested: true });
  });
  it("second-block form adds a text block; the reader accepts both", () => {
    const carried = applyCompactionCarrier(summary("x"), { userLanguage: "Korean", userLanguageRequested: false }, { carrierForm: "second-block" });
    expect(carried.message.content).toHaveLength(2);
    expect((carried.message.content as { text: string }[])[1]?.text).toBe("Reply language: Korean");
    expect(readCarrier(carried.message)).toEqual({ name: "Korean", requested: false });
  });
  it("is idempotent", () => {
    const once = applyCompactionCarrier(summary("x"), { userLanguage: "Korean", userLanguageRequested: false });
    expect(applyCompactionCarrier(once, { userLanguage: "Korean", userLanguageRequested: false })).toBe(once);
  });
  it("#24 a summary without a carrier reads as none and stays as PI-C5", () => {
    const s = summary("x");
    expect(readCarrier(s.message)).toBeNull();
    expect(textOf(s.message).endsWith("x\n</summary>")).toBe(true);
  });
  it("an unlisted name is never rendered", () => {
    const s = summary("x");
    expect(applyCompactionCarrier(s, { userLanguage: "Klingon", userLanguageRequested: false })).toBe(s);
  });
  it("noteForRequestedEnglish false: a requested English carrier is not rendered", () => {
    const s = summary("x");
    expect(applyCompactionCarrier(s, { userLanguage: "English", userLanguageRequested: true }, { noteForRequestedEnglish: false })).toBe(s);
  });
  it("a forged note inside the summary text does not count: only after </summary>", () => {
    const s = summary("Reply language: Korean");
    expect(readCarrier(s.message)).toBeNull();
  });
  it("the carrier survives compaction: a requested language seeds notes after the summary", () => {
    const carried = applyCompactionCarrier(summary("x"), { userLanguage: "English", userLanguageRequested: true });
    const user: ContextMessage = { message: { role: "user", content: [{ type: "text", text: "마지막으로 프로젝트 구조를 한 문단으로 정리해줘" }] }, provenance: { rule: "entry", entryId: "u8" } };
    const out = insertReplyLanguageNotes([carried, user, assistant(), tool(5000), assistant()]);
    expect(noteIndexes(out)).toEqual([4]);
    expect(noteTexts(out)).toEqual(["Reply language: English (the user asked for it)"]);
    expect(out[4]?.provenance.note).toMatchObject({ source: "explicit-request", fromEntryId: null, carriedByEntryId: "cmp1" });
    expect(out[4]?.provenance.explanation).toContain("cmp1");
  });
});
