// Journey (issue 3 item 5): the recorded pi session opened with the senpi profile and
// reply-language notes on. The first turn after a compaction carries the note after </summary>
// (the user asked for English); it is highlighted in its own colour, hovering it explains it, the
// timeline badges the turn, the Messages tab's selection explains it in the Details panel; notes
// off removes all of it.
import type { Page } from "@playwright/test";
import {
  baseName,
  dropFiles,
  editorText,
  expect,
  fixtureText,
  openEmptyApp,
  PI_OPENAI_SESSION,
  test,
  turnRow,
  waitForRequestTurn,
  waitForSession,
} from "./support";

const SESSION_NAME = baseName(PI_OPENAI_SESSION);

/** Scrolls the editor to the first "Reply language" with Monaco's own find (only visible lines are in the DOM). */
async function revealNote(page: Page): Promise<void> {
  await page.getByTestId("request-editor").locator(".view-lines").click({ position: { x: 40, y: 10 } });
  await page.keyboard.press("ControlOrMeta+f");
  await page.keyboard.type("Reply language: English");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Escape");
}

test("senpi notes: the note after a compaction is highlighted and explained; notes off removes it", async ({ page }) => {
  await openEmptyApp(page);
  await dropFiles(page, [{ name: SESSION_NAME, text: fixtureText(PI_OPENAI_SESSION) }]);
  await waitForSession(page, SESSION_NAME);

  // The switch only exists for the senpi profile.
  await expect(page.getByTestId("notes-toggle")).toHaveCount(0);
  await page.getByTestId("profile-select").selectOption("senpi");
  const toggle = page.getByTestId("notes-toggle");
  await expect(toggle).not.toBeChecked();
  await toggle.check();

  // Turn 9 is the first request after the first compaction.
  await turnRow(page, 9).scrollIntoViewIfNeeded();
  await turnRow(page, 9).click();
  await waitForRequestTurn(page, 9);
  await expect(turnRow(page, 9).getByTestId("timeline-note-badge")).toBeVisible();
  await expect(page.getByTestId("legend-note")).toContainText("reply-language note");

  await revealNote(page);
  await expect.poll(() => editorText(page)).toContain("Reply language: English (the user asked for it)");
  const highlight = page.locator(".request-editor .hl-note").first();
  await expect(highlight).toBeAttached();
  const box = await highlight.boundingBox();
  expect(box).not.toBeNull();
  await page.mouse.move(box!.x + Math.min(20, box!.width / 2), box!.y + box!.height / 2);
  const hover = page.locator(".monaco-hover:not(.hidden)").filter({ hasText: "Reply-language note" });
  await expect(hover).toBeVisible();
  await expect(hover).toContainText("English");
  await expect(hover).toContainText("explicitly asked for English");
  // The rules behind the note are named in the hover's "why" paragraph, not in its text.
  await expect(hover).toContainText(/Why: rules .*RL-19 \(docs\/reply-language.md\)/);
  await expect(hover).toContainText("alternative");

  // Messages tab: selecting the note row explains it in the Details panel.
  await page.getByTestId("tab-messages").click();
  const noteRow = page.locator('[data-testid="message-row"][data-rule="note:reply-language"]').first();
  await noteRow.click();
  const details = page.getByTestId("message-details");
  await expect(details).toContainText("Reply-language note: English");
  await expect(details).toContainText(/characters of tool output/);
  await expect(details.getByTestId("inferred-badge").first()).toHaveAttribute("title", /inferred: .*\nThe other reading: .*RL-\d+/is);
  await page.getByTestId("tab-request").click();

  // Notes off: the request no longer holds a note, the badge and the highlight are gone.
  await toggle.uncheck();
  await expect(turnRow(page, 9).getByTestId("timeline-note-badge")).toHaveCount(0);
  await waitForRequestTurn(page, 9);
  await expect(page.locator(".request-editor .hl-note")).toHaveCount(0);
  await revealNote(page);
  await expect.poll(() => editorText(page)).not.toContain("Reply language");
});
