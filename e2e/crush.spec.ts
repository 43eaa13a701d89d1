// Journey of a Crush database (the hand-made test/fixtures/crush/hand-made: Crush's own schema and
// row shapes; no recording of the real CLI exists here): crush.db dropped with its -wal opens as
// Crush (never as hermes-agent, whose tables it shares), its six turns with the summary as a
// compaction before the last one; that turn's request starts with Crush's todo reminder and the
// summary sent as a user message; the summariser request ends with Crush's prompt for the summary.
// Screenshots at 1440x900 and 1024x700 (CONTEXTSCOPE_SCREENSHOT_DIR, else not written).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { appView, dropFiles, expect, expectEditorToShow, openEmptyApp, repoRoot, scrollEditorToEnd, test, turnRow, waitForRequestTurn, waitForSession } from "./support";

const CASE = path.join(repoRoot, "test/fixtures/crush/hand-made");

function databaseFiles() {
  return ["crush.db", "crush.db-wal"].map((name) => ({ name, base64: readFileSync(path.join(CASE, name)).toString("base64") }));
}

async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.CONTEXTSCOPE_SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}

test("a Crush database: its turns, the summary as a compaction, and the request after it", async ({ page }) => {
  test.setTimeout(180_000);
  await openEmptyApp(page);
  await dropFiles(page, databaseFiles());
  await waitForSession(page, "crush.db");
  expect((await appView(page)).turnCount).toBe(6);
  await expect(page.getByTestId("format-label")).toContainText("Crush");
  await expect(page.getByTestId("wal-warning")).toHaveCount(0);

  const compaction = page.locator('[data-testid="timeline-row"][data-kind="compaction"]');
  await expect(compaction).toHaveCount(1);
  await expect(compaction).toHaveAttribute("data-before-turn", "6");

  await turnRow(page, 6).click();
  await waitForRequestTurn(page, 6);
  for (const part of ["This is a reminder that your todo list is currently empty", "## Current State", "Go on with the edit."]) {
    await page.waitForFunction((text) => (window as unknown as { __contextscope?: { requestText: string | null } }).__contextscope?.requestText?.includes(text) === true, part);
  }
  // The turns before the summary are gone from this request.
  expect((await page.evaluate(() => (window as unknown as { __contextscope?: { requestText: string | null } }).__contextscope?.requestText ?? "")).includes("How many lines")).toBe(false);
  // The summariser request, rebuilt from the rows before the summary, ends with Crush's prompt.
  const summariser = page.locator('[data-testid="timeline-row"][data-kind="auxiliary"][data-purpose="summary"]');
  await expect(summariser).toHaveCount(1);
  await summariser.click();
  await expect(page.getByTestId("auxiliary-kind")).toHaveText("summariser request");
  await expectEditorToShow(page, ["Crush's summary prompt (templates/summary.md)"]);
  await scrollEditorToEnd(page);
  await expectEditorToShow(page, ["Try again.", "Provide a detailed summary of our conversation above."]);
  await screenshot(page, "crush-1440x900");
  await page.setViewportSize({ width: 1024, height: 700 });
  await turnRow(page, 2).click();
  await waitForRequestTurn(page, 2);
  await screenshot(page, "crush-1024x700");
  expect((await appView(page)).error).toBeNull();
});
