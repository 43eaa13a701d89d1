// Journey of a Kimi Code wire file (our own recording of 2.1.0, test/fixtures/kimi-code/run-autocompact):
// wire.jsonl opens as Kimi Code with its 14 requests and the automatic compaction before turn 9;
// that turn's request sends the kept prompts, the summary and Kimi Code's continuation reminder,
// and the details panel shows the file's own `llm.request` record equal to the rebuilt request.
// Dropped with the recorded requests, every main request and the summariser request are equal
// to the wire (15 bodies of about 85 kB each: the check takes a while on a busy machine).
// Screenshots at 1440x900 and 1024x700 (CONTEXTSCOPE_SCREENSHOT_DIR, else not written).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { appView, dropFiles, expect, openEmptyApp, repoRoot, test, turnRow, waitForRequestTurn, waitForSession } from "./support";

const CASE = path.join(repoRoot, "test/fixtures/kimi-code/run-autocompact");

function wireFile() {
  return { name: "wire.jsonl", text: readFileSync(path.join(CASE, "session/wire.jsonl"), "utf8") };
}

function requestFiles() {
  const dir = path.join(CASE, "requests");
  return readdirSync(dir)
    .filter((name) => /^\d{3}\.json$/.test(name))
    .map((name) => ({ name, text: readFileSync(path.join(dir, name), "utf8") }));
}

async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.CONTEXTSCOPE_SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}

test("a Kimi Code wire file: its requests, the compaction, and its own record of each request", async ({ page }) => {
  test.setTimeout(180_000);
  await openEmptyApp(page);
  await dropFiles(page, [wireFile()]);
  await waitForSession(page, "wire.jsonl");
  expect((await appView(page)).turnCount).toBe(14);
  await expect(page.getByTestId("format-label")).toContainText("Kimi Code");
  await expect(page.getByTestId("warnings-button")).toContainText("0 warnings");

  const compaction = page.locator('[data-testid="timeline-row"][data-kind="compaction"]');
  await expect(compaction).toHaveCount(1);
  await expect(compaction).toHaveAttribute("data-before-turn", "9");

  await turnRow(page, 9).click();
  await waitForRequestTurn(page, 9);
  for (const part of ["The conversation so far has been compacted", "Context compaction is complete"]) {
    await page.waitForFunction((text) => (window as unknown as { __contextscope?: { requestText: string | null } }).__contextscope?.requestText?.includes(text) === true, part);
  }
  const record = page.getByTestId("dump-check");
  await expect(record).toHaveCount(1);
  await expect(record).toHaveText(/llm\.request \(turn\.step 4\.1\), turn 9: system prompt, tools, message count and model equal the rebuilt request/);
  await expect(record).toHaveClass(/dump-equal/);
  await screenshot(page, "kimi-code-turn9-1440x900");
  expect((await appView(page)).error).toBeNull();
});

test("a Kimi Code wire file dropped with its recorded requests is equal to the wire, turn by turn", async ({ page }) => {
  test.setTimeout(300_000);
  await openEmptyApp(page);
  await dropFiles(page, [wireFile(), ...requestFiles()]);
  await waitForSession(page, "wire.jsonl");
  await expect(page.getByTestId("wire-headline")).toHaveText("14 of 14 turns equal to the wire", { timeout: 180_000 });
  await expect(turnRow(page, 1).getByTestId("timeline-wire-badge")).toHaveText("wire =");
  await turnRow(page, 14).click();
  await waitForRequestTurn(page, 14);
  await page.getByTestId("capture-diff-toggle").check();
  await expect(page.getByTestId("capture-diff-verdict")).toHaveText("equal to the wire");
  await screenshot(page, "kimi-code-1440x900");
  await page.setViewportSize({ width: 1024, height: 700 });
  await expect(page.getByTestId("wire-headline")).toBeVisible();
  await screenshot(page, "kimi-code-1024x700");
  expect((await appView(page)).error).toBeNull();
});
