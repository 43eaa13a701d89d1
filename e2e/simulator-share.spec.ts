// Journey: the simulator's settings travel in a share link. Open the pi print-openai-autocompact
// fixture, simulate pi's compaction after turn 8 with non-default settings (context window and
// keepRecentTokens entered; reserveTokens inferred from the recorded compactions, shown as such),
// make a share link, open it in a new page: the panel opens with the same settings and shows the
// same simulation (trigger arithmetic, verdict, partition). No console errors, same origin only.
import type { Page } from "@playwright/test";
import { baseName, dropFiles, expect, fixtureText, openEmptyApp, PI_OPENAI_SESSION, test, turnRow, waitForSession } from "./support";

const SESSION_NAME = baseName(PI_OPENAI_SESSION);

async function shownSimulation(page: Page): Promise<{ trigger: string; verdict: string | null; ranges: string[] }> {
  return {
    trigger: (await page.getByTestId("simulator-trigger-expression").textContent()) ?? "",
    verdict: await page.getByTestId("simulator-verdict").getAttribute("data-verdict"),
    ranges: await page.getByTestId("simulator-range").evaluateAll((nodes) => nodes.map((n) => `${n.getAttribute("data-kind")}:${n.textContent ?? ""}`)),
  };
}

test("a share link carries the simulator's settings and reopens the same simulation", async ({ page, context, baseURL }) => {
  test.setTimeout(180_000);
  await openEmptyApp(page);
  await dropFiles(page, [{ name: SESSION_NAME, text: fixtureText(PI_OPENAI_SESSION) }]);
  await waitForSession(page, SESSION_NAME);
  await turnRow(page, 8).click();
  await page.getByTestId("simulate-button").click();
  await expect(page.getByTestId("simulator-panel")).toBeVisible();
  await page.getByTestId("simulator-policy").selectOption("pi");

  // The settings consistent with the session, marked inferred, with the compactions that bound them.
  const keep = page.getByTestId("simulator-inferred-keepRecentTokens");
  await expect(keep).toContainText("1,788–1,804", { timeout: 60_000 });
  await expect(keep).toContainText("compaction 1");
  await expect(page.getByTestId("simulator-inferred-settings")).toContainText("inferred");

  // Non-default settings: the window the case ran with and a keepRecentTokens of our own (it wins
  // over the inferred one, which is then no longer listed); reserveTokens stays inferred.
  await page.getByTestId("simulator-context-window").fill("16000");
  await page.getByTestId("simulator-parameters").locator("summary").click();
  await page.getByTestId("simulator-param-keepRecentTokens").fill("900");
  const reserve = page.getByTestId("simulator-inferred-reserveTokens");
  await expect(reserve).toContainText("11,360–11,760", { timeout: 60_000 });
  await expect(keep).toHaveCount(0);
  const trigger = page.getByTestId("simulator-trigger-expression");
  await expect(trigger).toContainText("16,000 − 11,760 = 4,240", { timeout: 60_000 });
  await expect(page.getByTestId("simulator-verdict")).toHaveAttribute("data-verdict", "compacted");
  const before = await shownSimulation(page);
  expect(before.ranges.length).toBeGreaterThan(0);

  await page.getByTestId("share-button").click();
  await expect(page.getByTestId("share-dialog")).toHaveAttribute("data-status", "ready");
  const link = await page.getByTestId("share-link").inputValue();
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#v2=[A-Za-z0-9_-]+$/);

  const other = await context.newPage();
  const origin = new URL(baseURL ?? link).origin;
  const problems: string[] = [];
  other.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  other.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  other.on("request", (r) => {
    const url = r.url();
    if (!url.startsWith("data:") && !url.startsWith("blob:") && new URL(url).origin !== origin) problems.push(`request: ${url}`);
  });
  await other.goto(link);
  await expect(other.getByTestId("simulator-panel")).toBeVisible({ timeout: 60_000 });
  await expect(other.getByTestId("simulator-policy")).toHaveValue("pi");
  await expect(other.getByTestId("simulator-context-window")).toHaveValue("16000");
  await expect(other.getByTestId("simulator-param-keepRecentTokens")).toHaveValue("900");
  await expect(other.getByTestId("simulator-inferred-shared")).toContainText("reserved tokens");
  await expect(other.getByTestId("simulator-trigger-expression")).toHaveText(before.trigger, { timeout: 60_000 });
  await expect(other.getByTestId("simulator-verdict")).toHaveAttribute("data-verdict", before.verdict ?? "");
  const after = await shownSimulation(other);
  expect(after).toEqual(before);
  expect(problems).toEqual([]);
  await other.close();
});
