// Journey: the fork's chunked compaction in the simulator. Open the opencode run-autocompact export,
// simulate after turn 6 under the opencode policy, pick the chunked mode (marked as the fork's
// executor, not the live path), see the impossible verdict at the recorded 15,000 window
// (fixed-overhead), then at a 64,576 window the chunk request with the executor's admission and
// the compacted verdict; a changed planner limit moves the budget, and a share link reopens the
// same chunked simulation. No console errors.
import { dropFiles, expect, fixtureText, openEmptyApp, test, turnRow, waitForSession } from "./support";

const EXPORT = "opencode/run-autocompact/session/export.json";

test("chunked mode: chunk requests and verdicts of the fork's planner, carried by a share link", async ({ page, context }) => {
  test.setTimeout(180_000);
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await openEmptyApp(page);
  await dropFiles(page, [{ name: "export.json", text: fixtureText(EXPORT) }]);
  await waitForSession(page, "export.json");
  await turnRow(page, 6).click();
  await page.getByTestId("simulate-button").click();
  await expect(page.getByTestId("simulator-panel")).toBeVisible();
  await page.getByTestId("simulator-policy").selectOption("opencode");

  const mode = page.getByTestId("simulator-compaction-mode");
  await expect(mode).toHaveValue("live");
  await expect(mode.locator("option[value=chunked]")).toHaveText("chunked (fork's executor, not on the live path)");
  await mode.selectOption("chunked");
  await page.getByTestId("simulator-manual").check();
  await page.getByTestId("simulator-context-window").fill("15000");
  await page.getByTestId("simulator-max-output").fill("4096");

  // The recorded window leaves no budget: the fork's planner refuses before any call.
  const verdict = page.getByTestId("simulator-verdict");
  await expect(verdict).toHaveAttribute("data-verdict", "failed", { timeout: 60_000 });
  await expect(verdict).toContainText("fixed-overhead");
  await expect(page.locator('[data-testid="simulator-finding"][data-id="chunked-planner-not-live"]')).toContainText("not on its live path");

  // A larger window: one chunk, the executor's admitted projection, compacted.
  await page.getByTestId("simulator-context-window").fill("64576");
  await expect(verdict).toHaveAttribute("data-verdict", "compacted", { timeout: 60_000 });
  const request = page.locator('[data-testid="simulator-summariser-request"][data-role="chunk-1"]');
  await expect(request).toBeVisible();
  await expect(request).toContainText("admission: estimate");
  await expect(request).toContainText("≤ budget 40000");
  await expect(page.getByTestId("simulator-partition")).toContainText("chunk 1 of 1");
  await expect(page.locator('[data-testid="simulator-range"][data-kind="kept"]')).toContainText("latest user turn");

  // The chunked settings travel in a share link.
  await page.getByTestId("simulator-parameters").locator("summary").click();
  // A smaller summary allowance: budget 64576 − max(20000, 2048 + 20480) = 42048.
  await page.getByTestId("simulator-param-chunkSummaryOutputTokens").fill("2048");
  await expect(request).toContainText("≤ budget 42048", { timeout: 60_000 });
  await expect(verdict).toHaveAttribute("data-verdict", "compacted");
  await page.getByTestId("share-button").click();
  await expect(page.getByTestId("share-dialog")).toHaveAttribute("data-status", "ready");
  const link = await page.getByTestId("share-link").inputValue();
  const other = await context.newPage();
  other.on("console", (m) => m.type() === "error" && problems.push(`console (link): ${m.text()}`));
  other.on("pageerror", (e) => problems.push(`pageerror (link): ${e.message}`));
  await other.goto(link);
  await expect(other.getByTestId("simulator-panel")).toBeVisible({ timeout: 60_000 });
  await expect(other.getByTestId("simulator-compaction-mode")).toHaveValue("chunked");
  await expect(other.getByTestId("simulator-param-chunkSummaryOutputTokens")).toHaveValue("2048");
  await expect(other.getByTestId("simulator-verdict")).toHaveAttribute("data-verdict", "compacted", { timeout: 60_000 });
  await expect(other.locator('[data-testid="simulator-summariser-request"][data-role="chunk-1"]')).toContainText("≤ budget 42048");
  await other.close();
  expect(problems).toEqual([]);
});
