// Journey of GitHub Copilot CLI event logs. Our recording of the real CLI 1.0.102
// (test/fixtures/copilot-cli/recording-1.0.102) opens as Copilot CLI with its three calls, each
// priced from its usage record; the request of the call after the resume shows the messages the
// resumed CLI read back from its log, and the details say in words that the request is
// approximated, with the tools not recorded. A hand-written log with every event type shows its
// compaction row before the fourth call. Dropped with the three requests the CLI sent, every turn
// is equal to the wire (the first request teaches the tools and settings the log lacks). Screenshots at 1440x900 and 1024x700
// (CONTEXTSCOPE_SCREENSHOT_DIR, else not written).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { appView, dropFiles, expect, expectEditorToShow, openEmptyApp, repoRoot, scrollEditorToEnd, test, turnRow, waitForRequestTurn, waitForSession } from "./support";

const FIXTURES = path.join(repoRoot, "test/fixtures/copilot-cli");

function eventLog(relative: string) {
  return [{ name: "events.jsonl", text: readFileSync(path.join(FIXTURES, relative, "events.jsonl"), "utf8") }];
}

function requestFiles() {
  return ["001.json", "002.json", "003.json"].map((name) => ({ name, text: readFileSync(path.join(FIXTURES, "recording-1.0.102/requests", name), "utf8") }));
}

async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.CONTEXTSCOPE_SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}

async function requestIncludes(page: Page, text: string): Promise<void> {
  await page.waitForFunction((part) => (window as unknown as { __contextscope?: { requestText: string | null } }).__contextscope?.requestText?.includes(part) === true, text);
}

test("a Copilot CLI recording: its calls priced, the resumed messages, the request approximated in words", async ({ page }) => {
  test.setTimeout(120_000);
  await openEmptyApp(page);
  await dropFiles(page, eventLog("recording-1.0.102"));
  await waitForSession(page, "events.jsonl");
  expect((await appView(page)).turnCount).toBe(3);
  await expect(page.getByTestId("format-label")).toContainText("GitHub Copilot CLI");
  await expect(page.getByTestId("warnings-button")).toContainText("0 warnings");
  await expect(turnRow(page, 1).getByTestId("turn-cost")).toHaveAttribute("data-status", "priced");
  await expect(page.getByTestId("session-cost")).toHaveAttribute("data-status", "priced");

  await turnRow(page, 3).click();
  await waitForRequestTurn(page, 3);
  // The resumed CLI sends the tool result it read back with the tool's name and intent.
  await requestIncludes(page, "__copilotMessageSource");
  await requestIncludes(page, "Say hello");
  const notRecorded = page.locator(".not-recorded-item");
  await expect(notRecorded.first()).toContainText("approximated: GitHub Copilot CLI's request builder is not public");
  await expect(notRecorded).toContainText(["tools"]);
  // The end of the body: the resumed tool result, the last prompt, the tools marker.
  await expectEditorToShow(page, ['"role": "system"']);
  await scrollEditorToEnd(page);
  await expectEditorToShow(page, ["Say hello", "Copilot CLI's tool definitions"]);
  await screenshot(page, "copilot-cli-1440x900");
  await page.setViewportSize({ width: 1024, height: 700 });
  await expect(notRecorded.first()).toBeAttached();
  await screenshot(page, "copilot-cli-1024x700");
  expect((await appView(page)).error).toBeNull();
});

test("a Copilot CLI log with every event type: the compaction row, the unknown event named", async ({ page }) => {
  test.setTimeout(120_000);
  await openEmptyApp(page);
  await dropFiles(page, eventLog("session-state/5e1f0c2a-7b3d-4c11-9a42-0d6f8e2b1c01"));
  await waitForSession(page, "events.jsonl");
  expect((await appView(page)).turnCount).toBe(4);
  // The unknown event and the cut line, each named by its line.
  await expect(page.getByTestId("warnings-button")).toContainText("2 warnings");
  const compaction = page.locator('[data-testid="timeline-row"][data-kind="compaction"]');
  await expect(compaction).toHaveCount(1);
  await expect(compaction).toHaveAttribute("data-before-turn", "4");
  await turnRow(page, 4).click();
  await waitForRequestTurn(page, 4);
  await requestIncludes(page, "<summary>The user listed the files");
  await expectEditorToShow(page, ["<summary>The user listed the files"]);
  await screenshot(page, "copilot-cli-compaction-1440x900");
  expect((await appView(page)).error).toBeNull();
});

test("a Copilot CLI recording dropped with the requests it sent is equal to the wire, turn by turn", async ({ page }) => {
  test.setTimeout(180_000);
  await openEmptyApp(page);
  await dropFiles(page, [...eventLog("recording-1.0.102"), ...requestFiles()]);
  await waitForSession(page, "events.jsonl");
  await expect(page.getByTestId("wire-headline")).toHaveText("3 of 3 turns equal to the wire", { timeout: 60_000 });
  await turnRow(page, 3).click();
  await waitForRequestTurn(page, 3);
  await page.getByTestId("capture-diff-toggle").check();
  await expect(page.getByTestId("capture-diff-verdict")).toHaveText("equal to the wire");
  await screenshot(page, "copilot-cli-wire-1440x900");
  expect((await appView(page)).error).toBeNull();
});
