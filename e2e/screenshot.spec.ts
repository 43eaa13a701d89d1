// The README screenshot journey (1440×900): the English sample with the first turn after its
// compaction selected, the rebuilt request in the editor. Every run checks the page and the
// picture; only `npm run screenshot` (CONTEXTSCOPE_SCREENSHOT=1) writes it to docs/screenshot.png,
// other runs write it into this test's output folder under test-results/.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, expectEditorToShow, repoRoot, test, turnRow, waitForRequestTurn, waitForSession } from "./support";

const WRITE_README_SCREENSHOT = process.env.CONTEXTSCOPE_SCREENSHOT === "1";
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

test("screenshots a turn after the compaction", async ({ page }, testInfo) => {
  const screenshotPath = WRITE_README_SCREENSHOT ? path.join(repoRoot, "docs/screenshot.png") : testInfo.outputPath("screenshot.png");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("./");
  await waitForSession(page, "pi-english-compaction.jsonl");
  await waitForRequestTurn(page, 1);

  // Jump to the end of the timeline so the compaction row is rendered, then pick the first turn
  // after it.
  await page.getByTestId("timeline").focus();
  await page.keyboard.press("End");
  const compaction = page.locator('[data-testid="timeline-row"][data-kind="compaction"]');
  await expect(compaction).toHaveCount(1);
  const afterCompaction = Number(await compaction.getAttribute("data-before-turn"));
  expect(afterCompaction).toBeGreaterThan(1);
  await turnRow(page, afterCompaction).click();
  await waitForRequestTurn(page, afterCompaction);
  await expect(turnRow(page, afterCompaction)).toHaveAttribute("aria-selected", "true");
  await expect(turnRow(page, afterCompaction).locator(".badge-compacted")).toBeVisible();
  // The compacted request starts with the summary of the earlier conversation.
  await expectEditorToShow(page, ['"model": "claude-sonnet-4-5"', "<summary>"]);

  // A calm frame: no hover, focus ring or caret.
  await page.mouse.move(0, 0);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: screenshotPath, animations: "disabled", caret: "hide" });

  const bytes = readFileSync(screenshotPath);
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  // IHDR: width and height, big-endian, at bytes 16–23.
  expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1440, 900]);
  expect(statSync(screenshotPath).size).toBeGreaterThan(50_000);
});
