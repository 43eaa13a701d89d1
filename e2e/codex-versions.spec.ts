// Older Codex rollouts in the browser: a pre-envelope rollout (untagged meta line, bare items,
// state lines) opens with one turn per model response, and a response cut short is a turn with
// the "interrupted" badge. Both rollouts are written here.
import { appView, dropFiles, expect, openEmptyApp, test, turnRow, waitForSession } from "./support";

const T = "2025-09-10T18:58:38.331Z";
const user = (text: string) => ({ type: "message", role: "user", content: [{ type: "input_text", text }] });
const assistant = (text: string) => ({ type: "message", role: "assistant", content: [{ type: "output_text", text }] });
const call = (id: string) => ({ type: "function_call", name: "shell", arguments: "{}", call_id: id });
const output = (id: string) => ({ type: "function_call_output", call_id: id, output: "ok" });
const env = (type: string, payload: Record<string, unknown>) => ({ timestamp: T, type, payload });
const jsonl = (lines: unknown[]) => lines.map((line) => JSON.stringify(line)).join("\n") + "\n";

test("a pre-envelope Codex rollout opens with one turn per model response", async ({ page }) => {
  await openEmptyApp(page);
  const text = jsonl([
    { id: "legacy-thread", timestamp: T, instructions: "Be brief.", git: { branch: "main" } },
    { record_type: "state" },
    user("list files"),
    call("c1"),
    output("c1"),
    { record_type: "state" },
    assistant("two files"),
    user("thanks"),
    assistant("welcome"),
  ]);
  await dropFiles(page, [{ name: "rollout-2025-09-10T18-58-38-legacy.jsonl", text }]);
  await waitForSession(page, "rollout-2025-09-10T18-58-38-legacy.jsonl");
  expect((await appView(page)).turnCount).toBe(3);
  await expect(turnRow(page, 3)).toBeVisible();
});

test("a Codex response cut short is a turn with the interrupted badge", async ({ page }) => {
  await openEmptyApp(page);
  const usage = { input_tokens: 90, cached_input_tokens: 0, output_tokens: 10, total_tokens: 100 };
  const text = jsonl([
    env("session_meta", { id: "thread-i", cli_version: "0.50.0", originator: "codex_cli_rs", source: "cli" }),
    env("turn_context", { model: "gpt-5" }),
    env("response_item", user("go")),
    env("response_item", call("c1")),
    env("response_item", output("c1")),
    env("event_msg", { type: "token_count", info: { total_token_usage: usage, last_token_usage: usage } }),
    env("response_item", assistant("half an ans")),
  ]);
  await dropFiles(page, [{ name: "rollout-interrupted.jsonl", text }]);
  await waitForSession(page, "rollout-interrupted.jsonl");
  expect((await appView(page)).turnCount).toBe(2);
  await expect(turnRow(page, 2).getByText("interrupted")).toBeVisible();
  await expect(turnRow(page, 1).getByText("interrupted")).toHaveCount(0);
});
