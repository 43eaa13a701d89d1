// No control sequence from a session or a file name reaches a terminal: a pi session whose user
// text, tool output and file name carry clear-screen, an OSC 52 clipboard write, an OSC 8 link,
// a C1 CSI (U+009B), NUL and bidi overrides is run through commands that print text, JSON and
// warnings; no raw control byte is written to either stream, JSON output still parses to the
// original strings, and the escapes are visible.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { safeErrorText, safeOutputText } from "../../src/cli/terminalText";
import { runCliCaptured } from "./cli-helpers";

const ESC = "\u001b";
const HOSTILE = `${ESC}[2J${ESC}]52;c;ZWNobyBwd25lZA==\u0007${ESC}]8;;https://evil.example\u0007link${ESC}]8;;\u0007\u009b31m\u0000\u202eevil\u2066x\u2069`;
/** Any byte a terminal acts on, other than line feed, tab and (on standard error) carriage return. */
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function hostileSession(): string {
  const folder = mkdtempSync(path.join(tmpdir(), "terminal-text-"));
  const file = path.join(folder, `session-${ESC}[31m-\u202e.jsonl`);
  const lines = [
    { type: "session", version: 3, id: "hostile-terminal", timestamp: "2026-12-01T10:00:00.000Z", cwd: `/tmp/${HOSTILE}` },
    { type: "message", id: "u1", parentId: null, timestamp: "2026-12-01T10:00:01.000Z", message: { role: "user", content: [{ type: "text", text: `hello ${HOSTILE}` }], timestamp: 1 } },
    {
      type: "message",
      id: "a1",
      parentId: "u1",
      timestamp: "2026-12-01T10:00:02.000Z",
      message: {
        role: "assistant",
        content: [{ type: "text", text: `answer ${HOSTILE}` }],
        provider: "anthropic",
        model: `claude-sonnet-4-5${HOSTILE}`,
        api: "anthropic-messages",
        usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 110 },
        stopReason: "stop",
        timestamp: 2,
      },
    },
  ];
  writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n{not json ${HOSTILE}\n`);
  return file;
}

describe("text the CLI writes", () => {
  it("escapes C0, C1 and bidi controls visibly, keeping line feeds and tabs", () => {
    expect(safeOutputText(`a${ESC}[2Jb\u009bc\u202ed\te\nf\rg`)).toBe("a\\x1b[2Jb\\u009bc\\u202ed\te\nf\\x0dg");
    expect(safeErrorText("progress\r")).toBe("progress\r");
    expect(safeErrorText(`${ESC}]52;c;x\u0007`)).toBe("\\x1b]52;c;x\\x07");
  });

  it("leaves JSON valid and equal to the original strings", () => {
    const json = JSON.stringify({ text: `x\u009by\u202ez\u2066` });
    const safe = safeOutputText(json);
    expect(RAW_CONTROL.test(safe)).toBe(false);
    expect(JSON.parse(safe)).toEqual({ text: `x\u009by\u202ez\u2066` });
  });

  it.each([
    ["requests", []],
    ["check", []],
    ["check", ["--format", "github"]],
    ["prefix", ["--tokenizer", "estimate"]],
    ["threads", []],
  ])("%s %j writes no raw control byte from a hostile session or its file name", async (command, flags) => {
    const file = hostileSession();
    const run = await runCliCaptured([command, file, ...flags]);
    expect(run.stdout.length + run.stderr.length).toBeGreaterThan(0);
    expect(RAW_CONTROL.test(run.stdout)).toBe(false);
    expect(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/.test(run.stderr)).toBe(false);
  });

  it("shows the escapes where the session's text is printed", async () => {
    const file = hostileSession();
    const run = await runCliCaptured(["requests", file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("\\u009b31m");
    // The JSON lines still parse to the session's own text.
    expect(run.lines.some((line) => JSON.stringify(line).includes("\\u001b]52;c;ZWNobyBwd25lZA=="))).toBe(true);
  });

  it("escapes a file name in an error", async () => {
    const run = await runCliCaptured(["requests", `/nonexistent/${ESC}]52;c;eA==\u0007.jsonl`]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("\\x1b]52;c;eA==\\x07");
    expect(RAW_CONTROL.test(run.stderr)).toBe(false);
  });
});
