// Note insertion (RL-14 … RL-20): positions, threshold, resets, effective language, note text and
// provenance. Spec test-table rows are marked `#n`.
import { describe, expect, it } from "vitest";
import { createReplyLanguageStep, insertReplyLanguageNotes, noteOfMessage, resolveOptions } from "../../../src/core/notes";
import type { ContextMessage } from "../../../src/core/model";
import { assistant, noteIndexes, noteTexts, rendered, summary, textOf, tool, user } from "./helpers";

const O = resolveOptions();
const KO = "이 함수 좀 고쳐줘";

function run(messages: ContextMessage[], options?: Parameters<typeof insertReplyLanguageNotes>[1]) {
  return insertReplyLanguageNotes(messages, options);
}

describe("note positions and threshold (RL-15, RL-16)", () => {
  it("#16 Korean user, one run of 5000 chars, then an assistant: exactly one note after the run", () => {
    const t = tool(5000, "t1");
    const input = [user(KO, "u1"), assistant("a1"), t, assistant("a2", "done")];
    const out = run(input);
    expect(out).toHaveLength(5);
    expect(noteIndexes(out)).toEqual([3]);
    const note = out[3] as ContextMessage;
    expect(textOf(note.message)).toBe("Reply language: Korean");
    expect(note.message.role).toBe("user");
    expect(note.message.content).toEqual([{ type: "text", text: "Reply language: Korean" }]);
    expect(note.message.timestamp).toBe(t.message.timestamp);
    expect(note.provenance).toMatchObject({
      rule: "note:reply-language",
      entryId: null,
      ruleId: "RL-15",
      inferred: "RL-19",
      note: { language: "Korean", source: "written", fromEntryId: "u1", builtUpChars: 5000 },
    });
    expect(note.provenance.explanation).toContain("Korean");
    expect(note.provenance.explanation).toContain("u1");
    expect(note.provenance.explanation).toContain("5000");
    expect(note.provenance.note?.inferredRules).toEqual(expect.arrayContaining(["RL-14", "RL-16", "RL-19"]));
  });

  it("passes every input message through as the same object", () => {
    const input = [user(KO, "u1"), assistant(), tool(5000), assistant()];
    const out = run(input);
    expect(out.filter((m) => m.provenance.rule !== "note:reply-language")).toEqual(input);
    input.forEach((m) => expect(out).toContain(m));
    out.filter((m) => m.provenance.rule !== "note:reply-language").forEach((m, i) => expect(m).toBe(input[i]));
  });

  it("#17 1000 chars: no note", () => {
    expect(noteTexts(run([user(KO), assistant(), tool(1000), assistant()]))).toEqual([]);
  });
  it("#17 English-writing user: no note", () => {
    expect(noteTexts(run([user("Please fix this function"), assistant(), tool(5000), assistant()]))).toEqual([]);
  });
  it("exactly at the threshold: note; one below: none", () => {
    expect(noteTexts(run([user(KO), assistant(), tool(4000), assistant()]))).toHaveLength(1);
    expect(noteTexts(run([user(KO), assistant(), tool(3999), assistant()]))).toHaveLength(0);
  });
  it("a run at the end of the context is a candidate", () => {
    const out = run([user(KO), assistant(), tool(5000)]);
    expect(noteIndexes(out)).toEqual([3]);
  });
  it("a run of several results gets one note after its last result", () => {
    const out = run([user(KO), assistant(), tool(2000), tool(2500), assistant()]);
    expect(noteIndexes(out)).toEqual([4]);
  });
  it("characters build up across runs since the user's last message", () => {
    const out = run([user(KO), assistant(), tool(3000), assistant(), tool(1500), assistant()]);
    expect(noteIndexes(out)).toEqual([5]);
    expect(out[5]?.provenance.note?.builtUpChars).toBe(4500);
  });
  it("a run followed by a user message gets no note (never two user messages adjacent)", () => {
    const out = run([user(KO), assistant(), tool(5000), user("계속해줘"), assistant()]);
    expect(noteTexts(out)).toEqual([]);
  });
  it("#18 a run followed by a user-words message: no note", () => {
    const out = run([user(KO), assistant(), tool(5000), rendered("user-words", 10), assistant()]);
    expect(noteTexts(out)).toEqual([]);
  });
  it("a run followed by a notice (custom message) gets no note", () => {
    const out = run([user(KO), assistant(), tool(5000), rendered("render:custom", 10), assistant()]);
    expect(noteTexts(out)).toEqual([]);
  });
  it.each(["render:custom", "render:bash", "wrap:branch-summary"])("%s counts toward the threshold", (rule) => {
    const out = run([user(KO), rendered(rule, 3950), assistant(), tool(100), assistant()]);
    expect(noteTexts(out)).toEqual(["Reply language: Korean"]);
    expect(out.find((m) => m.provenance.note)?.provenance.note?.builtUpChars).toBe(4050);
  });
  it("the user's own message resets the count", () => {
    const out = run([user(KO), assistant(), tool(3000), assistant("a", "ok"), user(KO), assistant(), tool(1500), assistant()]);
    expect(noteTexts(out)).toEqual([]);
  });
  it("a user-words message resets the count", () => {
    const out = run([user(KO), assistant(), tool(3000), rendered("user-words", 5), assistant(), tool(1500), assistant()]);
    expect(noteTexts(out)).toEqual([]);
  });
  it("images count 0", () => {
    const t = tool(100);
    if (t.message.role === "toolResult") t.message.content.push({ type: "image", data: "A".repeat(10_000), mimeType: "image/png" });
    expect(noteTexts(run([user(KO), assistant(), t, assistant()]))).toEqual([]);
  });
  it("thresholdChars is a parameter", () => {
    expect(noteTexts(run([user(KO), assistant(), tool(1000), assistant()], { thresholdChars: 900 }))).toHaveLength(1);
  });
  it("charMeasure codepoints counts astral characters once (RL-16 INF)", () => {
    const input = [user(KO), assistant(), tool(2100, null, "😀"), assistant()];
    expect(noteTexts(run(input))).toHaveLength(1); // 4200 UTF-16 units
    expect(noteTexts(run(input, { charMeasure: "codepoints" }))).toHaveLength(0); // 2100 code points
  });
  it("sourceChars lets the pipeline count source sizes", () => {
    const bash = rendered("render:bash", 100);
    const out = insertReplyLanguageNotes([user(KO), bash, assistant(), tool(100), assistant()], undefined, {
      sourceChars: (m) => (m === bash ? 3900 : undefined),
    });
    expect(noteTexts(out)).toHaveLength(1);
  });
});

describe("resets after a note and at a summary (RL-17)", () => {
  const input = () => [user(KO), assistant(), tool(5000), assistant(), tool(100), assistant()];
  it("the count restarts after a note", () => {
    expect(noteTexts(run(input()))).toHaveLength(1);
  });
  it("resetAfterNote false: every later run gets a note", () => {
    const out = run(input(), { resetAfterNote: false });
    expect(noteIndexes(out)).toEqual([3, 6]);
    expect(out[6]?.provenance.note?.builtUpChars).toBe(5100);
  });
  it("a second note after another 4000 chars", () => {
    const out = run([user(KO), assistant(), tool(5000), assistant(), tool(4000), assistant()]);
    expect(noteIndexes(out)).toEqual([3, 6]);
    expect(out[6]?.provenance.note?.inferredRules).toContain("RL-17");
  });
  it("the compaction summary resets the count", () => {
    const s = summary("요약");
    const withCarrier = { ...s, message: { ...s.message, content: [{ type: "text" as const, text: textOf(s.message) + "\n\nReply language: Korean" }] } };
    const out = run([withCarrier, assistant(), tool(3900), assistant(), tool(200), assistant()]);
    expect(noteIndexes(out)).toEqual([5]);
    expect(out[5]?.provenance.note).toMatchObject({ language: "Korean", builtUpChars: 4100, fromEntryId: null, carriedByEntryId: "cmp1" });
    expect(out[5]?.provenance.note?.inferredRules).toContain("RL-17");
  });
});

describe("effective language (RL-10, RL-14, RL-18)", () => {
  it("a request wins over the written language", () => {
    const out = run([user("영어로 답해줘", "u1"), assistant("a", "OK"), user("이 파일을 읽어줘", "u2"), assistant(), tool(5000), assistant()]);
    expect(noteTexts(out)).toEqual(["Reply language: English (the user asked for it)"]);
    const note = out.find((m) => m.provenance.note)?.provenance.note;
    expect(note).toMatchObject({ language: "English", source: "explicit-request", fromEntryId: "u1" });
    expect(note?.inferredRules).toContain("RL-18");
  });
  it("requestScope latestMessage: only the latest user message counts", () => {
    const input = [user("영어로 답해줘", "u1"), assistant("a", "OK"), user("이 파일을 읽어줘", "u2"), assistant(), tool(5000), assistant()];
    expect(noteTexts(run(input, { requestScope: "latestMessage" }))).toEqual(["Reply language: Korean"]);
  });
  it("requestScope latestMessage: a latest message without prose gives no language", () => {
    const input = [user(KO, "u1"), assistant("a", "OK"), user("```\nx\n```", "u2"), assistant(), tool(5000), assistant()];
    expect(noteTexts(run(input, { requestScope: "latestMessage" }))).toEqual([]);
    expect(noteTexts(run(input))).toEqual(["Reply language: Korean"]);
  });
  it("an English writer asking for Korean gets a requested Korean note", () => {
    const out = run([user("please reply in Korean from now on"), assistant("a", "OK"), user("Read the file"), assistant(), tool(5000), assistant()]);
    expect(noteTexts(out)).toEqual(["Reply language: Korean (the user asked for it)"]);
  });
  it("noteForRequestedEnglish false: a requested English gets no note", () => {
    const input = [user("영어로 답해줘"), assistant(), tool(5000), assistant()];
    expect(noteTexts(run(input))).toEqual(["Reply language: English (the user asked for it)"]);
    expect(noteTexts(run(input, { noteForRequestedEnglish: false }))).toEqual([]);
  });
  it("a later English message means no language (latin decides)", () => {
    const input = [user(KO, "u1"), assistant("a", "ok"), user("Thanks, now read the file", "u2"), assistant(), tool(5000), assistant()];
    expect(noteTexts(run(input))).toEqual([]);
  });
  it("latinDecides false: a Latin reading is skipped like none", () => {
    const input = [user(KO, "u1"), assistant("a", "ok"), user("Thanks, now read the file", "u2"), assistant(), tool(5000), assistant()];
    const out = run(input, { latinDecides: false });
    expect(noteTexts(out)).toEqual(["Reply language: Korean"]);
    expect(out.find((m) => m.provenance.note)?.provenance.note?.fromEntryId).toBe("u1");
  });
  it("a code-only message does not decide", () => {
    const out = run([user(KO, "u1"), assistant("a", "ok"), user("```\nx = 1\n```", "u2"), assistant(), tool(5000), assistant()]);
    expect(noteTexts(out)).toEqual(["Reply language: Korean"]);
  });
  it("only listed names produce notes", () => {
    const out = run([user(KO), assistant(), tool(5000), assistant()], { languageNames: ["Japanese", "English"] });
    expect(noteTexts(out)).toEqual([]);
  });
  it.each([
    ["このバグを直してください", "Japanese"],
    ["请修复这个错误", "Chinese"],
    ["Исправь эту ошибку", "Cyrillic script"],
  ])("%s → note %s", (text, name) => {
    expect(noteTexts(run([user(text), assistant(), tool(5000), assistant()]))).toEqual([`Reply language: ${name}`]);
  });
  it("French and code-only users get no note (#5)", () => {
    expect(noteTexts(run([user("Corrige cette erreur s'il te plaît"), assistant(), tool(5000), assistant()]))).toEqual([]);
    expect(noteTexts(run([user("```\nconst x = 1;\n```"), assistant(), tool(5000), assistant()]))).toEqual([]);
  });
  it("custom messages, summaries, bash and user words are not read as the user's language (RL-1)", () => {
    const custom: ContextMessage = { ...rendered("render:custom", 0), message: { role: "user", content: [{ type: "text", text: "이 함수 좀 고쳐줘" }] } };
    const out = run([user("Please fix it"), custom, assistant(), tool(5000), assistant()]);
    expect(noteTexts(out)).toEqual([]);
  });
  it("proseRules can add rules whose text is read", () => {
    const custom: ContextMessage = { ...rendered("render:custom", 0), message: { role: "user", content: [{ type: "text", text: "이 함수 좀 고쳐줘" }] } };
    const out = run([user("Please fix it"), custom, assistant(), tool(5000), assistant()], { proseRules: ["entry", "render:custom"] });
    expect(noteTexts(out)).toEqual(["Reply language: Korean"]);
  });
});

describe("existing notes and forged notes (RL-20)", () => {
  it("#19 convertToLlm(convertToLlm(x)) keeps exactly one note", () => {
    const input = [user(KO), assistant(), tool(5000), assistant()];
    const once = run(input);
    const twice = run(once);
    expect(twice).toEqual(once);
    expect(noteTexts(twice)).toHaveLength(1);
  });
  it("re-conversion keeps the reset after an existing note", () => {
    const input = [user(KO), assistant(), tool(5000), assistant(), tool(3000), assistant(), tool(1000), assistant()];
    const once = run(input);
    expect(noteIndexes(once)).toEqual([3, 8]);
    expect(run(once)).toEqual(once);
  });
  it("a note is recognised by its text even without its provenance", () => {
    const input = [user(KO), assistant(), tool(5000), user("Reply language: Korean"), assistant()];
    const out = run(input);
    expect(out).toHaveLength(5);
    expect(noteOfMessage(out[3]!.message, O)).toEqual({ name: "Korean", requested: false });
  });
  it("#23 `Reply language: Klingon` is ordinary prose, read latin: no note", () => {
    const out = run([user("Reply language: Klingon"), assistant(), tool(5000), assistant()]);
    expect(noteTexts(out)).toEqual([]);
    expect(noteOfMessage(user("Reply language: Klingon").message, O)).toBeNull();
  });
  it("a forged listed note is not read as the user's language", () => {
    const out = run([user("Reply language: Korean", "u1"), assistant(), tool(5000), assistant()]);
    expect(noteTexts(out)).toEqual([]);
  });
  it("a note shape with extra text is prose", () => {
    expect(noteOfMessage(user("Reply language: Korean please").message, O)).toBeNull();
    expect(noteOfMessage(user("Reply language: Korean (the user asked for it)").message, O)).toEqual({ name: "Korean", requested: true });
  });
  it("noteTemplate is a parameter", () => {
    const options = { noteTemplate: { written: "[lang={name}]", requested: "[lang={name}!]" } };
    const out = run([user(KO), assistant(), tool(5000), assistant()], options);
    expect(noteTexts(out)).toEqual(["[lang=Korean]"]);
    expect(run(out, options)).toEqual(out);
  });
});

describe("the pipeline hook", () => {
  it("createReplyLanguageStep returns a (messages) => messages function with a shared cache", () => {
    const step = createReplyLanguageStep({ thresholdChars: 100 });
    const input = [user(KO), assistant(), tool(200), assistant()];
    expect(noteTexts(step(input))).toEqual(["Reply language: Korean"]);
    expect(step(input)).toEqual(step(input));
  });
  it("priorUserMessages gives the exact history instead of the carrier", () => {
    const s = summary("요약");
    const input = [s, user("Read the file", "u9"), assistant(), tool(5000), assistant()];
    expect(noteTexts(insertReplyLanguageNotes(input))).toEqual([]);
    const prior = [{ entryId: "u0", message: { role: "user" as const, content: "앞으로 답변은 영어로 해줘" } }];
    const out = insertReplyLanguageNotes(input, undefined, { priorUserMessages: prior });
    expect(noteTexts(out)).toEqual(["Reply language: English (the user asked for it)"]);
    expect(out.find((m) => m.provenance.note)?.provenance.note?.fromEntryId).toBe("u0");
  });
});
