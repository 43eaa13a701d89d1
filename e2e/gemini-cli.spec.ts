// Journey of a Gemini CLI chat: drop the chat file with its project's projects.json (as a user
// dropping the ~/.gemini folder would), step through the turns, open the compression's row with its
// two rebuilt requests, see the repeated tool results of a resumed process explained in the
// Messages tab, and simulate the compression on the CLI's own policy at the recorded point.
import { readFileSync } from "node:fs";
import { appView, dropFiles, expect, openEmptyApp, sharedFixturePath, test, turnRow, waitForSession } from "./support";

const CASE = "gemini-cli/p-resume-autocompress/session";
const CHAT = "tmp/lighthouse-notes/chats/session-2026-12-03T09-09-04c32c61.jsonl";

test("a Gemini CLI chat: turns, the compression row, resumed tool results, the simulator on its policy", async ({ page }) => {
  test.setTimeout(120_000);
  await openEmptyApp(page);
  await dropFiles(page, [
    { name: "session-2026-12-03T09-09-04c32c61.jsonl", text: readFileSync(sharedFixturePath(CASE, CHAT), "utf8") },
    { name: "projects.json", text: readFileSync(sharedFixturePath(CASE, "projects.json"), "utf8") },
  ]);
  await waitForSession(page);
  const view = await appView(page);
  expect(view.turnCount).toBe(15);
  await expect(page.getByTestId("format-label")).toHaveText(/Gemini CLI/);

  // Turn 4 is the first request of a resumed process: each earlier tool result is sent twice.
  await turnRow(page, 4).click();
  await page.getByTestId("tab-messages").click();
  await expect(page.getByTestId("messages-table")).toContainText("list_directory");
  await page.getByTestId("tab-request").click();
  await page.waitForFunction(() => (window as unknown as { __contextscope?: { requestText: string | null } }).__contextscope?.requestText?.includes('"functionResponse"') === true);

  // The compression row, before turn 8.
  const compaction = page.locator('[data-testid="timeline-row"][data-kind="compaction"]').first();
  await compaction.click();
  await expect(page.getByTestId("tab-row-view")).toHaveText("Compaction");

  // The simulator on the CLI's own policy after turn 7: the trigger fires at 600,000 ≥ 524,288.
  await turnRow(page, 7).click();
  await page.getByTestId("simulate-button").click();
  await expect(page.getByTestId("simulator-panel")).toBeVisible();
  await page.getByTestId("simulator-policy").selectOption("gemini-cli");
  await expect(page.getByTestId("simulator-trigger-expression")).toContainText("600000 ≥ 0.5 × 1048576", { timeout: 30_000 });

  const shots = process.env.CONTEXTSCOPE_SHOTS_DIR;
  if (shots) {
    for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 700 }]) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `${shots}/simulator-${size.width}.png` });
    }
  }
  expect((await appView(page)).error).toBeNull();
});
