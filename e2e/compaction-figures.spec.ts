// Journey: the figures around a compaction tell one story, at a laptop (1024×700) and a desktop
// (1440×900) window. A Codex compaction's Details say how many of the earlier request's messages
// the next request still sends, beside the rebuild's cut, and never "everything summarised" while
// some are still sent; the timeline's cost figures are never cut; the pi turn right after a
// compaction and the opencode compaction row are photographed (/tmp/i47-*.png).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { AGENTS, agentFilePath } from "./agentFiles";
import { dropFiles, expect, openEmptyApp, test, waitForSession } from "./support";

const SIZES = [
  { width: 1024, height: 700 },
  { width: 1440, height: 900 },
];

async function openAgent(page: Page, agent: string): Promise<void> {
  const files = AGENTS.find((item) => item.agent === agent)!.files;
  await openEmptyApp(page);
  await dropFiles(page, files.map((file) => ({ name: path.basename(file), base64: readFileSync(agentFilePath(file)).toString("base64") })));
  await waitForSession(page);
}

/** Cost cells of the timeline rows in view whose text does not fit, or that stick out of their line. */
async function cutCosts(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('[data-testid="turn-cost"]')).flatMap((cell) => {
      const line = cell.parentElement!.getBoundingClientRect();
      const box = cell.getBoundingClientRect();
      const cut = cell.scrollWidth > cell.clientWidth + 1 || box.right > line.right + 0.5;
      return cut ? [`"${cell.textContent}" (${Math.round(box.right - line.right)}px past its line)`] : [];
    }),
  );
}

for (const size of SIZES) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize(size);
    });

    test("Codex: the kept messages are counted from the next request, beside the rebuild's cut", async ({ page }) => {
      await openAgent(page, "Codex");
      await page.locator('[data-testid="timeline-row"][data-kind="compaction"]').first().click();
      const details = page.locator(".kv");
      // Truth: the rollout's next request after the compaction still sends the three context items and four user messages.
      await expect(details.filter({ hasText: "kept (next request)" })).toContainText(/7 messages of turn \d+'s request still sent in turn \d+'s/, { timeout: 30_000 });
      await expect(details.filter({ hasText: /^messages\d/ })).toContainText("7 kept");
      await expect(details.filter({ hasText: "kept (rebuilt)" })).not.toContainText("everything summarised");
      expect(await cutCosts(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/i47-${size.width}-codex-compaction.png` });
    });

    test("pi: the turn right after a compaction, and the opencode compaction row", async ({ page }) => {
      await openAgent(page, "pi");
      const compaction = page.locator('[data-testid="timeline-row"][data-kind="compaction"]').first();
      const next = await compaction.getAttribute("data-before-turn");
      await page.locator(`[data-testid="timeline-row"][data-kind="turn"][data-turn="${next}"]`).click();
      await expect(page.getByTestId("model-facts")).toBeVisible({ timeout: 30_000 });
      expect(await cutCosts(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/i47-${size.width}-pi-after-compaction.png` });

      await openAgent(page, "opencode");
      await page.locator('[data-testid="timeline-row"][data-kind="compaction"]').first().click();
      await expect(page.locator(".kv").filter({ hasText: /^messages\d/ })).toContainText("kept", { timeout: 30_000 });
      expect(await cutCosts(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/i47-${size.width}-opencode-compaction.png` });
    });
  });
}
