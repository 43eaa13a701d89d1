// Journey: deepseek-harness sessions. The recorded session.jsonl.zstd (Zstandard frames, recognised
// by its bytes) is dropped: its 14 requests, the title and compaction requests and the manual
// compaction are in the timeline; stepping shows each request whole (system prompt and tools
// included); the simulator runs the deepseek-harness policy. Then a fork child dropped with its
// parent: the child is the parent's thread, started by the fork call, and the parent's failed
// compaction attempt is a failed compaction row.
import { readFileSync } from "node:fs";
import path from "node:path";
import { appView, dropFiles, expect, openEmptyApp, repoRoot, test, turnRow, waitForRequestTurn, waitForSession } from "./support";

const CASE = path.join(repoRoot, "test/fixtures/deepseek-harness");
const ZSTD = path.join(CASE, "headless-deepseek-manualcompact/session/--home-dev-dsh-manual-compact-tidewater--/session-dc1086b1-208d-42e8-b3ef-9b8679a11273/session.jsonl.zstd");
const FORK = path.join(CASE, "fork-failed-compaction/session/--home-dev-demo--");

test("a dropped session.jsonl.zstd opens with its requests, compaction and the simulator on the deepseek-harness policy", async ({ page }) => {
  test.setTimeout(120_000);
  await openEmptyApp(page);
  await dropFiles(page, [{ name: "session.jsonl.zstd", base64: readFileSync(ZSTD).toString("base64") }]);
  await waitForSession(page, "session.jsonl.zstd");
  await expect(page.getByTestId("warnings-button")).toContainText("0 warnings");
  expect((await appView(page)).turnCount).toBe(14);
  await expect(page.locator('[data-testid="timeline-row"][data-kind="auxiliary"][data-purpose="title"]')).toHaveCount(1);
  await expect(page.locator('[data-testid="timeline-row"][data-kind="auxiliary"][data-purpose="summary"]')).toHaveCount(1);
  const compaction = page.locator('[data-testid="timeline-row"][data-kind="compaction"]');
  await expect(compaction).toHaveCount(1);
  await expect(compaction).toHaveAttribute("data-before-turn", "12");
  await expect(compaction).not.toHaveAttribute("data-failed", "true");

  // Stepping: each request is rebuilt whole, the stored system prompt and tools included.
  await turnRow(page, 12).click();
  await waitForRequestTurn(page, 12);
  const text = (await appView(page)).requestText ?? "";
  const body = JSON.parse(text) as { model: string; messages: { role: string; content: string }[]; tools: unknown[]; max_tokens: number };
  expect(body.model).toBe("deepseek-v4-flash");
  expect(body.messages[0]!.role).toBe("system");
  expect(body.messages[1]!.content).toContain("<compacted-summary>");
  expect(body.tools.length).toBeGreaterThan(0);
  expect(body.max_tokens).toBe(256000);
  expect(text).not.toContain("$notRecorded");
  await page.keyboard.press("j");
  await waitForRequestTurn(page, 13);

  // The simulator runs the deepseek-harness policy on the session.
  await page.getByTestId("simulate-button").click();
  await expect(page.getByTestId("simulator-panel")).toBeVisible();
  await page.getByTestId("simulator-policy").selectOption("deepseek-harness");
  await expect(page.getByTestId("simulator-result")).toHaveAttribute("data-status", "ready", { timeout: 60_000 });
  await expect(page.getByTestId("simulator-verdict")).toBeVisible();
});

test("a fork child dropped with its parent is the parent's thread; a failed compaction shows as failed", async ({ page }) => {
  test.setTimeout(120_000);
  await openEmptyApp(page);
  await dropFiles(page, [
    { name: "session.jsonl", text: readFileSync(path.join(FORK, "session-child-1/session.jsonl"), "utf8") },
    { name: "session.jsonl", text: readFileSync(path.join(FORK, "session-parent-1/session.jsonl"), "utf8") },
  ]);
  await waitForSession(page);
  expect((await appView(page)).turnCount).toBe(3);
  const failed = page.locator('[data-testid="timeline-row"][data-kind="compaction"]');
  await expect(failed).toHaveAttribute("data-failed", "true");
  await expect(failed).toContainText("Compaction failed");
  await expect(failed).toContainText("summary is not smaller than the shadowed content");
  await expect(page.locator('[data-testid="timeline-row"][data-kind="turn"]')).toHaveCount(3);

  const thread = page.locator('[data-testid="thread-item"][data-thread-id="session-child-1"]');
  await expect(thread).toContainText("test checker (fork)");
  await expect(thread).toContainText("started by subagent_fork");
  await thread.click();
  await page.waitForFunction(() => (window as unknown as { __contextscope?: { turnCount: number } }).__contextscope?.turnCount === 1);
  await waitForRequestTurn(page, 1);
  expect((await appView(page)).requestText).toContain("Check the tests and report.");
});
