// Every agent's files, as a new user meets them, at a desktop (1440×900) and a laptop (1024×700)
// window: the session opens without a warning or an error, the page never scrolls sideways, the
// request editor keeps at least 45 % of the width, every tab shows its view, a compaction row says
// what it is, the token story of a turn is told, and export and share open. For each agent: its
// recording and a real user's file (../shared/fixtures). The simulator's own journey per agent is
// e2e/simulator-every-agent.spec.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { AGENTS, agentFilePath } from "./agentFiles";
import { appView, dropFiles, expect, openEmptyApp, test, waitForSession } from "./support";

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
];

async function openFiles(page: Page, files: string[]): Promise<void> {
  await openEmptyApp(page);
  await dropFiles(
    page,
    files.map((file) => ({ name: path.basename(file), base64: readFileSync(agentFilePath(file)).toString("base64") })),
  );
  await waitForSession(page);
}

/** The page does not scroll sideways, and the centre panel keeps at least 45 % of the window. */
async function expectLayoutFits(page: Page, width: number): Promise<void> {
  const sizes = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    bodyScrollWidth: document.body.scrollWidth,
    centre: document.querySelector(".center-panel")?.getBoundingClientRect().width ?? 0,
  }));
  expect(sizes.scrollWidth, "page width").toBeLessThanOrEqual(width);
  expect(sizes.bodyScrollWidth, "body width").toBeLessThanOrEqual(width);
  expect(sizes.centre, "request panel width").toBeGreaterThanOrEqual(0.45 * width);
}

for (const size of SIZES) {
  for (const files of AGENTS) {
    test(`${files.agent} at ${size.width}×${size.height}: every tab, a compaction row, the token story, export and share`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize(size);
      await openFiles(page, files.files);
      const view = await appView(page);
      expect(view.status).toBe("ready");
      expect(view.turnCount).toBeGreaterThan(0);
      await expect(page.getByTestId("format-label")).toHaveText(files.format);
      // A file the agent wrote is read without a warning; a trimmed one says what is missing.
      const expected = files.warnings?.count ?? 0;
      await expect(page.getByTestId("warnings-button")).toContainText(`${expected} ${expected === 1 ? "warning" : "warnings"}`);
      if (files.warnings) {
        await page.getByTestId("warnings-button").click();
        await expect(page.getByTestId("warnings-panel")).toContainText(files.warnings.why);
        await page.getByTestId("warnings-button").click();
      }
      await expect(page.getByTestId("warnings-button")).toBeInViewport({ ratio: 1 });
      await expectLayoutFits(page, size.width);

      // The last turn: its request, its token story in Details.
      await page.getByTestId("timeline").focus();
      await page.keyboard.press("End");
      const last = view.turnCount;
      await page.waitForFunction((turn) => (window as unknown as { __contextscope?: { requestTurn: number | null } }).__contextscope?.requestTurn === turn, last);
      await expect(page.getByTestId("request-editor")).toBeVisible();
      const tokens = page.getByTestId("turn-tokens");
      await expect(tokens).toContainText("rebuilt request");
      await expect(tokens).toContainText("billed prompt");

      // Every tab shows its own view.
      await page.getByTestId("tab-messages").click();
      await expect(page.getByTestId("messages-table")).toBeVisible();
      await page.getByTestId("tab-diff").click();
      await expect(page.getByTestId("diff-cause")).toContainText(`Turn ${last}`);
      await page.getByTestId("tab-tokens").click();
      await expect(page.getByTestId("tokens-table")).toBeVisible({ timeout: 30_000 });
      await page.getByTestId("tab-request").click();
      await expectLayoutFits(page, size.width);

      // Export and share open on this turn.
      await page.getByTestId("export-button").first().click();
      await expect(page.getByTestId("export-panel")).toBeVisible();
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: /^Share/ }).click();
      await expect(page.getByTestId("export-panel")).toHaveCount(0);
      await expect(page.getByTestId("share-dialog")).toBeVisible();
      await page.keyboard.press("Escape");

      // A recorded compaction has its own view; the turn tabs say why they have nothing for it.
      if (files.compaction) {
        const compaction = page.locator('[data-testid="timeline-row"][data-kind="compaction"]').first();
        await page.getByTestId("timeline").focus();
        await page.keyboard.press("Home");
        // The list scrolls itself to the first row: scrolling before it has got there is undone.
        await expect.poll(() => page.getByTestId("timeline").evaluate((el) => el.scrollTop)).toBe(0);
        for (let step = 0; step < 80 && (await compaction.count()) === 0; step++) {
          await page.getByTestId("timeline").evaluate((el) => el.scrollBy(0, 400));
          // Let the list draw the rows scrolled to before looking for the compaction among them.
          await page.waitForTimeout(30);
        }
        await compaction.click();
        await expect(page.getByTestId("tab-row-view")).toHaveText("Compaction");
        await expect(page.getByTestId("tab-diff")).toHaveAttribute("aria-disabled", "true");
        await expect(page.getByTestId("tab-diff")).toHaveAttribute("title", /select a turn/);
        await expectLayoutFits(page, size.width);
      }
      expect((await appView(page)).error).toBeNull();
    });
  }
}
