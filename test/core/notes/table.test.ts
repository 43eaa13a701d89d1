// Table tests for reading a message's language (RL-2 … RL-9) and for explicit reply-language
// requests (RL-10 … RL-13), in Korean, Japanese, Chinese, Russian, English and French, with each
// disqualifier next to a positive control. Spec test-table rows are marked `#n`.
import { describe, expect, it } from "vitest";
import { checkRequest, readLanguage, resolveOptions, type ReplyLanguageOptions } from "../../../src/core/notes";

const O = resolveOptions();

type Expected = string; // a listed name, "latin" or "none"
function outcome(text: string, options: ReplyLanguageOptions = O): Expected {
  const r = readLanguage(text, options);
  return r.kind === "named" ? r.name : r.kind;
}

const ENV = "<environment_context>\n  <cwd>/home/dev/project</cwd>\n  <current_date>2026-11-29</current_date>\n</environment_context>";

const readingCases: [string, string, Expected][] = [
  // Korean
  ["#1 plain Korean", "이 함수 좀 고쳐줘", "Korean"],
  ["#2 Korean with an English term (Hangul 4 of 5)", "이 API 응답을 캐시에 저장해줘", "Korean"],
  ["#3 environment block ignored", `${ENV}\n이 함수 좀 고쳐줘`, "Korean"],
  ["#3 environment block with English inside does not decide", `<environment_context>\n  <note>please read the english notes here</note>\n</environment_context>\n버그를 고쳐줘`, "Korean"],
  ["#7 README를 counts as Latin (5 of 6)", "이 디렉터리의 파일을 확인하고 README를 요약해줘", "Korean"],
  ["Korean with file name split at the dot (2 of 4)", "README.md 파일을 읽어줘", "Korean"],
  ["one Korean word in an English line (1 of 7)", "Fix the bug in 결제 module please now", "latin"],
  ["exactly 30 % Korean (3 of 10) is named", "one two three four five six seven 하나 둘 셋", "Korean"],
  ["27 % Korean (3 of 11) is latin", "one two three four five six seven eight 하나 둘 셋", "latin"],
  ["20 % Korean (2 of 10) is latin", "one two three four five six seven eight 하나 둘", "latin"],
  ["Korean fenced code under an English line", "Please check this\n```\n// 한국어 주석 입니다 정말로\n```", "latin"],
  ["English question about Korean inline code", "What does `안녕하세요 세계 여러분` print here?", "latin"],
  ["English inline code in Korean", "`npm run build --watch` 실행하면 에러가 나", "Korean"],
  ["URL removed", "https://example.com/some/very/long/english/path 이거 확인해줘", "Korean"],
  ["Markdown link target removed, text kept", "[설계 문서](https://example.com/docs/architecture) 확인해줘", "Korean"],
  ["quoted English line removed", "> Please review this English text carefully\n이거 한국어로 번역해줘", "Korean"],
  ["quoted English span removed", "\"Hello world, this is English\" 이 문장을 번역해줘", "Korean"],
  ["curly-quoted English span removed", "“Hello world, this is English” 이 문장을 번역해줘", "Korean"],
  ["first line with one word does not decide", "ok\n이 함수 좀 고쳐줘", "Korean"],
  ["first line with two words decides (English)", "Hello there\n이 함수 좀 고쳐줘 제발 빨리", "latin"],
  ["first line with two words decides (Korean)", "이거 봐줘\nThis is a long English paragraph with many words", "Korean"],
  ["no line with two words: whole message decides", "버그\nfix", "Korean"],
  ["no line with two words: 1 of 3 Korean", "fix\n버그\nnow", "Korean"],
  ["single Korean word", "고마워", "Korean"],
  ["single English word", "thanks", "latin"],
  ["Korean log line under an English sentence (#6)", "The build fails with this:\nERROR: 빌드에 실패했습니다 파일을 찾을 수 없음", "latin"],
  ["Korean log line above an English sentence", "ERROR: 빌드에 실패했습니다 파일을 찾을 수 없음\nWhy does this happen?", "latin"],
  ["timestamped Korean log line", "2024-05-01 12:00:00 서버 시작 실패 했음\nWhy does this happen?", "latin"],
  ["bracketed time Korean log line", "[12:30:01] 연결 오류 발생 했습니다\nwhat should I do now", "latin"],
  ["Korean traceback", "Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\nValueError: 값이 잘못되었습니다 다시 시도\nwhy", "latin"],
  ["Korean shell prompt line", "$ 한국어 명령 실행 결과 입니다\nthis is weird", "latin"],
  ["Korean path:line:col line", "src/app.ts:12:5: 타입 오류 입니다 확인\nhelp me fix it", "latin"],
  ["Korean stack frame", "at 결제처리 (/src/pay.js:1:2)\nwhy is this failing", "latin"],
  ["English log line under a Korean sentence", "이 에러 좀 봐줘\nERROR: connection refused by the remote host", "Korean"],
  ["`Debug this` is prose, not a log line", "Debug this 함수 좀 봐줘", "Korean"],
  // Japanese
  ["#4 Japanese", "このバグを直してください", "Japanese"],
  ["Japanese with Katakana loanword", "この関数をリファクタリングしてください", "Japanese"],
  ["Japanese with a Latin token", "READMEを読んでください", "Japanese"],
  ["Japanese with Kanji", "東京都に住んでいます", "Japanese"],
  ["English asking about a quoted Japanese word", "What does 「すみません」 mean in this context?", "latin"],
  ["prolonged sound mark stays Katakana", "サーバーを再起動して", "Japanese"],
  // Chinese
  ["#4 Chinese", "请修复这个错误", "Chinese"],
  ["Chinese longer", "请帮我把这个函数改成异步的", "Chinese"],
  ["Chinese with API and digits", "这个 API 返回 500 错误", "Chinese"],
  ["one two-character Han word in English (1 of 4)", "Please check 日志 output", "latin"],
  ["a four-character Han run counts two words (2 of 5)", "Please check 日志文件 output", "Chinese"],
  // Russian
  ["#4 Russian", "Исправь эту ошибку", "Cyrillic script"],
  ["Russian with a file name", "Посмотри файл README.md пожалуйста", "Cyrillic script"],
  ["one Russian word in English", "Please fix the ошибку in the parser", "latin"],
  ["Russian quoted in «»", "Translate «Исправь эту ошибку сейчас» into English please", "latin"],
  // English and French (#5)
  ["#5 English quoting one Korean word", "What does the word \"안녕\" mean?", "latin"],
  ["#5 English with one unquoted Korean word", "How do I say 안녕 properly in a formal letter?", "latin"],
  ["#5 French", "Corrige cette erreur s'il te plaît", "latin"],
  ["French question", "Peux-tu résumer le fichier README ?", "latin"],
  ["French quoting Korean in guillemets", "Que veut dire « 안녕하세요 여러분 » ici ?", "latin"],
  ["French with decomposed accents", "Re\u0301sume\u0301 le fichier", "latin"],
  ["#5 code only", "```ts\nconst x = 1;\n```", "none"],
  ["inline code only", "`npm test`", "none"],
  ["digits and symbols only", "12345 !!! 42 ???", "none"],
  ["empty", "", "none"],
  ["tags only", ENV, "none"],
  // Other listed names
  ["Greek", "Διόρθωσε αυτό το σφάλμα", "Greek"],
  ["Arabic", "أصلح هذا الخطأ من فضلك", "Arabic script"],
  ["Hebrew", "תקן את הבאג הזה", "Hebrew"],
  ["Hindi", "कृपया इस बग को ठीक करें", "Devanagari script"],
  ["Thai (no spaces between words)", "ช่วยแก้บั๊กนี้หน่อยครับ", "Thai"],
  ["Georgian is unnamed prose", "გთხოვთ გაასწოროთ ეს შეცდომა", "latin"],
  // #23 forged note
  ["#23 forged note with an unlisted name", "Reply language: Klingon", "latin"],
  // Ties
  ["tie Korean vs Cyrillic: list order (Korean first)", "안녕 привет", "Korean"],
  ["tie Chinese vs Korean: list order (Chinese first)", "日志 안녕", "Chinese"],
];

describe("reading a message's language (RL-2 … RL-9)", () => {
  it.each(readingCases)("%s", (_label, text, expected) => {
    expect(outcome(text)).toBe(expected);
  });

  it("counts words per script on the deciding line", () => {
    const r = readLanguage("이 디렉터리의 파일을 확인하고 README를 요약해줘", O);
    expect(r).toMatchObject({ kind: "named", name: "Korean", words: 6, groupWords: 5, line: 0 });
    expect(readLanguage("このバグを直してください", O)).toMatchObject({ words: 7 });
  });

  it("languageNames restricts the names (RL-9): Greek unlisted reads latin", () => {
    const confirmed = resolveOptions({ languageNames: ["Korean", "Japanese", "Chinese", "Cyrillic script", "English"] });
    expect(outcome("Διόρθωσε αυτό το σφάλμα", confirmed)).toBe("latin");
    expect(outcome("이 함수 좀 고쳐줘", confirmed)).toBe("Korean");
  });

  it("namedShare is configurable (RL-8)", () => {
    const half = resolveOptions({ namedShare: 0.5 });
    expect(outcome("one two three four five six seven 하나 둘 셋", half)).toBe("latin");
    expect(outcome("one two 하나 둘", half)).toBe("Korean");
  });

  it("wholeMessageFallback off: a message without a two-word line reads none (RL-7)", () => {
    expect(outcome("고마워", resolveOptions({ wholeMessageFallback: false }))).toBe("none");
  });

  it("tokenScriptTie picks the first or last letter's script (RL-6)", () => {
    expect(outcome("ab가나")).toBe("latin");
    expect(outcome("ab가나", resolveOptions({ tokenScriptTie: "last-letter" }))).toBe("Korean");
  });

  it("noSpaceRounding floor rounds a seven-character run down (RL-6)", () => {
    const floor = resolveOptions({ noSpaceRounding: "floor" });
    expect(readLanguage("请修复这个错误", floor)).toMatchObject({ words: 3 });
    expect(readLanguage("请修复这个错误", O)).toMatchObject({ words: 4 });
  });

  it("Thai can be removed from the scripts without spaces (RL-6)", () => {
    const noThai = resolveOptions({ noSpaceScripts: ["Han", "Hiragana", "Katakana"] });
    expect(readLanguage("ช่วยแก้บั๊กนี้หน่อยครับ", noThai)).toMatchObject({ kind: "named", name: "Thai", words: 1 });
  });

  it("logLinePatterns is a parameter (RL-3)", () => {
    const none = resolveOptions({ logLinePatterns: [] });
    expect(outcome("The build fails with this:\nERROR: 빌드에 실패했습니다 파일을 찾을 수 없음", none)).toBe("latin");
    expect(outcome("ERROR: 빌드에 실패했습니다 파일을 찾을 수 없음\nWhy does this happen?", none)).toBe("Korean");
  });

  it("quotedSpanScope text pairs quotes across lines (RL-2)", () => {
    const text = "\"Please keep this\nEnglish text\" 이 문장을 번역해줘";
    expect(outcome(text)).toBe("latin");
    expect(outcome(text, resolveOptions({ quotedSpanScope: "text" }))).toBe("Korean");
  });

  it("splitTokensAtPunctuation off keeps README.md as one token (RL-5)", () => {
    expect(readLanguage("README.md 파일을 읽어줘", resolveOptions({ splitTokensAtPunctuation: false }))).toMatchObject({ words: 3 });
  });
});

type RequestExpected = [string | null, string | null]; // [language, rejectedBy]
const requestCases: [string, string, RequestExpected][] = [
  // Positive shapes (RL-12)
  ["#8 Korean, English requested", "영어로 답해줘", ["English", null]],
  ["#8 English, Korean requested", "please reply in Korean from now on", ["Korean", null]],
  ["#9 lead words", "앞으로 답변은 영어로 해줘", ["English", null]],
  ["이제부터 + polite verb + period", "이제부터 한국어로 답해주세요.", ["Korean", null]],
  ["지금부터 + 대답해줘", "지금부터 일본어로 대답해줘", ["Japanese", null]],
  ["중국어로 답변해줘!", "중국어로 답변해줘!", ["Chinese", null]],
  ["러시아어 → Cyrillic script", "러시아어로 답해 줘", ["Cyrillic script", null]],
  ["한글로 해주세요", "한글로 해주세요", ["Korean", null]],
  ["대답은 lead", "대답은 영어로 해 줘", ["English", null]],
  ["Please answer in Japanese.", "Please answer in Japanese.", ["Japanese", null]],
  ["respond in Chinese", "respond in Chinese", ["Chinese", null]],
  ["Reply in Russian from now on", "Reply in Russian from now on", ["Cyrillic script", null]],
  ["from now on, lead", "From now on, reply in English", ["English", null]],
  ["from now on + please", "From now on, please answer in Japanese!", ["Japanese", null]],
  ["write your answers in", "write your answers in Korean", ["Korean", null]],
  ["upper case", "PLEASE REPLY IN ENGLISH", ["English", null]],
  ["#13 directive on the first line, question after", "영어로 답해줘\n이 함수는 뭐해?", ["English", null]],
  ["directive on the last line", "이 함수 설명해줘\n한국어로 답해주세요", ["Korean", null]],
  ["second sentence of the first line", "고마워. 앞으로 영어로 답해줘.", ["English", null]],
  ["tagged block removed before counting lines", `${ENV}\n영어로 답해줘`, ["English", null]],
  ["fenced code removed before counting lines", "```\na\nb\nc\nd\n```\n영어로 답해줘", ["English", null]],
  ["fullwidth question mark ends a sentence", "이거 뭐야？영어로 답해줘", ["English", null]],
  // Negations and other tasks (RL-13)
  ["#10 Korean negation", "영어로 답하지 마", [null, "negation"]],
  ["Korean negation 말아줘", "영어로 답하지 말아줘", [null, "negation"]],
  ["negation in another sentence vetoes", "영어로 답해줘. 아니 영어로 답하지 마", [null, "negation"]],
  ["#10 don't (apostrophe is a quotation mark)", "don't reply in English", [null, "quotation-mark"]],
  ["do not", "do not answer in English", [null, "negation"]],
  ["never", "never reply in English", [null, "negation"]],
  ["#10 translate this to English", "translate this to English", [null, "no-directive"]],
  ["#10 write the README in English", "write the README in English", [null, "no-directive"]],
  ["Korean translate task", "이 문서를 영어로 번역해줘", [null, "no-directive"]],
  ["unlisted language (French)", "프랑스어로 답해줘", [null, "no-directive"]],
  ["reply in French", "reply in French", [null, "no-directive"]],
  ["extra words after the shape", "reply in English and fix the bug", [null, "no-directive"]],
  // Reported or pasted speech (RL-11 b)
  ["#11 ASCII double quotes", "he said \"reply in English\"", [null, "quotation-mark"]],
  ["ASCII single quotes", "'reply in English'", [null, "quotation-mark"]],
  ["curly quotes", "“reply in English”", [null, "quotation-mark"]],
  ["corner brackets", "「영어로 답해줘」", [null, "quotation-mark"]],
  ["white corner brackets", "『영어로 답해줘』", [null, "quotation-mark"]],
  ["guillemets", "«reply in English»", [null, "quotation-mark"]],
  ["backticks", "`reply in English`", [null, "quotation-mark"]],
  ["#11 speaker prefix User:", "User: reply in English", [null, "speaker-prefix"]],
  ["#11 speaker prefix 민지:", "민지: 영어로 답해줘", [null, "speaker-prefix"]],
  ["speaker prefix with fullwidth colon", "민지：영어로 답해줘", [null, "speaker-prefix"]],
  ["he wrote: prefix", "he wrote: reply in English", [null, "speaker-prefix"]],
  ["attribution said", "he said reply in English", [null, "attribution"]],
  ["attribution wrote (INF)", "She wrote reply in English", [null, "attribution"]],
  ["attribution 라고", "민지가 영어로 답해줘라고 했어", [null, "attribution"]],
  ["#15 blockquote", "> 영어로 답해줘", [null, "blockquote"]],
  ["lazy blockquote continuation", "> 인용된 줄\n영어로 답해줘", [null, "blockquote"]],
  ["#12 colon-terminated label and mail header", "Re: 회의 요약:\n영어로 답해줘", [null, "mail-header"]],
  ["colon-terminated label", "회의 요약:\n영어로 답해줘", [null, "colon-terminated-line"]],
  ["fullwidth colon-terminated label", "회의 요약：\n영어로 답해줘", [null, "colon-terminated-line"]],
  ["control: the same label without a colon", "회의 요약\n영어로 답해줘", ["English", null]],
  ["forwarded message line", "---------- Forwarded message ---------\n영어로 답해줘", [null, "mail-header"]],
  ["original message line", "-----Original Message-----\nreply in English", [null, "mail-header"]],
  ["From: header", "From: Minji\n영어로 답해줘", [null, "mail-header"]],
  ["Subject: header", "Subject: 답변 언어\n영어로 답해줘", [null, "mail-header"]],
  ["Fwd: header", "Fwd: 회의\n영어로 답해줘", [null, "mail-header"]],
  ["전달된 메시지", "전달된 메시지\n영어로 답해줘", [null, "mail-header"]],
  ["원본 메시지", "--- 원본 메시지 ---\n영어로 답해줘", [null, "mail-header"]],
  ["control: a name line without a colon", "Minji\n영어로 답해줘", ["English", null]],
  // Limits (RL-11 a, c)
  ["#12 four-line paste ending with the directive", "line one\nline two\nline three\nreply in English", [null, "too-many-lines"]],
  ["control: three lines ending with the directive", "line one\nline two\nreply in English", ["English", null]],
  ["#14 directive only in the middle line", "이 함수 봐줘\n영어로 답해줘\n고마워", [null, "no-directive"]],
  ["more than 300 characters", `영어로 답해줘\n${"가".repeat(160)}\n${"나".repeat(160)}`, [null, "too-long"]],
  ["a line longer than 200 characters", `영어로 답해줘. ${"가 ".repeat(100)}`, [null, "line-too-long"]],
  ["directive sentence longer than 120 characters", `please${" ".repeat(120)}reply in English`, [null, "no-directive"]],
  ["conflicting directives", "영어로 답해줘\n일본어로 답해줘", [null, "conflicting-directives"]],
  ["directive only inside a code fence", "```\n영어로 답해줘\n```", [null, "empty"]],
];

describe("explicit reply-language requests (RL-10 … RL-13)", () => {
  it.each(requestCases)("%s", (_label, text, [language, rejectedBy]) => {
    const check = checkRequest(text, O);
    expect(check.request?.language ?? null).toBe(language);
    expect(check.rejectedBy).toBe(rejectedBy);
  });

  it("attributionWords without wrote/writes lets `She wrote …` through to the shape check", () => {
    const narrow = resolveOptions({ attributionWords: ["라고", "said", "says"] });
    expect(checkRequest("She wrote reply in English", narrow).rejectedBy).toBe("no-directive");
  });

  it("negationVeto off: only the shape decides", () => {
    const off = resolveOptions({ negationVeto: false });
    expect(checkRequest("영어로 답해줘. 아니 영어로 답하지 마", off).request?.language).toBe("English");
    expect(checkRequest("영어로 답하지 마", off).request).toBeNull();
  });

  it("the request word table maps onto listed names only", () => {
    const noRussian = resolveOptions({ languageNames: ["Korean", "English"] });
    expect(checkRequest("러시아어로 답해줘", noRussian).request).toBeNull();
    expect(checkRequest("영어로 답해줘", noRussian).request?.language).toBe("English");
  });

  it("reports the directive sentence and line", () => {
    expect(checkRequest("이 함수 설명해줘\n한국어로 답해주세요.", O).request).toEqual({
      language: "Korean",
      sentence: "한국어로 답해주세요",
      line: "last",
    });
  });
});
