// Journey: sub-agent threads as a tree. The largest real Claude Code transcript of ../shared (2.1.17,
// two compactions, five Task sub-agents: one streamed inline by agent_progress lines, four launched
// asynchronously) is dropped: its 198 turns and 2 compactions are listed with the streamed thread
// under the main thread, which opens its own turns and requests, and the four launched ones (none
// of their messages in this file) as one row saying what to drop to see them; the Task call in the main thread's Messages tab links to its thread and the
// thread links back to the call; a stop hook run is shown with the turn it follows. Then a session
// dropped together with its `subagents/agent-<id>.jsonl` file: the file becomes the thread of the
// Task call that started it. Last, Codex rollouts: a parent dropped with its children and a
// grandchild (test/fixtures/codex/spawn-agents) shows them nested, each opening its own requests.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { appView, dropFiles, expect, openEmptyApp, repoRoot, sharedFixturePath, test, turnRow, waitForRequestTurn, waitForSession } from "./support";
import type { Page } from "@playwright/test";

const turnCountIs = (page: Page, count: number) =>
  page.waitForFunction((expected) => (window as unknown as { __contextscope?: { turnCount: number } }).__contextscope?.turnCount === expected, count, { timeout: 30_000 });

const LARGEST = sharedFixturePath("realworld/claude-code/entire-bccb-2compactions-subagents.jsonl");

test("the largest real Claude Code transcript shows its sub-agent threads as a tree, each opening its own requests", async ({ page }) => {
  test.setTimeout(120_000);
  await openEmptyApp(page);
  const name = path.basename(LARGEST);
  await dropFiles(page, [{ name, text: readFileSync(LARGEST, "utf8") }]);
  await waitForSession(page, name);
  await expect(page.getByTestId("warnings-button")).toContainText("0 warnings");
  expect((await appView(page)).turnCount).toBe(198);
  // The timeline is virtualized: its title counts every row.
  await expect(page.getByTestId("turn-position")).toHaveText(/^(Turn \d+ of 198|198 turns)$/);
  await expect(page.locator(".timeline-panel .panel-title")).toContainText("2 compactions");

  // Session events (a stop hook after turn 3) are shown with their turn, not as warnings.
  await turnRow(page, 3).click();
  await expect(page.getByTestId("session-events")).toContainText("stop hooks ran: 1");

  // The tree: the main thread at level 1, its streamed Task sub-agent one level below it; the
  // four launched ones, whose messages are in files not dropped, are one row saying what to drop.
  const tree = page.getByTestId("thread-list");
  await expect(tree).toHaveAttribute("role", "tree");
  await expect(page.getByTestId("thread-main")).toHaveAttribute("aria-level", "1");
  await expect(page.getByTestId("thread-main")).toContainText("5 sub-agent threads · 4 not opened");
  const threads = page.getByTestId("thread-item");
  await expect(threads).toHaveCount(1);
  await expect(threads.first()).toHaveAttribute("aria-level", "2");
  await expect(threads.first()).toHaveAttribute("data-parent-thread-id", "");
  await expect(tree).toContainText("Task: Design E2E test framework (ad86772)");
  const streamed = page.locator('[data-testid="thread-item"][data-thread-id="ad86772"]');
  await expect(streamed).toContainText("6 turns · 6 requests · 0 cache breaks · started by Task toolu_01NviXQQRyYzTiKKCXw6D2c6");
  const notOpened = page.getByTestId("threads-not-opened");
  await expect(notOpened).toHaveAttribute("data-count", "4");
  await expect(notOpened).toContainText("4 sub-agents' files were not dropped: drop the transcript together with its session's subagents/ folder to see them");
  await notOpened.locator("summary").click();
  await expect(page.getByTestId("thread-not-opened")).toHaveCount(4);
  await expect(page.getByTestId("thread-not-opened").first()).toContainText("started by Task");

  // The streamed thread opens its own requests.
  await streamed.click();
  await expect(streamed).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("thread-spawn")).toContainText("Started by Task call");
  await turnCountIs(page, 6);
  await expect(page.locator('[data-testid="timeline-row"][data-kind="turn"]')).toHaveCount(6);
  await waitForRequestTurn(page, 1);
  await page.getByTestId("thread-main").click();
  await turnCountIs(page, 198);

  // From the streamed thread back to the Task call that started it: the main thread's first
  // request holding the call, on the Messages tab, the call's message selected; its link leads
  // to the thread again.
  await streamed.click();
  await turnCountIs(page, 6);
  await page.getByTestId("thread-spawn-link").click();
  await turnCountIs(page, 198);
  await expect(page.getByTestId("thread-main")).toHaveAttribute("aria-current", "true");
  await waitForRequestTurn(page, 183);
  const selected = page.locator('[data-testid="message-row"][aria-selected="true"]');
  await expect(selected).toHaveCount(1);
  const link = selected.locator('[data-testid="message-thread-link"][data-thread-id="ad86772"]');
  await expect(link).toContainText("Task: Design E2E test framework");
  await link.click();
  await expect(streamed).toHaveAttribute("aria-current", "true");
  await turnCountIs(page, 6);

  await page.getByTestId("thread-main").click();
  await turnCountIs(page, 198);
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
  await expect(thread).toContainText("1 turn · 1 request · 0 cache breaks · started by Task toolu_7 · its own file");
  await thread.click();
  await page.waitForFunction(() => (window as unknown as { __contextscope?: { turnCount: number } }).__contextscope?.turnCount === 1);
  await waitForRequestTurn(page, 1);
  await expect(page.getByTestId("warnings-button")).toContainText("0 warnings");
});

// Codex: the hand-written parent rollout with two children and a grandchild (test/fixtures/codex/spawn-agents).
const CODEX_FOLDER = path.join(repoRoot, "test/fixtures/codex/spawn-agents/sessions/2026/03/01");
const CODEX = {
  parent: "0199a000-0000-7000-8000-00000000a001",
  ada: "0199a000-0000-7000-8000-00000000c001",
  brook: "0199a000-0000-7000-8000-00000000c002",
  cole: "0199a000-0000-7000-8000-00000000d001",
};

test("a Codex parent rollout dropped with its child rollouts shows them as a tree, each opening its own requests", async ({ page }) => {
  await openEmptyApp(page);
  // Children first: which rollout is the parent comes from the files, not from the order.
  const names = readdirSync(CODEX_FOLDER).sort().reverse();
  await dropFiles(page, names.map((name) => ({ name, text: readFileSync(path.join(CODEX_FOLDER, name), "utf8") })));
  const parentName = names.find((name) => name.includes(CODEX.parent))!;
  await waitForSession(page, parentName);
  await turnCountIs(page, 3);
  await expect(page.getByTestId("warnings-button")).toContainText("0 warnings");

  const item = (id: string) => page.locator(`[data-testid="thread-item"][data-thread-id="${id}"]`);
  // Tree order: Ada, Cole (Ada's child), Brook.
  const order = await page.getByTestId("thread-item").evaluateAll((items) => items.map((el) => [el.getAttribute("data-thread-id"), el.getAttribute("aria-level")]));
  expect(order).toEqual([
    [CODEX.ada, "2"],
    [CODEX.cole, "3"],
    [CODEX.brook, "2"],
  ]);
  await expect(item(CODEX.cole)).toHaveAttribute("data-parent-thread-id", CODEX.ada);
  await expect(item(CODEX.ada)).toContainText("Ada (explorer)");
  await expect(item(CODEX.ada)).toContainText("3 turns · 3 requests · 0 cache breaks · started by spawn_agent call_spawn_ada");
  // Its recorded usage priced with the built-in table ($0.002615: `threads` prints the same).
  await expect(item(CODEX.ada)).toContainText("its own file · $0.0026");

  // Each child opens its own requests.
  for (const [id, turns] of [
    [CODEX.ada, 3],
    [CODEX.cole, 2],
    [CODEX.brook, 1],
  ] as const) {
    await item(id).click();
    await expect(item(id)).toHaveAttribute("aria-current", "true");
    await turnCountIs(page, turns);
    await expect(page.locator('[data-testid="timeline-row"][data-kind="turn"]')).toHaveCount(turns);
    await waitForRequestTurn(page, 1);
  }

  // Cole's thread links back to the call in Ada's thread that started it, and that call to Cole.
  await item(CODEX.cole).click();
  await turnCountIs(page, 2);
  await expect(page.getByTestId("thread-spawn")).toContainText("Started by spawn_agent call call_spawn_cole in Ada (explorer)");
  await page.getByTestId("thread-spawn-link").click();
  await expect(item(CODEX.ada)).toHaveAttribute("aria-current", "true");
  await turnCountIs(page, 3);
  await waitForRequestTurn(page, 2);
  const link = page.locator('[data-testid="message-row"][aria-selected="true"] [data-testid="message-thread-link"]');
  await expect(link).toHaveAttribute("data-thread-id", CODEX.cole);
  await link.click();
  await expect(item(CODEX.cole)).toHaveAttribute("aria-current", "true");
  await turnCountIs(page, 2);

  // The parent's spawn_agent calls, in the main thread's second request, link to both children.
  await page.getByTestId("thread-main").click();
  await turnCountIs(page, 3);
  await turnRow(page, 2).click();
  await waitForRequestTurn(page, 2);
  await page.getByTestId("tab-messages").click();
  const links = page.locator('[data-testid="message-thread-link"]');
  await expect(links).toHaveCount(2);
  expect(await links.evaluateAll((els) => els.map((el) => el.getAttribute("data-thread-id")))).toEqual([CODEX.ada, CODEX.brook]);
});
