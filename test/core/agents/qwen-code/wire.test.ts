// Qwen Code's send-time parts checked against the real CLI's recorded requests
// (../shared/fixtures/qwen-code/p-continue-autocompress): the max_tokens clamp rebuilt from the
// counts the chat file records, and the compression request rebuilt from the file with only the
// two constants of Qwen Code's code (its prompt and its max_tokens) left to a capture.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { factsOfCaptures } from "../../../../src/app/captureVerify";
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
});
