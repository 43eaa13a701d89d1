// Qwen Code's send-time parts checked against the real CLI's recorded requests
// (../shared/fixtures/qwen-code/p-continue-autocompress): the max_tokens clamp rebuilt from the
// counts the chat file records, and the compression request rebuilt from the file with only the
// two constants of Qwen Code's code (its prompt and its max_tokens) left to a capture.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { factsOfCaptures, verifySession, type VerifyCapture } from "../../../../src/app/captureVerify";
import { findAgent } from "../../../../src/core/session/agents";
import { readSessionText } from "../../../../src/core/session/index";
import { buildTurnRequest } from "../../../../src/core/session/pipeline";
import { describeShared, findSessionFile } from "../../../support/fixtures";

const sorted = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(sorted) : value && typeof value === "object" ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, sorted(v)])) : value;

describeShared("Qwen Code requests against the wire", (shared) => {
  const fixture = shared.case("qwen-code/p-continue-autocompress");
  const session = () => readSessionText(readFileSync(findSessionFile(`${fixture.dir}/session`, ".jsonl"), "utf8"), "chat.jsonl")!;
  // Facts from the first main capture only, as verify takes them.
  const mains = fixture.requests("main");
  const facts = factsOfCaptures([{ source: mains[0]!.file, body: mains[0]!.body, kind: "main" }]);
  const options = { header: facts.header, captures: facts.captures };

  it("sends max_tokens clamped to the room left: 4,000 right after the compression, the ceiling elsewhere", () => {
    const s = session();
    const sent = mains.map((request) => (request.body as { max_tokens: number }).max_tokens);
    const rebuilt = mains.map((_, i) => buildTurnRequest(s, options, i + 1).body.max_tokens);
    expect(sent.filter((value) => value === 4000)).toHaveLength(1);
    expect(rebuilt).toEqual(sent);
  });

  it("rebuilds the compression request from the file; only the prompt and its max_tokens are not recorded", () => {
    const s = session();
    const summary = fixture.requests("summary")[0]!.body as { messages: { content: unknown[] }[]; max_tokens: number };
    const built = findAgent(s.formatId)!.auxiliary!.build(s, options, 0, []);
    expect(built.request.notRecorded).toEqual(["compression prompt", "max_tokens"]);
    const body = built.request.body as { messages: { content: unknown[] }[]; max_tokens: unknown };
    // Put the two constants of Qwen Code's code in from the capture: every other byte is the file's.
    body.messages[body.messages.length - 1]!.content = summary.messages[summary.messages.length - 1]!.content;
    body.max_tokens = summary.max_tokens;
    expect(JSON.stringify(sorted(body))).toBe(JSON.stringify(sorted(summary)));
  });

  // A file made by a shell command appears in a later process's folder listing; the chat file records
  // only the command. Planted in the recorded wire of the last request: that one difference is
  // declared, with Qwen Code's reason; a difference elsewhere in the same text is not.
  const LISTING = "Here is the folder structure of the current working directories:";
  function planted(change: (text: string) => string): VerifyCapture[] {
    const captures: VerifyCapture[] = fixture.requests().map((request) => ({ source: request.file, body: structuredClone(request.body), kind: request.kind ?? null }));
    const last = [...captures].reverse().find((capture) => capture.kind === "main" && JSON.stringify(capture.body).includes(LISTING))!;
    const body = last.body as { messages: { content: unknown }[] };
    let changed = 0;
    for (const message of body.messages) {
      if (!Array.isArray(message.content)) continue;
      for (const block of message.content as { text?: string }[]) {
        if (typeof block.text === "string" && block.text.includes(LISTING)) {
          block.text = change(block.text);
          changed += 1;
        }
      }
    }
    expect(changed).toBe(1);
    return captures;
  }

  it("a file in the folder listing that the chat file cannot know is declared, and nothing else in that text is", () => {
    const s = session();
    const shellMade = verifySession(s, {}, planted((text) => text.replace("├───CHANGELOG.md\n", "├───CHANGELOG.md\n├───SUMMARY.md\n")));
    const mainVerdicts = shellMade.filter((result) => result.kind === "main").map((result) => result.verdict);
    expect(mainVerdicts.filter((verdict) => verdict === "declared")).toHaveLength(1);
    expect(mainVerdicts.filter((verdict) => verdict !== "equal" && verdict !== "declared")).toEqual([]);
    const declared = shellMade.find((result) => result.verdict === "declared")!;
    expect(declared.declared[0]!.reason).toContain("files made by shell commands");

    const elsewhere = verifySession(s, {}, planted((text) => text.replace("My operating system is: linux", "My operating system is: darwin")));
    expect(elsewhere.filter((result) => result.verdict === "differs")).toHaveLength(1);
    expect(elsewhere.filter((result) => result.verdict === "declared")).toHaveLength(0);
  });
});
