// Journey (issue 5 item 5–6): the recorded pi session, prefix stability in the browser. The first
// turn after a compaction has a "cache break" badge; its Diff tab names the cause (history
// rewritten by the compaction) above a Monaco diff with the boundary marked; a turn without a
// compaction "extends the previous request"; the Tokens tab lists the request's segments and
// shows a message cut into tokens.
import { baseName, dropFiles, expect, fixtureText, openEmptyApp, PI_OPENAI_SESSION, test, turnRow, waitForSession } from "./support";

const SESSION_NAME = baseName(PI_OPENAI_SESSION);

test("prefix stability: break badge, Diff tab cause, Tokens tab", async ({ page }) => {
  await openEmptyApp(page);
  await dropFiles(page, [{ name: SESSION_NAME, text: fixtureText(PI_OPENAI_SESSION) }]);
  await waitForSession(page, SESSION_NAME);

  // Turn 9 is the first request after the first compaction: badged once the reports arrive.
  const afterCompaction = turnRow(page, 9);
  await afterCompaction.scrollIntoViewIfNeeded();
  const badge = afterCompaction.getByTestId("timeline-break-badge");
  await expect(badge).toBeVisible({ timeout: 20_000 });
  await expect(badge).toHaveAttribute("title", /history rewritten \(compaction\)/);
  await expect(turnRow(page, 8).getByTestId("timeline-break-badge")).toHaveCount(0);

  await afterCompaction.click();
  await page.getByTestId("tab-diff").click();
  const cause = page.getByTestId("diff-cause");
  await expect(cause).toContainText("Turn 9 vs turn 8");
  await expect(cause).toContainText("history rewritten (compaction)");
  await expect(cause).toContainText("messages[1].content[0].text");
  await expect(cause).toContainText("tokens billed again");
  // The break costs no more than this request: after a compaction the dropped history is not sent
  // (the previous request's 2,643 tokens past the break were counted before, for a request of ~1,830).
  const causeText = (await cause.textContent()) ?? "";
  const billedAgain = Number(/([\d,]+) tokens billed again/.exec(causeText)![1]!.replaceAll(",", ""));
  const requestTokens = Number(/shares [\d,]+ of ([\d,]+) tokens/.exec(causeText)![1]!.replaceAll(",", ""));
  expect(billedAgain).toBeGreaterThan(0);
  expect(billedAgain).toBeLessThanOrEqual(requestTokens);
  // The boundary is marked in the editor where the shared prefix ends (checked before the window
  // is resized for the screenshots: the editor then re-lays out and may scroll the mark away).
  await expect(page.getByTestId("diff-editor")).toBeVisible();
  await expect(page.getByTestId("diff-editor").locator(".prefix-boundary-marker").first()).toBeAttached({ timeout: 15_000 });
  for (const [width, height] of [[1440, 900], [1024, 700]] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `/tmp/figures-diff-${width}x${height}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // A turn without a compaction before it extends the previous request.
  const plain = turnRow(page, 10);
  await plain.scrollIntoViewIfNeeded();
  await plain.click();
  await expect(cause).toContainText("Turn 10 vs turn 9");
  await expect(cause).toContainText("extends the previous request");
  await expect(cause).toHaveAttribute("data-cause", "none");

  // Tokens: composition by segment, then one message in tokens.
  await page.getByTestId("tab-tokens").click();
  const table = page.getByTestId("tokens-table");
  await expect(table).toBeVisible();
  await expect(table).toContainText("system prompt");
  await expect(table).toContainText("tool definitions");
  await expect(table).toContainText("user messages");
  await expect(table).toContainText("summaries");
  await expect(page.getByText("exact (o200k)").first()).toBeVisible({ timeout: 15_000 });
  await page.locator(".token-message").first().click();
  const view = page.getByTestId("token-view");
  await expect(view).toContainText("tokens");
  expect(await view.locator(".token-piece").count()).toBeGreaterThan(1);
});
