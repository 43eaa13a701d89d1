// One session of each agent — the Claude Code transcript, the Codex
// rollout, the opencode database dropped as `.db` together with its `-wal` — opened and stepped
// through with j/k. Every turn's request must be the one on screen: the editor is searched for a
// piece of text from the last message of the recorded request of that turn. Also: the opencode
// session picker and the banner for a database dropped without its `-wal`.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import {
  appView,
  dropFiles,
  editorText,
  expect,
  expectEditorToShow,
  fixtureText,
  openEmptyApp,
  repoRoot,
  test,
  waitForRequestTurn,
  waitForSession,
} from "./support";

const CLAUDE_SESSION =
  "claude/print-autocompact-manualcompact/session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl";
const CODEX_SESSION =
  "codex/exec-autocompact/session/sessions/2026/11/29/rollout-2026-11-29T19-25-29-01a228c5-0111-7641-8ea4-161c4b3a44d5.jsonl";
const OPENCODE_DB_DIR = "opencode/run-autocompact/session/opencode-db";
const WAL_SYNTHETIC_DIR = "opencode/wal-synthetic";

function fixturePath(relativePath: string): string {
  return path.join(repoRoot, "test/fixtures", relativePath);
}

function base64(relativePath: string): string {
  return readFileSync(fixturePath(relativePath)).toString("base64");
}

/** Recorded main request bodies of a fixture, in order (turn N = the N-th). */
function recordedMainRequests(fixture: string): Record<string, unknown>[] {
  const dir = fixturePath(`${fixture}/requests`);
  const bodies: Record<string, unknown>[] = [];
  for (let seq = 1; ; seq++) {
    const name = String(seq).padStart(3, "0");
    let meta: { kind: string };
    try {
      meta = JSON.parse(readFileSync(path.join(dir, `${name}.meta.json`), "utf8")) as { kind: string };
    } catch {
      break;
    }
    if (meta.kind === "main") bodies.push(JSON.parse(readFileSync(path.join(dir, `${name}.json`), "utf8")) as Record<string, unknown>);
  }
  return bodies;
}

function stringLeaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringLeaves(item, out);
  else if (value && typeof value === "object") for (const item of Object.values(value)) stringLeaves(item, out);
  return out;
}

/**
 * A piece of the last conversation message of `request` that the previous request does not hold:
 * plain characters only, so the pretty-printed JSON shows it verbatim.
 */
function turnNeedle(request: Record<string, unknown>, previous: Record<string, unknown> | null): string | null {
  const conversation = (request.messages ?? request.input) as Record<string, unknown>[];
  const before = previous ? JSON.stringify(previous) : "";
  for (let at = conversation.length - 1; at >= 0; at--) {
    const message = conversation[at] as Record<string, unknown>;
    // The system prompt is not recorded in opencode sessions (a marker is shown instead).
    if (message.role === "system") continue;
    for (const text of stringLeaves(message).reverse()) {
      for (const match of text.matchAll(/[A-Za-z0-9][A-Za-z0-9 ,.:_-]{15,39}/g)) {
        const piece = match[0].trim();
        if (piece.length >= 16 && !before.includes(piece) && !/\s{2}/.test(piece)) return piece;
      }
    }
  }
  return null;
}

/** Reveals `needle` in the request editor with Monaco's find widget and waits until it is shown. */
async function expectEditorToReveal(page: Page, needle: string): Promise<void> {
  const editor = page.getByTestId("request-editor");
  await editor.locator(".view-lines").click({ position: { x: 40, y: 10 } });
  await page.keyboard.press("ControlOrMeta+f");
  const input = editor.locator(".find-widget textarea, .find-widget input").first();
  await input.fill(needle);
  await page.keyboard.press("Enter");
  await expect.poll(() => editorText(page), { message: `editor shows ${JSON.stringify(needle)}` }).toContain(needle);
  await page.keyboard.press("Escape");
}

/** Which timeline row is selected (kind and identity), to see that a key press moved the selection. */
async function selectedRowKey(page: Page): Promise<string> {
  const row = page.locator('[data-testid="timeline-row"][aria-selected="true"]');
  if ((await row.count()) === 0) return "none";
  return row.first().evaluate((element) => {
    const data = (element as HTMLElement).dataset;
    return `${data.kind}:${data.turn ?? data.entryId ?? data.auxIndex ?? ""}`;
  });
}

/**
 * Steps through the whole timeline with j (then back one with k), checking each selected turn's
 * request: the toolbar names the turn and the editor holds text only that turn's request has.
 */
async function stepThroughTurns(page: Page, expectedTurns: number, recorded: Record<string, unknown>[]): Promise<void> {
  expect(recorded).toHaveLength(expectedTurns);
  // Turns whose last message has no plain-text piece (e.g. a first prompt in Korean) are checked
  // by their toolbar only; most turns have one.
  const needles = recorded.map((request, index) => turnNeedle(request, index > 0 ? (recorded[index - 1] as Record<string, unknown>) : null));
  const timeline = page.getByTestId("timeline");
  const seen: number[] = [];
  let view = await appView(page);
  for (let guard = 0; guard < expectedTurns * 3 && seen.length < expectedTurns; guard++) {
    if (view.selectedTurn !== null && !seen.includes(view.selectedTurn)) {
      const turn = view.selectedTurn;
      await waitForRequestTurn(page, turn);
      await expect(page.locator(".request-view .view-toolbar .strong").first()).toHaveText(`Turn ${turn}`);
      const needle = needles[turn - 1];
      if (needle) await expectEditorToReveal(page, needle);
      seen.push(turn);
    }
    if (seen.length === expectedTurns) break;
    const before = await selectedRowKey(page);
    await timeline.focus();
    await page.keyboard.press("j");
    await expect.poll(() => selectedRowKey(page)).not.toBe(before);
    view = await appView(page);
  }
  expect(seen).toEqual(Array.from({ length: expectedTurns }, (_, i) => i + 1));
  expect(needles.filter((needle) => needle !== null).length).toBeGreaterThanOrEqual(expectedTurns - 2);
  // k goes back one turn, and its request is shown again.
  await timeline.focus();
  await page.keyboard.press("End");
  await page.waitForFunction((n) => (window as unknown as { __contextscope?: { selectedTurn: number | null } }).__contextscope?.selectedTurn === n, expectedTurns);
  await page.keyboard.press("k");
  await waitForRequestTurn(page, expectedTurns - 1);
  const needle = needles[expectedTurns - 2];
  if (needle) await expectEditorToReveal(page, needle);
}

test("a Claude Code transcript opens with its own profile and every turn's request", async ({ page }) => {
  test.setTimeout(180_000);
  await openEmptyApp(page);
  const name = path.basename(CLAUDE_SESSION);
  await dropFiles(page, [{ name, text: fixtureText(CLAUDE_SESSION) }]);
  await waitForSession(page, name);
  expect((await appView(page)).turnCount).toBe(15);
  await expect(page.getByTestId("format-label")).toContainText("Claude Code");
  await expect(page.getByTestId("profile-select")).toHaveText("Claude Code");
  // Both recorded compactions are timeline events.
  await expect(page.locator('[data-testid="timeline-row"][data-kind="compaction"]').first()).toBeAttached();
  await expectEditorToShow(page, ['"model": "claude-opus-5-5"']);
  await stepThroughTurns(page, 15, recordedMainRequests("claude/print-autocompact-manualcompact"));
});

test("a Codex rollout opens with its own profile and every turn's request", async ({ page }) => {
  test.setTimeout(180_000);
  await openEmptyApp(page);
  const name = path.basename(CODEX_SESSION);
  await dropFiles(page, [{ name, text: fixtureText(CODEX_SESSION) }]);
  await waitForSession(page, name);
  expect((await appView(page)).turnCount).toBe(15);
  await expect(page.getByTestId("format-label")).toContainText("Codex CLI");
  await expect(page.getByTestId("profile-select")).toHaveText("Codex CLI");
  await stepThroughTurns(page, 15, recordedMainRequests("codex/exec-autocompact"));
});

test("an opencode database dropped with its -wal opens, with its auxiliary requests", async ({ page }) => {
  test.setTimeout(180_000);
  await openEmptyApp(page);
  await dropFiles(page, [
    { name: "opencode.db", base64: base64(`${OPENCODE_DB_DIR}/opencode.db`) },
    { name: "opencode.db-wal", base64: base64(`${OPENCODE_DB_DIR}/opencode.db-wal`) },
    { name: "opencode.db-shm", base64: base64(`${OPENCODE_DB_DIR}/opencode.db-shm`) },
  ]);
  await waitForSession(page, "opencode.db");
  expect((await appView(page)).turnCount).toBe(17);
  await expect(page.getByTestId("format-label")).toContainText("opencode");
  await expect(page.getByTestId("profile-select")).toHaveText("opencode");
  await expect(page.getByTestId("wal-warning")).toHaveCount(0);
  await expect(page.getByTestId("session-select")).toHaveCount(0);

  // The title request comes before turn 1: selectable, labelled, its synthesised text shown.
  const title = page.locator('[data-testid="timeline-row"][data-kind="auxiliary"][data-purpose="title"]');
  await expect(title).toContainText("title request");
  await title.click();
  await expect(page.getByTestId("auxiliary-kind")).toHaveText("title request");
  await expectEditorToShow(page, ["Generate a title for this conversation:"]);
  const summariser = page.locator('[data-testid="timeline-row"][data-kind="auxiliary"][data-purpose="summary"]').first();
  await summariser.scrollIntoViewIfNeeded();
  await summariser.click();
  await expect(page.getByTestId("auxiliary-kind")).toHaveText("summariser request");

  await page.getByTestId("timeline").focus();
  await page.keyboard.press("Home");
  await stepThroughTurns(page, 17, recordedMainRequests("opencode/run-autocompact"));
});

test("a database with several sessions gets a session picker; alone, a warning about the -wal", async ({ page }) => {
  await openEmptyApp(page);
  await dropFiles(page, [
    { name: "opencode.db", base64: base64(`${WAL_SYNTHETIC_DIR}/opencode.db`) },
    { name: "opencode.db-wal", base64: base64(`${WAL_SYNTHETIC_DIR}/opencode.db-wal`) },
  ]);
  await waitForSession(page, "opencode.db");
  const picker = page.getByTestId("session-select");
  await expect(picker.locator("option")).toHaveCount(2);
  await expect(picker).toHaveValue("ses_b");
  // Which session is shown is said by the picker, not counted as a warning.
  await expect(page.getByTestId("warnings-button")).toContainText("0 warnings");
  const turnsOfB = (await appView(page)).turnCount;
  await picker.selectOption("ses_a");
  await expect(picker).toHaveValue("ses_a");
  await page.waitForFunction(() => (window as unknown as { __contextscope?: { ready: boolean; turnCount: number } }).__contextscope?.turnCount === 2);
  expect(turnsOfB).toBe(1);
  await expect(page.getByTestId("wal-warning")).toHaveCount(0);

  // The main file alone: the rows only in the WAL are missing, and the page says so.
  await dropFiles(page, [{ name: "opencode.db", base64: base64(`${WAL_SYNTHETIC_DIR}/opencode.db`) }]);
  await expect(page.getByTestId("wal-warning")).toBeVisible();
  await expect(page.getByTestId("wal-warning")).toContainText("without its -wal file");
  await expect(page.getByTestId("session-select")).toHaveCount(0);
  await page.waitForFunction(() => (window as unknown as { __contextscope?: { ready: boolean; turnCount: number } }).__contextscope?.turnCount === 1);

  // A lone -wal file is refused with a message naming the database to drop.
  await dropFiles(page, [{ name: "opencode.db-wal", base64: base64(`${WAL_SYNTHETIC_DIR}/opencode.db-wal`) }]);
  await expect(page.getByTestId("error-banner")).toContainText("drop opencode.db together with opencode.db-wal");
});

test("a hermes-agent message list opens with its own profile; a pi session offers pi and senpi", async ({ page }) => {
  await openEmptyApp(page);
  const list = [
    { role: "system", content: "You are hermes." },
    { role: "user", content: "List the files" },
    { role: "assistant", content: "Here they are." },
    { role: "user", content: "Thanks" },
  ];
  await dropFiles(page, [{ name: "hermes.json", text: JSON.stringify(list, null, 2) }]);
  await waitForSession(page, "hermes.json");
  expect((await appView(page)).turnCount).toBe(2);
  await expect(page.getByTestId("profile-select")).toHaveText("hermes-agent");
  await expect(page.getByTestId("profile-select")).toBeDisabled();
  await expect(page.getByTestId("notes-toggle")).toHaveCount(0);
  await expectEditorToShow(page, ['"content": "You are hermes."']);

  const piSession = "pi/print-openai-autocompact/session/--home-dev-pi-print-openai-autocompact-lighthouse-notes--/2026-11-29T19-24-40-505Z_01a228c4-42b7-7303-bb87-25da37b563c2.jsonl";
  const name = path.basename(piSession);
  await dropFiles(page, [{ name, text: fixtureText(piSession) }]);
  await waitForSession(page, name);
  await expect(page.getByTestId("profile-select").locator("option")).toHaveText(["pi", "senpi"]);
  await expect(page.getByTestId("notes-toggle")).toHaveCount(0);
  await page.getByTestId("profile-select").selectOption("senpi");
  await expect(page.getByTestId("notes-toggle")).toHaveCount(1);
});
