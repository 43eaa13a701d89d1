// Journey of a Kilo Code CLI database (our own recording of 7.7.7, test/fixtures/kilo/run-autocompact):
// kilo.db dropped with its -wal opens as Kilo (never as opencode, whose tables it shares), with its
// turns and the automatic compaction before the turn that replays the prompt; that turn's request
// shows the replayed prompt and Kilo's `<environment_details>` block, which the database does not
// hold. Dropped with the recorded requests, every turn is equal to the wire.
// Screenshots at 1440x900 and 1024x700 (CONTEXTSCOPE_SCREENSHOT_DIR, else not written).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { appView, dropFiles, expect, openEmptyApp, repoRoot, test, turnRow, waitForRequestTurn, waitForSession } from "./support";

const CASE = path.join(repoRoot, "test/fixtures/kilo/run-autocompact");

function databaseFiles() {
  return ["kilo.db", "kilo.db-wal"].map((name) => ({ name, base64: readFileSync(path.join(CASE, "session", name)).toString("base64") }));
}

function requestFiles() {
  const dir = path.join(CASE, "requests");
  return readdirSync(dir)
    .filter((name) => /^\d{3}\.json$/.test(name))
    .map((name) => ({ name, text: readFileSync(path.join(dir, name), "utf8") }));
}

/** The turn after the compaction: the first whose recorded main request starts with the compaction's question. */
function turnAfterCompaction(): { turn: number; turns: number } {
  const dir = path.join(CASE, "requests");
  const mains = readdirSync(dir)
    .filter((name) => /^\d{3}\.meta\.json$/.test(name))
    .sort()
    .filter((name) => (JSON.parse(readFileSync(path.join(dir, name), "utf8")) as { kind: string }).kind === "main")
    .map((name) => readFileSync(path.join(dir, name.replace(".meta", "")), "utf8"));
  return { turn: mains.findIndex((text) => text.includes("What did we do so far?")) + 1, turns: mains.length };
}

async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.CONTEXTSCOPE_SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}

test("a Kilo database: its turns, the compaction, the replayed prompt and the environment block in the request", async ({ page }) => {
  test.setTimeout(180_000);
  const { turn, turns } = turnAfterCompaction();
  expect(turn).toBeGreaterThan(1);
  await openEmptyApp(page);
  await dropFiles(page, databaseFiles());
  await waitForSession(page, "kilo.db");
  expect((await appView(page)).turnCount).toBe(turns);
  await expect(page.getByTestId("format-label")).toContainText("Kilo");
  await expect(page.getByTestId("wal-warning")).toHaveCount(0);

  const compaction = page.locator('[data-testid="timeline-row"][data-kind="compaction"]');
  await expect(compaction).toHaveCount(1);
  await expect(compaction).toHaveAttribute("data-before-turn", String(turn));

  await turnRow(page, turn).click();
  await waitForRequestTurn(page, turn);
  for (const part of ["What did we do so far?", "The active agent has changed from compaction to code", "<environment_details>"]) {
    await page.waitForFunction((text) => (window as unknown as { __contextscope?: { requestText: string | null } }).__contextscope?.requestText?.includes(text) === true, part);
  }
  expect((await appView(page)).error).toBeNull();
});

test("a Kilo database dropped with its recorded requests is equal to the wire, turn by turn", async ({ page }) => {
  test.setTimeout(180_000);
  const { turns } = turnAfterCompaction();
  await openEmptyApp(page);
  await dropFiles(page, [...databaseFiles(), ...requestFiles()]);
  await waitForSession(page, "kilo.db");
  await expect(page.getByTestId("wire-headline")).toHaveText(`${turns} of ${turns} turns equal to the wire`, { timeout: 60_000 });
  await expect(turnRow(page, 1).getByTestId("timeline-wire-badge")).toHaveText("wire =");
  await turnRow(page, turns).click();
  await waitForRequestTurn(page, turns);
  await page.getByTestId("capture-diff-toggle").check();
  await expect(page.getByTestId("capture-diff-verdict")).toHaveText("equal to the wire");
  await screenshot(page, "kilo-1440x900");
  await page.setViewportSize({ width: 1024, height: 700 });
  await expect(page.getByTestId("wire-headline")).toBeVisible();
  await screenshot(page, "kilo-1024x700");
  expect((await appView(page)).error).toBeNull();
});
