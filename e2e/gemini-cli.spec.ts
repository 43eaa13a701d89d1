// Journey of a Gemini CLI chat: drop the chat file with its project's projects.json and logs.json
// (as a user dropping the ~/.gemini folder would; both read into the chat and named, never an
// error or a captured request), step through the turns, open the compression's row with its
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
    // The prompt log the CLI keeps beside the chats (the recording kept none: written as the CLI writes it).
    {
      name: "logs.json",
      text: JSON.stringify(
        [
          { sessionId: "04c32c61-7e8e-478b-830c-627e8c677e94", messageId: 0, type: "user", message: "Read the notes", timestamp: "2026-12-03T09:09:20.000Z" },
          { sessionId: "04c32c61-7e8e-478b-830c-627e8c677e94", messageId: 1, type: "user", message: "/compress", timestamp: "2026-12-03T09:12:00.000Z" },
        ],
        null,
        2,
      ),
    },
  ]);
  await waitForSession(page);
  const view = await appView(page);
  expect(view.turnCount).toBe(15);
  await expect(page.getByTestId("format-label")).toHaveText(/Gemini CLI/);
  // projects.json and logs.json are the CLI's files beside its chats: read with it, not captured requests.
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
  await expect(page.getByTestId("warnings-button")).toContainText("0 warnings");
  await page.getByTestId("companion-files").click();
  const notes = page.getByTestId("companion-notes");
  await expect(notes).toContainText("projects.json: this chat worked in /home/dev/gemini-cli-p-resume-autocompress/lighthouse-notes");
  await expect(notes).toContainText("logs.json: 2 prompts typed in this chat, 1 slash command among them (/compress)");
  await page.getByTestId("companion-files").click();

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
  await expect(page.getByTestId("simulator-trigger-expression")).toContainText("600,000 ≥ 0.5 × 1,048,576", { timeout: 30_000 });

  const shots = process.env.CONTEXTSCOPE_SHOTS_DIR;
  if (shots) {
    for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 700 }]) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `${shots}/simulator-${size.width}.png` });
    }
  }
  expect((await appView(page)).error).toBeNull();
});
