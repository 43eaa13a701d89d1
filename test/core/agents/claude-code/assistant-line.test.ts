// An assistant line read without its content must be the whole line's record but for the content,
// or nothing (then the line is parsed whole): checked on every assistant line of the Claude Code
// transcripts we have, and on lines made so that a cut would go wrong.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { assistantRecordWithoutContent } from "../../../../src/core/agents/claude-code/assistant-line";
import { sharedFixtures } from "../../../support/fixtures";

function jsonlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const file = path.join(dir, name);
      return statSync(file).isDirectory() ? jsonlFiles(file) : name.endsWith(".jsonl") ? [file] : [];
    });
}

const shared = sharedFixtures();
const folders = [path.resolve("test/fixtures/claude"), ...(shared ? ["claude", "realworld/claude-code", "realworld-next/claude-code"].map((name) => path.join(shared.dir, name)) : [])];

const withoutContent = (record: Record<string, unknown>) => ({ ...record, message: { ...(record.message as object), content: null } });

describe("an assistant line without its content", () => {
  it("is the whole line's record but for the content, on every assistant line we have", () => {
    let read = 0;
    let assistant = 0;
    for (const file of folders.flatMap(jsonlFiles)) {
      for (const line of readFileSync(file, "utf8").split("\n")) {
        if (!line.includes('"assistant"')) continue;
        let whole: Record<string, unknown>;
        try {
          whole = JSON.parse(line) as Record<string, unknown>;
        } catch {
          expect(assistantRecordWithoutContent(line)).toBeUndefined();
          continue;
        }
        if (whole.type !== "assistant") continue;
        assistant++;
        const cut = assistantRecordWithoutContent(line);
        if (cut === undefined) continue;
        read++;
        expect(cut).toEqual(withoutContent(whole));
      }
    }
    // Nearly every assistant line is laid out as Claude Code writes them.
    expect(assistant).toBeGreaterThan(1000);
    expect(read / assistant).toBeGreaterThan(0.95);
  });

  const line = (content: string, after = '"stop_reason":"end_turn","usage":{"input_tokens":3}') => `{"parentUuid":null,"isSidechain":false,"message":{"model":"m","id":"msg_1","type":"message","role":"assistant","content":${content},${after}},"type":"assistant","uuid":"u"}`;

  it("reads a line laid out as Claude Code writes it", () => {
    expect(assistantRecordWithoutContent(line('[{"type":"text","text":"hi \\"there\\""}]'))).toEqual({
      parentUuid: null,
      isSidechain: false,
      message: { model: "m", id: "msg_1", type: "message", role: "assistant", content: null, stop_reason: "end_turn", usage: { input_tokens: 3 } },
      type: "assistant",
      uuid: "u",
    });
  });

  it("leaves a line to a whole parse when the cut would not be the content alone", () => {
    // No stop_reason after the content, but one inside a tool's input: the cut is unbalanced.
    expect(assistantRecordWithoutContent(line('[{"type":"tool_use","input":{"a":1,"stop_reason":"x"}}]', '"usage":{"input_tokens":3}'))).toBeUndefined();
    // Usage or the verdict inside what would be cut.
    expect(assistantRecordWithoutContent(line('[{"type":"tool_use","input":{"usage":{"input_tokens":9}}}]'))).toBeUndefined();
    expect(assistantRecordWithoutContent(line("[]", '"diagnostics":null,"stop_reason":"end_turn","usage":{"input_tokens":3}'))).toBeUndefined();
    // Fields before the content that are not plain, or a line of another shape.
    expect(assistantRecordWithoutContent(line("[]").replace('"parentUuid":null', '"parentUuid":{"x":1}'))).toBeUndefined();
    expect(assistantRecordWithoutContent('{"type":"progress","data":{"message":{"content":[],"stop_reason":null}}}')).toBeUndefined();
    expect(assistantRecordWithoutContent("not json")).toBeUndefined();
  });
});
