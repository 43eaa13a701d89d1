// Journey: the top bar at 1024×700 with a session whose model the price dataset lacks. The cost
// button ("not priced: <model>") gives way before anything is drawn over the warnings counter.
import { readFileSync } from "node:fs";
import path from "node:path";
import { dropFiles, expect, openEmptyApp, repoRoot, test, waitForSession } from "./support";

test("at 1024 px the top bar's cost button gives way and never covers the warnings counter", async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await openEmptyApp(page);
  const file = path.join(repoRoot, "test/fixtures/codex/exec-autocompact/session/sessions/2026/11/29/rollout-2026-11-29T19-25-29-01a228c5-0111-7641-8ea4-161c4b3a44d5.jsonl");
  await dropFiles(page, [{ name: "rollout-2026-11-29T19-25-29-01a228c5-0111-7641-8ea4-161c4b3a44d5.jsonl", text: readFileSync(file, "utf8") }]);
  await waitForSession(page, "rollout-2026-11-29T19-25-29-01a228c5-0111-7641-8ea4-161c4b3a44d5.jsonl");
  await expect(page.getByTestId("session-cost")).toHaveText(/not priced/);
  const rects = await page.evaluate(() => {
    const w = document.querySelector('[data-testid="warnings-button"]')!.getBoundingClientRect();
    const c = document.querySelector('[data-testid="session-cost"]')!.getBoundingClientRect();
    return { wRight: w.right, cLeft: c.left };
  });
  expect(rects.wRight).toBeLessThanOrEqual(rects.cLeft);
});
