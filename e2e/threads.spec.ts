// Journey: sub-agent threads. The largest real Claude Code transcript of ../shared (2.1.17, two
// compactions, five Task sub-agents: one streamed inline by agent_progress lines, four launched
// asynchronously) is dropped: its 198 turns and 2 compactions are listed with its five threads;
// choosing the streamed sub-agent shows its own turns and request, "Main thread" goes back; a stop
// hook run is shown with the turn it follows. Then
// a session dropped together with its `subagents/agent-<id>.jsonl` file: the file becomes the
// thread of the Task call that started it. Last, a Codex rollout dropped with its child rollout.
import { readFileSync } from "node:fs";
import path from "node:path";
import { appView, dropFiles, expect, openEmptyApp, sharedFixturePath, test, turnRow, waitForRequestTurn, waitForSession } from "./support";

const LARGEST = sharedFixturePath("realworld/claude-code/entire-bccb-2compactions-subagents.jsonl");

test("the largest real Claude Code transcript lists its sub-agent threads, and a thread shows its own turns", async ({ page }) => {
  await openEmptyApp(page);
  const name = path.basename(LARGEST);
  await dropFiles(page, [{ name, text: readFileSync(LARGEST, "utf8") }]);
  await waitForSession(page, name);
  await expect(page.getByTestId("warnings-button")).toContainText("0 warnings");
  expect((await appView(page)).turnCount).toBe(198);
  // The timeline is virtualized: its title counts every row.
  await expect(page.locator(".timeline-panel .panel-title")).toContainText("198 turns · 2 compactions");

  // Session events (a stop hook after turn 3) are shown with their turn, not as warnings.
  await turnRow(page, 3).click();
  await expect(page.getByTestId("session-events")).toContainText("stop hooks ran: 1");

  const threads = page.getByTestId("thread-item");
  await expect(threads).toHaveCount(5);
  await expect(page.getByTestId("thread-list")).toContainText("Task: Design E2E test framework (ad86772)");
  const streamed = page.locator('[data-testid="thread-item"][data-thread-id="ad86772"]');
  await expect(streamed).toContainText("6 turns · started by Task toolu_01NviXQQRyYzTiKKCXw6D2c6");
  await expect(page.locator('[data-testid="thread-item"][data-thread-id="a3e3b71"]')).toContainText("0 turns");

  await streamed.click();
  await expect(streamed).toHaveAttribute("aria-current", "true");
  await page.waitForFunction(() => (window as unknown as { __contextscope?: { turnCount: number } }).__contextscope?.turnCount === 6);
  await expect(page.locator('[data-testid="timeline-row"][data-kind="turn"]')).toHaveCount(6);
  await waitForRequestTurn(page, 1);

  await page.getByTestId("thread-main").click();
  await page.waitForFunction(() => (window as unknown as { __contextscope?: { turnCount: number } }).__contextscope?.turnCount === 198);
});

const SESSION_ID = "7e57a11d-0000-4000-8000-000000000001";
const base = { sessionId: SESSION_ID, version: "2.1.30", cwd: "/p", userType: "external", timestamp: "2026-01-01T00:00:00.000Z" };
const line = (value: Record<string, unknown>) => JSON.stringify({ ...base, ...value });
const MAIN = [
  line({ type: "user", uuid: "u1", parentUuid: null, isSidechain: false, message: { role: "user", content: "check the tests" } }),
  line({
    type: "assistant",
    uuid: "a1",
    parentUuid: "u1",
    isSidechain: false,
    requestId: "req_1",
    message: { id: "msg_1", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "tool_use", id: "toolu_7", name: "Task", input: { description: "Run tests", prompt: "run the tests" } }] },
  }),
  line({
    type: "user",
    uuid: "r1",
    parentUuid: "a1",
    isSidechain: false,
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_7", content: "all green" }] },
    toolUseResult: { status: "completed", agentId: "b0b", content: [] },
  }),
  line({ type: "assistant", uuid: "a2", parentUuid: "r1", isSidechain: false, requestId: "req_2", message: { id: "msg_2", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "green" }] } }),
].join("\n");
const SUB = [
  line({ type: "user", uuid: "s1", parentUuid: null, isSidechain: true, agentId: "b0b", message: { role: "user", content: "run the tests" } }),
  line({ type: "assistant", uuid: "s2", parentUuid: "s1", isSidechain: true, agentId: "b0b", requestId: "req_s1", message: { id: "msg_s1", role: "assistant", model: "claude-haiku-4-5", content: [{ type: "text", text: "sub-agent says all green" }] } }),
].join("\n");

test("a session dropped with its subagents/agent-<id>.jsonl file shows that file as the Task call's thread", async ({ page }) => {
  await openEmptyApp(page);
  await dropFiles(page, [
    { name: "agent-b0b.jsonl", text: SUB },
    { name: `${SESSION_ID}.jsonl`, text: MAIN },
  ]);
  await waitForSession(page, `${SESSION_ID}.jsonl`);
  expect((await appView(page)).turnCount).toBe(2);
  const thread = page.locator('[data-testid="thread-item"][data-thread-id="b0b"]');
  await expect(thread).toContainText("Task: Run tests (b0b)");
  await expect(thread).toContainText("1 turn · started by Task toolu_7 · its own file");
  await thread.click();
  await page.waitForFunction(() => (window as unknown as { __contextscope?: { turnCount: number } }).__contextscope?.turnCount === 1);
  await waitForRequestTurn(page, 1);
  await expect(page.getByTestId("warnings-button")).toContainText("0 warnings");
});

// A Codex parent rollout and the child rollout its spawn_agent call started, dropped together.
const CODEX_T = "2026-03-01T10:00:00.000Z";
const codexLine = (type: string, payload: Record<string, unknown>) => JSON.stringify({ timestamp: CODEX_T, type, payload });
const codexUser = (text: string) => codexLine("response_item", { type: "message", role: "user", content: [{ type: "input_text", text }] });
const codexAssistant = (text: string) => codexLine("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text }] });
const CODEX_PARENT = [
  codexLine("session_meta", { id: "parent-thread", source: "cli" }),
  codexUser("split the work"),
  codexLine("response_item", { type: "function_call", name: "spawn_agent", arguments: '{"message":"look"}', call_id: "call-a" }),
  codexLine("response_item", { type: "function_call_output", call_id: "call-a", output: JSON.stringify({ agent_id: "child-thread", nickname: "Ada" }) }),
  codexAssistant("spawned"),
].join("\n");
const CODEX_CHILD = [
  codexLine("session_meta", { id: "child-thread", source: { subagent: { thread_spawn: { parent_thread_id: "parent-thread", depth: 1, agent_nickname: "Ada" } } } }),
  codexUser("look"),
  codexAssistant("found it"),
].join("\n");

test("a Codex rollout dropped with its child rollout lists the child as the spawn_agent call's thread", async ({ page }) => {
  await openEmptyApp(page);
  await dropFiles(page, [
    { name: "rollout-child.jsonl", text: CODEX_CHILD },
    { name: "rollout-parent.jsonl", text: CODEX_PARENT },
  ]);
  await waitForSession(page, "rollout-parent.jsonl");
  const thread = page.locator('[data-testid="thread-item"][data-thread-id="child-thread"]');
  await expect(thread).toContainText("Ada");
  await expect(thread).toContainText("spawn_agent");
  await thread.click();
  await page.waitForFunction(() => (window as unknown as { __contextscope?: { turnCount: number } }).__contextscope?.turnCount === 1);
  await waitForRequestTurn(page, 1);
});
