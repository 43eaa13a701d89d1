// Journey: drop the recorded Codex session with two of its captured main requests (001 and 005)
// → the first supplies the session constants, both are listed with what they taught; turn 5's
// Request view, switched to "diff with capture", shows the Monaco diff against 005.json with the
// one differing field named and classed "not derivable"; a turn without a capture says so.
import { dropFiles, expect, fixtureText, openEmptyApp, test, turnRow, waitForRequestTurn, waitForSession } from "./support";

const CASE = "codex/exec-autocompact";
const SESSION = `${CASE}/session/sessions/2026/11/29/rollout-2026-11-29T19-25-29-01a228c5-0111-7641-8ea4-161c4b3a44d5.jsonl`;
const SESSION_NAME = "rollout-2026-11-29T19-25-29-01a228c5-0111-7641-8ea4-161c4b3a44d5.jsonl";

test("a turn's rebuilt request against its captured request, each differing field classed", async ({ page }) => {
  await openEmptyApp(page);
  await dropFiles(page, [{ name: SESSION_NAME, text: fixtureText(SESSION) }]);
  await waitForSession(page, SESSION_NAME);
  await dropFiles(page, [
    { name: "001.json", text: fixtureText(`${CASE}/requests/001.json`) },
    { name: "005.json", text: fixtureText(`${CASE}/requests/005.json`) },
  ]);
  await expect(page.getByTestId("header-state")).toHaveText("system & tools: from 001.json (+1 captures)");

  await turnRow(page, 5).click();
  await waitForRequestTurn(page, 5);
  // What the captures taught, with their source.
  const facts = page.getByTestId("capture-facts-001.json");
  await expect(facts).toContainText("installation id and configuration flags of client_metadata");
  await expect(facts).toContainText("base instructions item (input[0]) and its id");
  await expect(facts).toContainText("001.json");

  await page.getByTestId("capture-diff-toggle").check();
  const diff = page.getByTestId("capture-diff");
  await expect(diff).toBeVisible();
  await expect(diff).toContainText("left: 005.json (captured)");
  await expect(page.getByTestId("capture-diff-verdict")).toHaveText("1 differing field");
  const paths = page.locator('[data-testid="capture-diff-paths"] li');
  await expect(paths).toHaveCount(1);
  await expect(paths.first()).toHaveAttribute("data-class", "not derivable");
  await expect(paths.first()).toContainText("turn_started_at_unix_ms");
  await expect(page.locator(".monaco-diff-editor")).toBeVisible({ timeout: 30_000 });

  // Turn 2 has no capture attached.
  await turnRow(page, 2).click();
  await waitForRequestTurn(page, 2);
  await expect(page.getByTestId("capture-diff-none")).toBeVisible();
});
