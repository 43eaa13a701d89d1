// Journey (issue "Compaction simulator", app side): open the pi print-openai-autocompact fixture,
// simulate pi's compaction after turn 8 (the trigger shows the fixture's 16000 / 11600 numbers once
// they are entered, and fires), see the summariser request, switch to opencode and run the spiral
// with the brake off and on (the verdicts differ), and replay the whole session (the timeline marks
// where automatic compaction would fire).
import { baseName, dropFiles, expect, fixtureText, openEmptyApp, PI_OPENAI_SESSION, test, turnRow, waitForSession } from "./support";

const SESSION_NAME = baseName(PI_OPENAI_SESSION);

test("simulate compaction at a turn, spiral run, whole-session replay", async ({ page }) => {
  test.setTimeout(120_000);
  await openEmptyApp(page);
  await dropFiles(page, [{ name: SESSION_NAME, text: fixtureText(PI_OPENAI_SESSION) }]);
  await waitForSession(page, SESSION_NAME);

  await turnRow(page, 8).click();
  await page.getByTestId("simulate-button").click();
  const panel = page.getByTestId("simulator-panel");
  await expect(panel).toBeVisible();
  await page.getByTestId("simulator-policy").selectOption("pi");

  // Without entered limits the numbers come from the session's model, not the fixture's settings.
  const trigger = page.getByTestId("simulator-trigger-expression");
  await expect(trigger).toBeVisible({ timeout: 30_000 });
  await expect(trigger).not.toContainText("16,000 − 11,600");

  // The fixture ran with contextWindow 16000 and reserveTokens 11600.
  await page.getByTestId("simulator-context-window").fill("16000");
  await page.getByTestId("simulator-reserve").fill("11600");
  await expect(trigger).toContainText("16,000 − 11,600 = 4,400", { timeout: 30_000 });
  await expect(trigger).toContainText("compact");
  await expect(page.getByTestId("simulator-trigger")).toHaveAttribute("data-result", "true");
  // keepRecentTokens, not entered, is inferred from the recorded compactions and used.
  await expect(page.getByTestId("simulator-inferred-settings")).toHaveAttribute("data-status", "ready", { timeout: 60_000 });
  await expect(page.getByTestId("simulator-inferred-keepRecentTokens")).toContainText("1,788–1,804");
  await expect(page.getByTestId("simulator-inferred-reserveTokens")).toHaveCount(0);
  await expect(page.getByTestId("simulator-result")).toHaveAttribute("data-status", "ready", { timeout: 60_000 });

  // Partition, summariser request, verdict and findings are shown.
  await expect(page.locator('[data-testid="simulator-range"][data-kind="summarised"]').first()).toBeVisible();
  await expect(page.getByTestId("simulator-summariser-request").first()).toBeVisible();
  await expect(page.getByTestId("simulator-summariser-request").first().getByTestId("request-editor")).toBeVisible({ timeout: 30_000 });
  // The simulated summariser request is exportable through the Export panel.
  await page.getByTestId("simulator-summariser-request").first().getByTestId("export-button").click();
  const exportPanel = page.getByTestId("export-panel");
  await expect(exportPanel).toHaveAttribute("data-status", "ready");
  await expect(exportPanel).toContainText("turn-8-simulated-pi-summariser-1.request.json");
  await page.getByTestId("simulator-summariser-request").first().getByTestId("export-button").click();
  await expect(page.getByTestId("simulator-verdict")).toHaveAttribute("data-verdict", "compacted");
  await expect(page.getByTestId("simulator-not-checked")).toContainText("stopped by the repeated-compaction guard");
  await expect(page.getByTestId("simulator-findings")).toBeVisible();
  // CP-0-5: the provider-accurate count next to pi's chars/4 estimate (OpenAI shape: exact o200k).
  await expect(page.getByTestId("simulator-provider-count")).toContainText("exact (o200k)");

  // opencode: the spiral with the brake off grows; with the brake on it stops.
  await page.getByTestId("simulator-policy").selectOption("opencode");
  const brake = page.getByTestId("simulator-spiral-brake");
  await expect(brake).not.toBeChecked();
  await page.getByTestId("simulator-spiral-run").click();
  const spiral = page.getByTestId("simulator-spiral-result");
  await expect(spiral).toHaveAttribute("data-brake", "off", { timeout: 30_000 });
  const offVerdict = await spiral.getAttribute("data-verdict");
  await brake.check();
  await page.getByTestId("simulator-spiral-run").click();
  await expect(spiral).toHaveAttribute("data-brake", "on");
  await expect(page.getByTestId("simulator-spiral-on-verdict")).toContainText("compaction does not make the context smaller");
  const onVerdict = await spiral.getAttribute("data-verdict");
  expect(offVerdict).toBe("failed");
  expect(onVerdict).not.toBe(offVerdict);
  await expect(page.getByTestId("simulator-verdict")).toBeVisible();

  // Whole-session replay under pi with the fixture's limits marks at least one turn.
  await page.getByTestId("simulator-policy").selectOption("pi");
  await page.getByTestId("simulator-replay-run").click();
  await expect(page.getByTestId("simulator-replay-result")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("timeline-sim-badge").first()).toBeVisible();
  expect(Number(await page.getByTestId("simulator-replay-result").getAttribute("data-compactions"))).toBeGreaterThan(0);
});
