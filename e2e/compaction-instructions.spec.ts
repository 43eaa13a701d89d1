// Journey (issue 8 item 5): a compaction event shows its rebuilt summariser request with the
// serialized conversation and the instruction slots marked "not recorded"; attaching a captured
// summariser request fills them, and dropping one on the page is recognised as a summariser
// capture (it does not become the main-request header).
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  baseName,
  dropFiles,
  expect,
  fixtureText,
  openEmptyApp,
  PI_OPENAI_SESSION,
  repoRoot,
  test,
  waitForSession,
} from "./support";

const SESSION_NAME = baseName(PI_OPENAI_SESSION);
const REQUESTS = "pi/print-openai-autocompact/requests";

test("captured summariser requests fill the compaction instruction slots", async ({ page }) => {
  await openEmptyApp(page);
  await dropFiles(page, [{ name: SESSION_NAME, text: fixtureText(PI_OPENAI_SESSION) }]);
  await waitForSession(page, SESSION_NAME);

  await page.locator('[data-testid="timeline-row"][data-kind="compaction"][data-before-turn="9"]').click();
  await expect(page.getByTestId("compaction-view")).toBeVisible();
  await expect(page.getByTestId("compaction-conversation")).toContainText(/Serialized conversation · [\d,]+ chars/);
  const slots = page.getByTestId("compaction-slot");
  await expect(slots.first()).toBeVisible();
  await expect(page.locator('[data-testid="compaction-slot"][data-filled="true"]')).toHaveCount(0);
  await expect(slots.first()).toContainText("not recorded");

  // Attach the recorded request of this compaction: every slot it uses is filled.
  await page.getByTestId("compaction-instructions-input").setInputFiles(path.join(repoRoot, "test/fixtures", REQUESTS, "009.json"));
  await expect(page.locator('[data-testid="compaction-slot"][data-filled="false"]')).toHaveCount(0);
  await expect(page.locator('[data-testid="compaction-slot"][data-filled="true"]')).not.toHaveCount(0);

  // The second compaction split a turn: its turn-prefix slot is still empty until 014.json is
  // dropped on the page, which must not replace the (absent) main-request header.
  await page.locator('[data-testid="timeline-row"][data-kind="compaction"][data-before-turn="13"]').click();
  await expect(page.getByTestId("compaction-slot").filter({ hasText: "turn-prefix" })).toContainText("not recorded");
  await dropFiles(page, [{ name: "014.json", text: readFileSync(path.join(repoRoot, "test/fixtures", REQUESTS, "014.json"), "utf8"), type: "application/json" }]);
  await expect(page.getByTestId("compaction-slot").filter({ hasText: "turn-prefix" })).toContainText("filled");
  await expect(page.getByTestId("header-state")).toHaveText("system & tools: not in the file");
});
