import { describe, expect, it } from "vitest";
import type { AgentMessage, UserMessage } from "../../../../src/core/model";
import { convertProjected, convertToLlm, renderBashExecution } from "../../../../src/core/agents/pi/convert";
import type { ProjectedMessage } from "../../../../src/core/agents/pi/projection";

function projected(message: AgentMessage, entryId = "e1"): ProjectedMessage {
  return { message, entryId, line: 7, source: "message", editedBy: null, hidden: false, original: null };
}
function onlyText(message: AgentMessage): string {
  const converted = convertProjected(projected(message), "pi");
  const content = (converted.context?.message as UserMessage).content as { text: string }[];
  expect(content).toHaveLength(1);
  return content[0]!.text;
}
const bash = (extra: Partial<Extract<AgentMessage, { role: "bashExecution" }>>): AgentMessage => ({
  role: "bashExecution",
  command: "ls",
  output: "",
  exitCode: 0,
  cancelled: false,
  truncated: false,
  timestamp: 5,
  ...extra,
});

describe("convertToLlm (spec §3, test table rows 6–10)", () => {
  it("row 6: compaction summary wrapper, byte-exact", () => {
    expect(onlyText({ role: "compactionSummary", summary: "abc", tokensBefore: 1, timestamp: 3 })).toBe(
      "The conversation history before this point was compacted into the following summary:\n\n<summary>\nabc\n</summary>",
    );
  });

  it("row 7: branch summary wrapper, no newline before the closing tag", () => {
    expect(onlyText({ role: "branchSummary", summary: "xyz", fromId: "f", timestamp: 3 })).toBe(
      "The following is a summary of a branch that this conversation came back from:\n\n<summary>\nxyz</summary>",
    );
  });

  it("row 8: bash with empty output and exit code 2", () => {
    expect(JSON.stringify(onlyText(bash({ exitCode: 2 })))).toBe('"Ran \\u0060ls\\u0060\\n(no output)\\n\\nCommand exited with code 2"'.replace(/\\u0060/g, "`"));
  });

  it("row 9: bash excluded from context is dropped (shown as dropped)", () => {
    const converted = convertProjected(projected(bash({ excludeFromContext: true, output: "x" })), "pi");
    expect(converted.context).toBeNull();
    expect(converted.dropped).toMatchObject({ reason: "excluded-from-context", ruleId: "PI-C2", entryId: "e1" });
  });

  it("row 10: bash output fenced, truncated with full output path", () => {
    expect(onlyText(bash({ output: "a", truncated: true, fullOutputPath: "/t/o" }))).toBe(
      "Ran `ls`\n```\na\n```\n\n[Output truncated. Full output: /t/o]",
    );
  });

  it("PI-C2: cancelled wins over the exit code; output is verbatim", () => {
    expect(renderBashExecution(bash({ output: " x \n", cancelled: true, exitCode: 130 }) as never)).toBe(
      "Ran `ls`\n```\n x \n\n```\n\n(command cancelled)",
    );
  });

  it("PI-C1: user, assistant and toolResult pass through as the same object; provenance names the entry", () => {
    const message: AgentMessage = { role: "user", content: "hi", timestamp: 1 };
    const converted = convertProjected(projected(message, "u9"), "pi");
    expect(converted.context?.message).toBe(message);
    expect(converted.context?.provenance).toMatchObject({ rule: "entry", entryId: "u9" });
  });

  it("PI-C3 / PI-C7: custom content string → one text block, with render:custom provenance and its type", () => {
    const converted = convertProjected(projected({ role: "custom", customType: "environment-context", content: "env", display: false, timestamp: 9 }), "pi");
    expect(converted.context?.message).toEqual({ role: "user", content: [{ type: "text", text: "env" }], timestamp: 9 });
    expect(converted.context?.provenance).toMatchObject({ rule: "render:custom", customType: "environment-context", ruleId: "PI-C3" });
  });

  it("PI-C7: summaries and bash carry their wrapper rule in provenance", () => {
    const result = convertToLlm(
      [
        projected({ role: "compactionSummary", summary: "s", tokensBefore: 1 }, "c"),
        projected({ role: "branchSummary", summary: "s", fromId: "x" }, "b"),
        projected(bash({}), "x"),
      ],
      "pi",
    );
    expect(result.messages.map((m) => m.provenance.rule)).toEqual(["wrap:compaction-summary", "wrap:branch-summary", "render:bash"]);
  });

  it("PI-C6: unknown roles are dropped with a warning naming the entry line", () => {
    const result = convertToLlm([projected({ role: "weird" } as unknown as AgentMessage)], "pi");
    expect(result.messages).toEqual([]);
    expect(result.warnings[0]).toMatchObject({ line: 7 });
    // senpi passes `system` through (SP-C1)
    const senpi = convertToLlm([projected({ role: "system", content: "s" } as unknown as AgentMessage)], "senpi");
    expect(senpi.messages).toHaveLength(1);
  });

  it("caches the converted message per source object", () => {
    const message: AgentMessage = { role: "compactionSummary", summary: "s", tokensBefore: 1 };
    const first = convertProjected(projected(message), "pi");
    const second = convertProjected(projected(message), "pi");
    expect(second.context).toBe(first.context);
    expect(second.context?.message).toBe(first.context?.message);
  });
});
