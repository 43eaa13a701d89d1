// Journey: the Diff tab under fast switching. Stepping through turns faster than Monaco computes
// each diff (and leaving the tab or the turn while a diff is in flight) replaces and disposes the
// compared models while the editor worker still has to answer for them; that must never throw in
// the page ("no diff result available"), and the tab must end on the last selected turn with its
// diff computed.
import type { Page } from "@playwright/test";
import { baseName, dropFiles, expect, fixtureText, openEmptyApp, PI_OPENAI_SESSION, test, turnRow, waitForSession } from "./support";

const SESSION_NAME = baseName(PI_OPENAI_SESSION);

/** Collects uncaught page errors explicitly (the shared fixture also fails on them, later). */
function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** A pi session of `turns` user prompts, each answered, with large distinct texts (slow diffs). */
function largePiSession(turns: number): string {
  const lines: string[] = [
    JSON.stringify({ type: "session", version: 3, id: "diff-switching", timestamp: "2026-11-29T10:00:00.000Z", cwd: "/tmp/x" }),
    JSON.stringify({
      type: "model_change",
      id: "m0",
      parentId: null,
      timestamp: "2026-11-29T10:00:00.001Z",
      provider: "anthropic",
      modelId: "claude-sonnet-4-5",
    }),
  ];
  let parent = "m0";
  for (let turn = 1; turn <= turns; turn += 1) {
    // Many short lines, each a little different per turn: a line diff with real work in it.
    const body = Array.from({ length: 4000 }, (_, index) => `line ${index} of turn ${turn}: ${(index * 7919 + turn * 104729) % 100003}`).join("\n");
    const userId = `u${turn}`;
    const assistantId = `a${turn}`;
    lines.push(
      JSON.stringify({
        type: "message",
        id: userId,
        parentId: parent,
        timestamp: `2026-11-29T10:${String(turn).padStart(2, "0")}:00.000Z`,
        message: { role: "user", content: [{ type: "text", text: body }], timestamp: 1_795_000_000_000 + turn * 60_000 },
      }),
      JSON.stringify({
        type: "message",
        id: assistantId,
        parentId: userId,
        timestamp: `2026-11-29T10:${String(turn).padStart(2, "0")}:30.000Z`,
        message: {
          role: "assistant",
          content: [{ type: "text", text: `answer ${turn}` }],
          api: "anthropic-messages",
          provider: "anthropic",
          model: "claude-sonnet-4-5",
          usage: { input: 1000 * turn, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 1000 * turn + 10 },
          stopReason: "stop",
          timestamp: 1_795_000_000_000 + turn * 60_000 + 30_000,
        },
      }),
    );
    parent = assistantId;
  }
  return lines.join("\n") + "\n";
}

/** Presses `key` `times` times on the page body (timeline navigation), without waiting in between. */
async function pressRepeatedly(page: Page, key: string, times: number): Promise<void> {
  for (let index = 0; index < times; index += 1) await page.keyboard.press(key, { delay: 0 });
}

test("Diff tab: switching turns while diffs are computed throws nothing", async ({ page }) => {
  const pageErrors = collectPageErrors(page);
  await openEmptyApp(page);
  await dropFiles(page, [{ name: SESSION_NAME, text: fixtureText(PI_OPENAI_SESSION) }]);
  await waitForSession(page, SESSION_NAME);

  await turnRow(page, 1).click();
  await page.getByTestId("tab-diff").click();
  const cause = page.getByTestId("diff-cause");
  await expect(cause).toContainText("Turn 1");

  // Step down and up through the timeline (turns and compaction events) without waiting.
  for (let round = 0; round < 4; round += 1) {
    await pressRepeatedly(page, "j", 8);
    await pressRepeatedly(page, "k", 5);
  }
  // Leave the tab and come back while a diff is in flight (on turns: a compaction row has no turn tabs).
  for (let round = 0; round < 4; round += 1) {
    const turn = turnRow(page, 3 + round);
    await turn.scrollIntoViewIfNeeded();
    await turn.click();
    await page.getByTestId("tab-request").click();
    await page.getByTestId("tab-diff").click();
  }
  await expect(page.getByTestId("diff-editor")).toBeVisible();
  await expect(page.getByTestId("diff-status")).toHaveAttribute("data-state", "done", { timeout: 15_000 });
  // Late answers of the worker for disposed models would surface after the switching.
  await page.waitForTimeout(1500);
  expect(pageErrors, "page errors").toEqual([]);
});

test("Diff tab: large requests, fast switching, then a computed diff", async ({ page }) => {
  const pageErrors = collectPageErrors(page);
  await openEmptyApp(page);
  await dropFiles(page, [{ name: "large-diffs.jsonl", text: largePiSession(6) }]);
  await waitForSession(page, "large-diffs.jsonl");

  await turnRow(page, 2).click();
  await page.getByTestId("tab-diff").click();
  await expect(page.getByTestId("diff-cause")).toContainText("Turn 2 vs turn 1");
  for (let round = 0; round < 3; round += 1) {
    await pressRepeatedly(page, "j", 3);
    await pressRepeatedly(page, "k", 3);
  }
  await pressRepeatedly(page, "j", 2);
  await expect(page.getByTestId("diff-cause")).toContainText("Turn 4 vs turn 3");
  const status = page.getByTestId("diff-status");
  await expect(status).toHaveAttribute("data-state", "done", { timeout: 20_000 });
  await expect(status).toContainText(/changed regions? marked/);
  await page.waitForTimeout(1500);
  expect(pageErrors, "page errors").toEqual([]);
});
