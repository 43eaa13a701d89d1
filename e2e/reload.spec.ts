// Journey: a reload returns to what was shown. A 4 MB Claude Code transcript (read with
// provisional turns first, so its first turns are shown before the reloaded turn is read) is
// dropped on a page opened with `?sample=none`: once it is open the address no longer says
// `sample=none`, and names the turn shown. After a reload the same turn is shown and the address
// keeps it; a sub-agent thread's turn comes back in its thread, at 1440×900 and 1024×700.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { appView, dropFiles, expect, openEmptyApp, sharedFixturePath, test, waitForRequestTurn, waitForSession } from "./support";

const FILE = "realworld/claude-code/entire-bccb-2compactions-subagents.jsonl";
const NAME = path.basename(FILE);
/** Its streamed Task sub-agent, with 6 turns of its own. */
const THREAD = "ad86772";

const turnCountIs = (page: Page, count: number) =>
  page.waitForFunction((expected) => (window as unknown as { __contextscope?: { turnCount: number } }).__contextscope?.turnCount === expected, count, { timeout: 30_000 });

async function openTranscript(page: Page): Promise<void> {
  await openEmptyApp(page);
  await dropFiles(page, [{ name: NAME, text: readFileSync(sharedFixturePath(FILE), "utf8") }]);
  await waitForSession(page, NAME);
}

/** Reloads, and waits until the whole file is read again. */
async function reload(page: Page): Promise<void> {
  await page.reload();
  await waitForSession(page, NAME);
}

const query = (page: Page) => new URL(page.url()).searchParams;

for (const size of [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
]) {
  test(`at ${size.width}×${size.height} a reload returns to the turn shown, and ?sample=none leaves the address`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(size);
    await openTranscript(page);
    expect((await appView(page)).turnCount).toBe(198);
    await expect.poll(() => query(page).get("sample")).toBeNull();

    // A turn far into the file: the last but three.
    await page.getByTestId("timeline").focus();
    await page.keyboard.press("End");
    for (let step = 0; step < 3; step++) await page.keyboard.press("ArrowUp");
    await waitForRequestTurn(page, 195);
    await expect.poll(() => query(page).get("turn")).toBe("195");

    for (let round = 0; round < 2; round++) {
      await reload(page);
      await waitForRequestTurn(page, 195);
      expect((await appView(page)).selectedTurn).toBe(195);
      expect(query(page).get("turn")).toBe("195");
      expect(query(page).get("sample")).toBeNull();
      await expect(page.getByTestId("turn-position")).toHaveText("Turn 195 of 198");
    }
    await page.screenshot({ path: `/tmp/truth-reload-${size.width}.png` });
  });
}

test("a reload returns to the sub-agent thread and its turn", async ({ page }) => {
  test.setTimeout(120_000);
  await openTranscript(page);
  const thread = page.locator(`[data-testid="thread-item"][data-thread-id="${THREAD}"]`);
  await thread.click();
  await turnCountIs(page, 6);
  await page.getByTestId("timeline").focus();
  await page.keyboard.press("End");
  await page.keyboard.press("ArrowUp");
  await waitForRequestTurn(page, 5);
  await expect.poll(() => query(page).get("thread")).toBe(THREAD);

  await reload(page);
  await turnCountIs(page, 6);
  await waitForRequestTurn(page, 5);
  await expect(page.locator(`[data-testid="thread-item"][data-thread-id="${THREAD}"]`)).toHaveAttribute("aria-current", "true");
  expect(query(page).get("thread")).toBe(THREAD);
  expect(query(page).get("turn")).toBe("5");

  // Back on the main thread, the address no longer names the thread.
  await page.getByTestId("thread-main").click();
  await turnCountIs(page, 198);
  await expect.poll(() => query(page).get("thread")).toBeNull();
});
