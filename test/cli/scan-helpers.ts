// Helpers of the scan tests: the documented key order of a scan line, and a folder of sessions
// (a Claude Code session with its sub-agent file, a Codex rollout, a pi session, a file that is
// not a session).
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fixtureCase } from "../support/fixtures";
import { assistant, SESSION_ID, toText, user } from "../core/agents/claude-code/helpers";

export const SCAN_KEYS = [
  "file",
  "agent",
  "project",
  "turns",
  "compactions",
  "threads",
  "breaks",
  "breaksByCause",
  "serverVerdicts",
  "unexplainedMisses",
  "predictedCachedTokens",
  "recordedCachedTokens",
  "cost",
  "recordedInputTokens",
  "requestTokens",
  "tokenizer",
  "warnings",
  "with",
  "sideFiles",
  "error",
  "wholeSession",
  "reportedBreaks",
  "pass",
];

const taskCall = (id: string, description: string) => ({ type: "tool_use", id, name: "Task", input: { description, prompt: description, subagent_type: "general-purpose" } });

/** Writes the scan folder; returns its path and the files in it. */
export function makeScanFolder() {
  const root = mkdtempSync(path.join(tmpdir(), "contextscope-scan-test-"));
  const project = path.join(root, "claude", "projects", "-home-dev-p");
  mkdirSync(path.join(project, SESSION_ID, "subagents"), { recursive: true });
  const claudeMain = path.join(project, `${SESSION_ID}.jsonl`);
  writeFileSync(
    claudeMain,
    toText([
      user("u1", null, "review this"),
      assistant("a1", "u1", "msg_1", [taskCall("t2", "Check tests")]),
      user("r2", "a1", [{ type: "tool_result", tool_use_id: "t2", content: "launched" }], {
        toolUseResult: { isAsync: true, status: "async_launched", agentId: "agent2", description: "Check tests" },
      }),
      assistant("a2", "r2", "msg_2", [{ type: "text", text: "started" }]),
    ]),
  );
  const claudeSub = path.join(project, SESSION_ID, "subagents", "agent-agent2.jsonl");
  writeFileSync(
    claudeSub,
    toText([
      user("f1", null, "check tests", { isSidechain: true, agentId: "agent2" }),
      assistant("f2", "f1", "msg_f1", [{ type: "text", text: "tests pass" }], undefined, { isSidechain: true, agentId: "agent2" }),
    ]),
  );
  const pi = path.join(root, "pi", "session.jsonl");
  mkdirSync(path.dirname(pi), { recursive: true });
  copyFileSync(fixtureCase("pi/print-openai-autocompact").sessionPath, pi);
  const codex = path.join(root, "codex", "rollout.jsonl");
  mkdirSync(path.dirname(codex), { recursive: true });
  copyFileSync(fixtureCase("codex/exec-autocompact").sessionPath, codex);
  const other = path.join(root, "notes.json");
  writeFileSync(other, '{"not": "a session"}\n');
  return { root, claudeMain, claudeSub, pi, codex, other };
}
