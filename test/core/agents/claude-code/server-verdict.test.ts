// The server's cache diagnosis Claude Code writes on assistant lines (2.1.143 and later:
// `message.diagnostics`): read per turn (the last entry of an API message), null as "nothing
// diverged", a reason with its missed tokens, a line without the field as no verdict, a malformed
// one read leniently; and carried into the prefix reports beside the rebuilt requests' break.
import { describe, expect, it } from "vitest";
import { analyzeSession } from "../../../../src/core/session/pipeline";
import { analyzeSessionPrefixes } from "../../../../src/core/session/sessionPrefixes";
import { assistant, readClaude, user } from "./helpers";

const usage = (read: number, write: number) => ({ input_tokens: 2, cache_creation_input_tokens: write, cache_read_input_tokens: read, output_tokens: 5 });

function withDiagnostics(line: ReturnType<typeof assistant>, diagnostics: unknown): Record<string, unknown> {
  return { ...line, message: { ...line.message, diagnostics } };
}

const text = (value: string) => [{ type: "text", text: value }];

const lines = [
  user("u1", null, "first"),
  withDiagnostics(assistant("a1", "u1", "m1", text("one"), usage(0, 30_000)), null),
  user("u2", "a1", "second"),
  // One API message written as two entries (FM-CC-4): the verdict is on both.
  withDiagnostics(assistant("a2a", "u2", "m2", [{ type: "thinking", thinking: "", signature: "s" }], usage(0, 40_000)), { cache_miss_reason: { type: "tools_changed", cache_missed_input_tokens: 30_500 } }),
  withDiagnostics(assistant("a2b", "a2a", "m2", text("two"), usage(0, 40_000)), { cache_miss_reason: { type: "tools_changed", cache_missed_input_tokens: 30_500 } }),
  user("u3", "a2b", "third"),
  assistant("a3", "u3", "m3", text("three"), usage(40_000, 100)),
  user("u4", "a3", "fourth"),
  withDiagnostics(assistant("a4", "u4", "m4", text("four"), usage(40_100, 80)), { cache_miss_reason: { type: 5 } }),
  user("u5", "a4", "fifth"),
  withDiagnostics(assistant("a5", "u5", "m5", text("five"), usage(40_180, 90)), { cache_miss_reason: null }),
];

describe("Claude Code server cache verdicts", () => {
  const session = readClaude(lines);
  const analysis = analyzeSession(session, {});

  it("reads each turn's verdict", () => {
    expect(session.warnings).toEqual([]);
    expect(analysis.turns.map((turn) => turn.serverVerdict ?? null)).toEqual([
      { type: "none", missedTokens: null },
      { type: "tools_changed", missedTokens: 30_500 },
      null,
      null,
      { type: "pending", missedTokens: null },
    ]);
  });

  it("puts the verdict beside the rebuilt requests' break", () => {
    const reports = analyzeSessionPrefixes(session, {}, { analysis, prefix: { tokenizer: "estimate" } });
    expect(reports.map((report) => [report.serverVerdict, report.serverMissedTokens, report.serverAgreement, report.serverBreak])).toEqual([
      ["none", null, "inconclusive", false],
      ["tools_changed", 30_500, "disagree", true],
      [null, null, "no-verdict", false],
      [null, null, "no-verdict", false],
      ["pending", null, "inconclusive", false],
    ]);
    const tools = reports[1]!;
    expect(tools.cause).toBeNull();
    expect(tools.serverNote).toMatch(/^The server says the tool definitions changed \(30,500 input tokens missed the cache\)\. The file does not record the tool definitions/);
  });
});
