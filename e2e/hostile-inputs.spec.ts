// Hostile inputs in the browser: a share link made with a captured request attached as the header
// reopens in a new page with that header (its model and facts travel with it); a hermes session
// snapshot whose tool-call arguments nest 50,000 levels deep opens, names the cut in its warnings
// and shows the request of the turn after it; a hermes snapshot with a raw CR byte in a string
// opens with its turns; a file nothing could be read from is an error, never "ready" with 0 turns;
// opencode.db beside another database's WAL opens from its main file with a warning; a share link
// made with captured summariser texts attached reopens with them.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import {
  PI_OPENAI_REQUEST_001,
  PI_OPENAI_SESSION,
  appView,
  baseName,
  dropFiles,
  expect,
  expectEditorToShow,
  fixtureText,
  openEmptyApp,
  repoRoot,
  test,
  turnRow,
  waitForRequestTurn,
  waitForSession,
} from "./support";

const SHOTS = process.env.CONTEXTSCOPE_SHOTS_DIR;

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

const SNAPSHOT_NAME = "session_20260103_100000_cc0016.json";
const snapshotText = readFileSync(path.join(repoRoot, "test/fixtures/hermes/storage/sessions", SNAPSHOT_NAME), "utf8");

/** The fixture snapshot with a tool call whose arguments text nests `depth` levels deep, and its result. */
function deepSnapshot(depth: number): string {
  const value = JSON.parse(snapshotText) as { messages: Record<string, unknown>[] };
  value.messages[1] = { ...value.messages[1], tool_calls: [{ id: "c1", type: "function", function: { name: "vision", arguments: `{"a":${"[".repeat(depth)}${"]".repeat(depth)}}` } }] };
  value.messages.splice(2, 0, { role: "tool", tool_call_id: "c1", content: "ok" });
  value.messages.push({ role: "assistant", content: "blue" });
  return JSON.stringify(value);
}

test("a share link made with a captured request as the header reopens with that header", async ({ page, context }) => {
  const sessionName = baseName(PI_OPENAI_SESSION);
  await openEmptyApp(page);
  await dropFiles(page, [{ name: sessionName, text: fixtureText(PI_OPENAI_SESSION) }]);
  await waitForSession(page, sessionName);
  await waitForRequestTurn(page, 1);
  await dropFiles(page, [{ name: "001.json", text: fixtureText(PI_OPENAI_REQUEST_001), type: "application/json" }]);
  await expect(page.getByTestId("header-state")).toHaveText("system & tools: from 001.json");
  await turnRow(page, 3).click();
  await waitForRequestTurn(page, 3);
  await expectEditorToShow(page, ["You are an expert coding assistant operating inside pi"]);

  await page.getByTestId("share-button").click();
  await expect(page.getByTestId("share-dialog")).toHaveAttribute("data-status", "ready");
  const link = await page.getByTestId("share-link").inputValue();
  expect(link).toMatch(/#v2=[A-Za-z0-9_-]+$/);
  await shot(page, "share-dialog-with-header");

  const reopened = await context.newPage();
  await reopened.goto(link);
  await waitForSession(reopened, sessionName);
  await waitForRequestTurn(reopened, 3);
  await expect(reopened.getByTestId("error-banner")).toHaveCount(0);
  await expect(reopened.getByTestId("header-state")).toHaveText("system & tools: from 001.json");
  await expectEditorToShow(reopened, ["You are an expert coding assistant operating inside pi"]);
  await shot(reopened, "share-link-reopened-with-header");
  await reopened.close();
});

test("a hermes snapshot with 50,000-deep tool-call arguments opens, names the cut and shows the next turn's request", async ({ page }) => {
  await openEmptyApp(page);
  await dropFiles(page, [{ name: SNAPSHOT_NAME, text: deepSnapshot(50_000), type: "application/json" }]);
  await waitForSession(page, SNAPSHOT_NAME);
  expect((await appView(page)).turnCount).toBe(2);
  await turnRow(page, 2).click();
  await waitForRequestTurn(page, 2);
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
  await expectEditorToShow(page, ["nested more than 128 levels deep: left out", '"tool_calls"']);
  await shot(page, "hermes-deep-arguments-request");
  await page.getByTestId("warnings-button").click();
  await expect(page.getByTestId("warnings-panel")).toContainText("tool_calls[0].function.arguments: 1 value nested more than 128 levels deep left out");
  await shot(page, "hermes-deep-arguments-warnings");
});

test("a hermes snapshot with a raw CR in a string opens with its turns; an unreadable one is an error", async ({ page }) => {
  await openEmptyApp(page);
  await dropFiles(page, [{ name: SNAPSHOT_NAME, text: snapshotText.replace("Describe this", "Describe\rthis"), type: "application/json" }]);
  await waitForSession(page, SNAPSHOT_NAME);
  expect((await appView(page)).turnCount).toBe(2);
  await page.getByTestId("warnings-button").click();
  await expect(page.getByTestId("warnings-panel")).toContainText("raw control character inside a JSON string at byte offset");

  // Cut inside its messages: nothing of it can be read, so the open fails with the reason.
  await dropFiles(page, [{ name: "session_20260103_100000_cc0017.json", text: snapshotText.slice(0, snapshotText.indexOf('"messages"') + 14), type: "application/json" }]);
  const banner = page.getByTestId("error-banner");
  await expect(banner).toContainText("session_20260103_100000_cc0017.json");
  const view = await appView(page);
  expect(view.fileName).toBe(SNAPSHOT_NAME);
  await shot(page, "hermes-unreadable-error");
});

const base64Of = (relative: string): string => readFileSync(path.join(repoRoot, "test/fixtures", relative)).toString("base64");

test("opencode.db beside another database's WAL opens from its main file, the warning naming why", async ({ page }) => {
  await openEmptyApp(page);
  await dropFiles(page, [
    { name: "opencode.db", base64: base64Of("opencode/wal-synthetic/opencode.db") },
    // hermes-agent's state.db WAL, renamed: the same page size, frames valid against their own header.
    { name: "opencode.db-wal", base64: base64Of("hermes/storage/v6-wal-state.db-wal") },
  ]);
  await waitForSession(page, "opencode.db");
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
  expect((await appView(page)).turnCount).toBeGreaterThan(0);
  await page.getByTestId("warnings-button").click();
  await expect(page.getByTestId("warnings-panel")).toContainText("belongs to another database or is damaged, so the main file was opened without it");
  await shot(page, "opencode-foreign-wal-warning");
});

test("a share link made with captured summariser texts reopens with them", async ({ page, context }) => {
  const sessionName = baseName(PI_OPENAI_SESSION);
  await openEmptyApp(page);
  await dropFiles(page, [{ name: sessionName, text: fixtureText(PI_OPENAI_SESSION) }]);
  await waitForSession(page, sessionName);
  await page.locator('[data-testid="timeline-row"][data-kind="compaction"][data-before-turn="9"]').click();
  await page.getByTestId("compaction-instructions-input").setInputFiles(path.join(repoRoot, "test/fixtures/pi/print-openai-autocompact/requests/009.json"));
  await expect(page.locator('[data-testid="compaction-slot"][data-filled="false"]')).toHaveCount(0);
  // A turn after the compaction, so that the branch the link holds includes it.
  await turnRow(page, 10).click();
  await waitForRequestTurn(page, 10);

  await page.getByTestId("share-button").click();
  await expect(page.getByTestId("share-dialog")).toHaveAttribute("data-status", "ready");
  const link = await page.getByTestId("share-link").inputValue();

  const reopened = await context.newPage();
  await reopened.goto(link);
  await waitForSession(reopened, sessionName);
  await expect(reopened.getByTestId("error-banner")).toHaveCount(0);
  await reopened.locator('[data-testid="timeline-row"][data-kind="compaction"][data-before-turn="9"]').click();
  await expect(reopened.getByTestId("compaction-slot").first()).toBeVisible();
  await expect(reopened.locator('[data-testid="compaction-slot"][data-filled="false"]')).toHaveCount(0);
  await expect(reopened.locator('[data-testid="compaction-slot"][data-filled="true"]')).not.toHaveCount(0);
  await shot(reopened, "share-link-reopened-with-instructions");
  await reopened.close();
});
