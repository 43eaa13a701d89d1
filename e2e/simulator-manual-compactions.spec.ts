// Journey: pi files do not record which compactions were manual. Open the pi
// rpc-anthropic-manualcompact fixture, open the simulator: the panel lists each recorded compaction
// with what the inference assumed (compaction 2 taken as manual; compaction 1 automatic), mark
// compaction 1 manual, see the reserveTokens interval widen to the one the README's real setting
// (4000) fits, make a share link of the last turn, open it in a new page: the mark is the same.
import { baseName, dropFiles, expect, fixtureText, openEmptyApp, test, turnRow, waitForSession } from "./support";

const SESSION = "pi/rpc-anthropic-manualcompact/session/--home-dev-pi-rpc-anthropic-manualcompact-lighthouse-notes--/2026-11-29T19-25-11-888Z_01a228c4-bd4f-721d-a5de-0c91492dc264.jsonl";

test("the user marks a compaction manual; the inference and a share link follow", async ({ page, context }) => {
  test.setTimeout(240_000);
  await openEmptyApp(page);
  await dropFiles(page, [{ name: baseName(SESSION), text: fixtureText(SESSION) }]);
  await waitForSession(page, baseName(SESSION));
  // The last turn: a share link holds the branch up to the selected turn, so all three compactions travel.
  await turnRow(page, 15).click();
  await page.getByTestId("simulate-button").click();
  await page.getByTestId("simulator-policy").selectOption("pi");
  await page.getByTestId("simulator-context-window").fill("16000");

  const list = page.getByTestId("simulator-manual-compactions");
  await expect(list).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId("simulator-manual-1")).toHaveAttribute("data-manual", "automatic");
  await expect(page.getByTestId("simulator-manual-1")).toContainText("automatic (assumed)");
  await expect(page.getByTestId("simulator-manual-2")).toHaveAttribute("data-manual", "assumed");

  await page.getByTestId("simulator-manual-1").locator("input").check();
  await expect(page.getByTestId("simulator-manual-1")).toHaveAttribute("data-manual", "given", { timeout: 90_000 });
  const reserve = page.getByTestId("simulator-inferred-reserveTokens");
  await expect(reserve).toContainText("≤ 10,881", { timeout: 90_000 });

  await page.getByTestId("share-button").click();
  await expect(page.getByTestId("share-dialog")).toHaveAttribute("data-status", "ready");
  const link = await page.getByTestId("share-link").inputValue();
  const other = await context.newPage();
  await other.goto(link);
  await expect(other.getByTestId("simulator-panel")).toBeVisible({ timeout: 60_000 });
  await expect(other.getByTestId("simulator-manual-1")).toHaveAttribute("data-manual", "given", { timeout: 90_000 });
  await expect(other.getByTestId("simulator-manual-1").locator("input")).toBeChecked();
  await other.close();
});
