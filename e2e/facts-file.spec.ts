// Journey: what a capture taught, kept and reused. The Claude Code recording opened with its first
// captured request only: "Save facts" downloads a facts file holding that one model's header. A
// fresh open of the session alone shows the system prompt and tools as not in the file; attaching
// the facts file fills them, and the recording's every captured request, dropped next, is then
// equal to the rebuilt request of its turn (15 of 15): the facts file, not the captures, supplied
// the session constants. The same file is refused on a session of another agent, and opening
// another session lets go of the previous session's facts. Screenshots at 1440×900 and 1024×700
// (CONTEXTSCOPE_SCREENSHOT_DIR, else not written).
import { readdirSync, readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { dropFiles, expect, fixtureText, openEmptyApp, sharedFixturePath, test, waitForSession } from "./support";

const CLAUDE = "claude/print-autocompact-manualcompact";
const CLAUDE_SESSION = "ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl";
const SESSION_FILE = { name: CLAUDE_SESSION, text: fixtureText(`${CLAUDE}/session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/${CLAUDE_SESSION}`) };

function requestFiles() {
  return readdirSync(sharedFixturePath(CLAUDE, "requests"))
    .filter((name) => /^\d{3}\.json$/.test(name))
    .map((name) => ({ name, text: readFileSync(sharedFixturePath(CLAUDE, "requests", name), "utf8") }));
}

async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.CONTEXTSCOPE_SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}

test("a facts file saved from one capture rebuilds a later open of the session, equal to the wire", async ({ page }) => {
  test.setTimeout(120_000);
  const first = requestFiles().find((file) => file.name === "001.json")!;
  await openEmptyApp(page);
  await dropFiles(page, [SESSION_FILE, first]);
  await waitForSession(page, CLAUDE_SESSION);
  await expect(page.getByTestId("header-state")).toHaveText(/from 001\.json/, { timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("facts-save").click()]);
  expect(download.suggestedFilename()).toMatch(/\.facts\.json$/);
  const factsPath = (await download.path())!;
  const facts = JSON.parse(readFileSync(factsPath, "utf8")) as { format: string; agentVersion: string | null; models: { header: { source: string } }[] };
  expect(facts.format).toBe("contextscope-facts");
  expect(facts.models.map((entry) => entry.header.source)).toEqual(["001.json"]);
  expect(facts.agentVersion).toMatch(/^\d/);

  // A fresh open of the session alone: the facts of the previous open are not carried over.
  await openEmptyApp(page);
  await dropFiles(page, [SESSION_FILE]);
  await waitForSession(page, CLAUDE_SESSION);
  await expect(page.getByTestId("header-state")).not.toHaveText(/from /, { timeout: 30_000 });
  await page.getByTestId("header-input").setInputFiles({ name: download.suggestedFilename(), mimeType: "application/json", buffer: readFileSync(factsPath) });
  await expect(page.getByTestId("header-state")).toHaveText(new RegExp(`from ${download.suggestedFilename().replace(/\./g, "\\.")} · 001\\.json`), { timeout: 30_000 });
  await expect(page.locator(".header-error")).toHaveCount(0);
  // Every capture of the recording checked against rebuilds made with the facts file's constants.
  await dropFiles(page, requestFiles());
  await expect(page.getByTestId("wire-headline")).toHaveText("15 of 15 turns equal to the wire", { timeout: 60_000 });
  await expect(page.getByTestId("header-state")).toHaveText(/from .*\.facts\.json · 001\.json \(\+\d+ captures\)/);
  await screenshot(page, "facts-file-1440x900");
  await page.setViewportSize({ width: 1024, height: 700 });
  await expect(page.getByTestId("facts-save")).toBeVisible();
  await screenshot(page, "facts-file-1024x700");
  await page.setViewportSize({ width: 1440, height: 900 });

  // Another agent's session: the previous facts go, and the file is refused with its reason.
  await page.getByTestId("samples-button").click();
  await page.getByRole("menuitem").first().click();
  await expect(page.getByTestId("header-state")).not.toHaveText(/facts\.json/, { timeout: 30_000 });
  await page.getByTestId("header-input").setInputFiles({ name: download.suggestedFilename(), mimeType: "application/json", buffer: readFileSync(factsPath) });
  await expect(page.locator(".header-error")).toContainText("is not for this session: the facts were learnt from Claude Code", { timeout: 30_000 });
});
