// Real Codex rollouts published by users (../shared/fixtures/realworld/codex, README.md there):
// every file opens, and its turn and compaction counts equal the figures counted here from the
// raw lines as that README says — one turn per model response (distinct consecutive token_count
// totals; without usage records, each run of model output items between inputs), one compaction
// per `compacted` line — both in the core and through `requests`. A structure Codex normally
// writes is never a warning.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { analyzeSession } from "../../src/core/session/pipeline";
import { readSessionText } from "../../src/core/session/index";
import { runCliCaptured } from "../cli/cli-helpers";
import { describeShared } from "../support/fixtures";

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** Output item types of the Responses API (what the model writes, as opposed to inputs). */
const MODEL_OUTPUT = new Set(["reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call", "image_generation_call"]);

/** The figures of the README, counted from the raw lines without the project's reader. */
function expectedCounts(text: string): { turns: number; compactions: number } {
  const lines = text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as Json);
  let compactions = 0;
  const totals: number[] = [];
  let runs = 0;
  let inRun = false;
  for (const line of lines) {
    const envelope = typeof line.type === "string" && isJson(line.payload);
    const payload = envelope ? (line.payload as Json) : line;
    if (envelope && line.type === "compacted") compactions++;
    if (envelope && line.type === "event_msg" && payload.type === "token_count" && isJson(payload.info)) {
      const total = (payload.info.total_token_usage as Json | undefined)?.total_tokens;
      if (typeof total === "number" && totals[totals.length - 1] !== total) totals.push(total);
    }
    // Items: envelope response_items, or the bare items of a pre-envelope rollout.
    let item: Json | null = null;
    if (envelope && line.type === "response_item") item = payload;
    else if (envelope && line.type === "event_msg" && payload.type === "user_message") item = { type: "message", role: "user" };
    else if (!envelope && typeof line.type === "string") item = line;
    if (item === null) continue;
    const isOutput = MODEL_OUTPUT.has(String(item.type)) || (item.type === "message" && item.role === "assistant");
    if (isOutput && !inRun) runs++;
    inRun = isOutput;
  }
  return { turns: totals.length > 0 ? totals.length : runs, compactions };
}

describeShared("real Codex rollouts (../shared/fixtures/realworld/codex)", (shared) => {
  const dir = shared.path("realworld/codex");
  const files = readdirSync(dir).filter((name) => name.endsWith(".jsonl")).sort();

  it("the folder holds rollouts", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  for (const name of files) {
    const file = path.join(dir, name);
    it(`${name}: opens with the README's turn and compaction counts, in core and through requests`, async () => {
      const text = readFileSync(file, "utf8");
      const expected = expectedCounts(text);
      const session = readSessionText(text, name);
      expect(session.formatId).toBe("codex");
      const analysis = analyzeSession(session, { profile: "pi" });
      expect(analysis.turns.length).toBe(expected.turns);
      expect(analysis.timeline.filter((item) => item.kind === "compaction").length).toBe(expected.compactions);
      expect(session.warnings).toEqual([]);
      // The one thing a published file may really lack: prompts its publisher trimmed away.
      expect(analysis.warnings.filter((warning) => !/user_message event\(s\) without the user message item/.test(warning.reason))).toEqual([]);

      const run = await runCliCaptured(["requests", file]);
      expect(run.code).toBe(0);
      expect(run.lines.filter((line) => "turn" in line)).toHaveLength(expected.turns);
      expect(run.lines.filter((line) => line.kind === "compaction")).toHaveLength(expected.compactions);
    });
  }

  it("the pre-envelope rollout of 2025-09 has no warning at all; the Desktop rollout names only its trimmed prompts", () => {
    const legacy = readSessionText(readFileSync(path.join(dir, "acidicsoil-legacy-2025-09.jsonl"), "utf8"), "legacy.jsonl");
    expect(analyzeSession(legacy, { profile: "pi" }).warnings).toEqual([]);
    const desktop = readSessionText(readFileSync(path.join(dir, "codemie-rollout-0.128-desktop.jsonl"), "utf8"), "desktop.jsonl");
    const warnings = analyzeSession(desktop, { profile: "pi" }).warnings;
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.reason).toMatch(/^3 user_message event\(s\) without the user message item .*\(lines 2, 31, 33;/);
  });
});
