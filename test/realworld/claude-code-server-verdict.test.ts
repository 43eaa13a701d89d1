// The server's cache verdicts of a real Claude Code 2.1.143 transcript
// (../shared/fixtures/realworld-next/claude-code/pshung-…): every main-thread turn carries the
// verdict its assistant line records, read here from the raw lines independently of the reader
// (`message.diagnostics`: null, or a `cache_miss_reason`); the turn the server says missed 97,848
// tokens because the tools changed shows a break whose words name that verdict, although the
// rebuilt requests (the file records no tool definitions) show none.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { readSessionText } from "../../src/core/session/index";
import { analyzeSession } from "../../src/core/session/pipeline";
import { analyzeSessionPrefixes } from "../../src/core/session/sessionPrefixes";
import { describeShared } from "../support/fixtures";

type Line = Record<string, unknown>;
const FILE = "realworld-next/claude-code/pshung-v2.1.143-2compactions-4subagents.jsonl";

function isObject(value: unknown): value is Line {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Each main-thread API message's recorded verdict type, by message id, from the raw lines. */
function rawVerdicts(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.split("\n")) {
    if (raw.trim() === "") continue;
    const line = JSON.parse(raw) as Line;
    const message = isObject(line.message) ? line.message : null;
    if (line.type !== "assistant" || line.isSidechain === true || !message || !("diagnostics" in message)) continue;
    const reason = isObject(message.diagnostics) && isObject(message.diagnostics.cache_miss_reason) ? message.diagnostics.cache_miss_reason : null;
    out.set(String(message.id), message.diagnostics === null ? "none" : String(reason?.type));
  }
  return out;
}

describeShared("server cache verdicts of a real Claude Code 2.1.143 transcript", (shared) => {
  const file = path.join(shared.dir, FILE);
  const text = readFileSync(file, "utf8");
  const session = readSessionText(text, path.basename(file));
  const analysis = analyzeSession(session, {});
  const byEntry = new Map(session.entries.map((entry) => [entry.id, entry]));

  it("every turn carries the verdict its assistant line records", () => {
    const expected = rawVerdicts(text);
    expect(new Set(expected.values())).toEqual(new Set(["none", "unavailable", "previous_message_not_found", "tools_changed"]));
    expect(analysis.turns.length).toBeGreaterThan(100);
    for (const turn of analysis.turns) {
      const message = byEntry.get(turn.entryId)!.raw.message as Line;
      expect(turn.serverVerdict?.type, `turn ${turn.turn}`).toBe(expected.get(String(message.id)));
    }
  });

  it("the tools_changed turn shows a break naming the server's verdict", () => {
    const reports = analyzeSessionPrefixes(session, {}, { analysis, prefix: { tokenizer: "estimate" } });
    const tools = reports.filter((report) => report.serverVerdict === "tools_changed");
    expect(tools).toHaveLength(1);
    const report = tools[0]!;
    expect(report).toMatchObject({ serverMissedTokens: 97_848, serverBreak: true, serverAgreement: "disagree", cause: null });
    expect(report.serverNote).toContain("The server says the tool definitions changed (97,848 input tokens missed the cache)");
    expect(report.serverNote).toContain("the difference is in something the transcript does not record");
    // Every other verdict naming nothing diverged agrees with the rebuilt requests showing no break.
    const none = reports.filter((report) => report.serverVerdict === "none" && report.turn > 1);
    expect(none.length).toBeGreaterThan(100);
    expect(none.filter((report) => report.serverAgreement !== "agree").map((report) => report.turn)).toEqual([]);
  });
});
