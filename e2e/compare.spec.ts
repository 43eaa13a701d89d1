// Journeys of the compare view: the shared pi recording against senpi's recording of the same
// prompts (dropped on the compare view, so the main session stays) names turn 2 as the first
// aligned pair whose requests differ, shows its Monaco diff, and jumps back to it; two branches
// of one committed pi session tree compare through the branch choice.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { appView, dropOnCompareView, expect, fixtureText, openEmptyApp, sharedFixturePath, dropFiles, test, waitForSession } from "./support";

function sessionFileIn(dir: string): string {
  const sessionDir = path.join(dir, "session");
  const sub = readdirOnce(sessionDir);
  return path.join(sessionDir, sub, readdirOnce(path.join(sessionDir, sub)));
}

function readdirOnce(dir: string): string {
  return readdirSync(dir).find((name) => !name.startsWith("."))!;
}

test("pi vs senpi recordings: the first differing aligned pair is turn 2, with its request diff", async ({ page }) => {
  const piPath = sessionFileIn(sharedFixturePath("pi/print-openai-autocompact"));
  const senpiPath = sessionFileIn(sharedFixturePath("senpi/print-openai-autocompact"));
  await openEmptyApp(page);
  await dropFiles(page, [{ name: path.basename(piPath), text: readFileSync(piPath, "utf8") }]);
  await waitForSession(page, path.basename(piPath));

  await page.getByTestId("compare-button").click();
  await expect(page.getByTestId("compare-view")).toBeVisible();
  await dropOnCompareView(page, path.basename(senpiPath), readFileSync(senpiPath, "utf8"));
  await expect(page.getByTestId("compare-view")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
  // The drop was side B: the main session is still the pi one.
  expect((await appView(page)).fileName).toBe(path.basename(piPath));

  const pairs = page.getByTestId("compare-pair");
  await expect(pairs).toHaveCount(15);
  await expect(pairs.nth(0)).toHaveAttribute("data-differs", "false");
  const first = page.locator('[data-testid="compare-pair"][data-first="true"]');
  await expect(first).toHaveCount(1);
  await expect(first).toHaveAttribute("data-a", "2");
  await expect(first).toHaveAttribute("data-b", "2");
  await expect(page.getByTestId("compare-first-difference")).toHaveText("First difference: A 2 / B 2");

  // The view opens on the first difference: its two requests in the Monaco diff.
  const pairDiff = page.getByTestId("compare-pair-diff");
  await expect(pairDiff).toHaveAttribute("data-path", "messages[2].tool_calls[0].id");
  await expect(pairDiff).toContainText("A turn 2 vs B turn 2");
  await expect(page.getByTestId("diff-editor")).toBeVisible();
  await expect(page.getByTestId("diff-status")).toHaveAttribute("data-state", "done", { timeout: 30_000 });

  // Totals side by side: 15 turns each, 2 compactions in pi's recording and 1 in senpi's.
  const totals = page.getByTestId("compare-totals");
  await expect(totals.locator('[data-total="turns"] td')).toHaveText(["turns", "15", "15"]);
  await expect(totals.locator('[data-total="compactions"] td')).toHaveText(["compactions", "2", "1"]);
  // The recordings' scripted model has no price: "not priced", never $0.00.
  await expect(totals.locator('[data-total="cost"] td')).toHaveText(["cost (recorded usage, your prices)", "not priced", "not priced"]);

  // Another pair, then back to the first difference.
  await pairs.nth(0).click();
  await expect(pairDiff).toHaveAttribute("data-path", "");
  await expect(pairDiff).toContainText("no difference the cache keys on");
  await page.getByTestId("compare-first-difference").click();
  await expect(pairDiff).toHaveAttribute("data-a", "2");
  await expect(pairDiff).toHaveAttribute("data-path", "messages[2].tool_calls[0].id");

  await page.getByTestId("compare-close").click();
  await expect(page.getByTestId("compare-view")).toHaveCount(0);
  await expect(page.getByTestId("tab-request")).toBeVisible();
});

test("two branches of one pi session: the edited prompt is the first differing pair", async ({ page }) => {
  const name = "session.jsonl";
  await openEmptyApp(page);
  await dropFiles(page, [{ name, text: fixtureText("pi/compare-branches/session/session.jsonl") }]);
  await waitForSession(page, name);
  await page.getByTestId("compare-button").click();
  // The branch shown is the latest (ending at a3b); compare it with the branch ending at a2.
  await page.getByTestId("compare-branch-select").selectOption("a2");
  await expect(page.getByTestId("compare-view")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
  const pairs = page.getByTestId("compare-pair");
  await expect(pairs).toHaveCount(3);
  const first = page.locator('[data-testid="compare-pair"][data-first="true"]');
  await expect(first).toHaveAttribute("data-a", "2");
  await expect(first).toHaveAttribute("data-b", "2");
  await expect(first).toContainText("by position");
  await expect(page.getByTestId("compare-pair-diff")).toHaveAttribute("data-path", "messages[3].content[0].text");
  await expect(pairs.nth(2)).toContainText("only in A");
});
