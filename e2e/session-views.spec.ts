// Journeys: the views a user of other session viewers expects first, on every agent's files.
// - The last session survives a reload: a dropped file reopens on a bare address at the turn and
//   tab shown (the address's ?turn= winning), and "Forget this session" deletes it.
// - The Conversation tab shows each agent's turn as messages, tool calls and results folded,
//   session text as text (never HTML).
// - The timeline filter (all, breaks, compactions, errors) with counts, j/k stepping over the rows shown.
// - The session at a glance: cost with sub-agents, cache-read share, breaks, compactions, turns.
// - Sub-agents: a pretty-printed Codex parent rollout dropped with its children opens as the parent;
//   an unreadable file among several is named with the whole list of what was expected.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import {
  appView,
  baseName,
  dropFiles,
  expect,
  fixtureText,
  openEmptyApp,
  PI_OPENAI_SESSION,
  repoRoot,
  sharedFixturePath,
  test,
  turnRow,
  waitForSession,
  type DroppedFile,
} from "./support";

const view = (page: Page) => page.evaluate(() => (window as unknown as { __contextscope: { selectedTurn: number | null; activeTab: string; fileName: string | null } }).__contextscope);

test("a dropped session survives a reload at the turn and tab shown, and Forget this session deletes it", async ({ page }) => {
  await openEmptyApp(page);
  const name = baseName(PI_OPENAI_SESSION);
  await dropFiles(page, [{ name, text: fixtureText(PI_OPENAI_SESSION) }]);
  await waitForSession(page, name);
  await turnRow(page, 3).click();
  await page.getByTestId("tab-conversation").click();
  await expect(page.getByTestId("kept-session")).toHaveAttribute("data-status", "kept");
  await expect(page.getByTestId("kept-session")).toContainText("Kept in this browser");
  // The view is written half a second after the last move.
  await page.waitForTimeout(1_000);

  // A bare address (no sample, no share link) reopens it where it was.
  await page.goto("./");
  await waitForSession(page, name);
  await expect.poll(async () => (await view(page)).selectedTurn).toBe(3);
  expect((await view(page)).activeTab).toBe("conversation");
  await expect(page.getByTestId("conversation-view")).toContainText("Turn 3");
  await expect(page.getByTestId("kept-session")).toHaveAttribute("data-status", "kept");

  // The address's turn wins over the kept one.
  await page.goto("./?turn=5");
  await waitForSession(page, name);
  await expect.poll(async () => (await view(page)).selectedTurn).toBe(5);

  // Forget: the session stays on screen, but the next visit opens the first sample instead.
  await page.getByTestId("forget-session").click();
  await expect(page.getByTestId("kept-session")).toHaveCount(0);
  await expect.poll(async () => (await view(page)).fileName).toBe(name);
  await page.goto("./");
  await waitForSession(page);
  expect((await appView(page)).fileName).not.toBe(name);
  await expect(page.getByTestId("kept-session")).toHaveCount(0);
});

function sharedText(...parts: string[]): DroppedFile {
  const file = sharedFixturePath(...parts);
  return { name: path.basename(file), text: readFileSync(file, "utf8") };
}

const claudeDir = ["claude", "print-autocompact-manualcompact", "session", "projects", "-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes"];
const AGENTS: { agent: string; files: () => DroppedFile[]; turn: number }[] = [
  { agent: "pi", files: () => [{ name: baseName(PI_OPENAI_SESSION), text: fixtureText(PI_OPENAI_SESSION) }], turn: 8 },
  {
    agent: "Claude Code",
    files: () => [sharedText(...claudeDir, readdirSync(sharedFixturePath(...claudeDir)).find((name) => name.endsWith(".jsonl"))!)],
    turn: 3,
  },
  { agent: "Codex", files: () => [sharedText("realworld", "codex", "codemie-rollout-0.128-desktop.jsonl")], turn: 5 },
  {
    agent: "opencode",
    files: () => {
      const file = sharedFixturePath("realworld", "opencode", "suhd550-stunning-memory-v1.16", "opencode.db");
      return [{ name: "opencode.db", base64: readFileSync(file).toString("base64") }];
    },
    turn: 15,
  },
  { agent: "hermes", files: () => [sharedText("realworld", "hermes", "juliuss-kb", "sessions", "session_20260424_182100_85ae43c6.json")], turn: 5 },
];

for (const { agent, files, turn } of AGENTS) {
  test(`the Conversation tab shows a ${agent} turn as messages with folded tool calls and results`, async ({ page }) => {
    await openEmptyApp(page);
    const dropped = files();
    await dropFiles(page, dropped);
    await waitForSession(page, dropped[0]!.name);
    await turnRow(page, turn).click();
    await page.getByTestId("tab-conversation").click();
    const conversation = page.getByTestId("conversation-view");
    await expect(conversation).toContainText(`Turn ${turn}`);
    const messages = page.getByTestId("conversation-message");
    await expect(messages.first()).toBeVisible();
    await expect(page.locator('[data-testid="conversation-message"][data-role="user"]').first()).toBeVisible();
    // Tool calls are folded until opened; opening one shows its arguments.
    const call = page.getByTestId("conversation-tool-call").first();
    await expect(call).toBeVisible();
    await expect(call).not.toHaveAttribute("open", "");
    await call.locator("summary").click();
    await expect(call).toHaveAttribute("open", "");
    await expect(call.locator("pre")).toBeVisible();
    await expect(page.getByTestId("conversation-tool-result").first()).toContainText("Output of");
    // The next turn starts at its first message.
    const scroll = page.getByTestId("conversation-scroll");
    const scrolls = await scroll.evaluate((element) => element.scrollHeight > element.clientHeight + 50);
    // Every agent's turn chosen here is longer than the view.
    expect(scrolls).toBe(true);
    await scroll.evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await expect.poll(() => scroll.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
    await turnRow(page, turn + 1).click();
    await expect(conversation).toContainText(`Turn ${turn + 1}`);
    await expect.poll(() => scroll.evaluate((element) => element.scrollTop)).toBe(0);
    // The summary strip is there for every agent.
    await expect(page.getByTestId("overview-turns")).toContainText(String((await appView(page)).turnCount));
  });
}

test("session text in the Conversation tab is text, never HTML", async ({ page }) => {
  await openEmptyApp(page);
  const session = "5e55a11d-0000-4000-8000-000000000002";
  const line = (value: Record<string, unknown>) => JSON.stringify({ sessionId: session, version: "2.1.30", cwd: "/p", userType: "external", timestamp: "2026-01-01T00:00:00.000Z", ...value });
  const hostile = '<img src=x onerror="document.title=1"><b>bold</b>';
  const text = [
    line({ type: "user", uuid: "u1", parentUuid: null, isSidechain: false, message: { role: "user", content: hostile } }),
    line({ type: "assistant", uuid: "a1", parentUuid: "u1", isSidechain: false, requestId: "req_1", message: { id: "m1", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "ok" }] } }),
  ].join("\n");
  await dropFiles(page, [{ name: `${session}.jsonl`, text }]);
  await waitForSession(page, `${session}.jsonl`);
  await turnRow(page, 1).click();
  await page.getByTestId("tab-conversation").click();
  const user = page.locator('[data-testid="conversation-message"][data-role="user"]').first();
  await expect(user).toContainText(hostile);
  await expect(page.getByTestId("conversation-view").locator("img, b")).toHaveCount(0);
});

test("the timeline filter shows the breaks, the compactions or the errors, with counts, and j/k step over the rows shown", async ({ page }) => {
  await openEmptyApp(page);
  const name = baseName(PI_OPENAI_SESSION);
  await dropFiles(page, [{ name, text: fixtureText(PI_OPENAI_SESSION) }]);
  await waitForSession(page, name);
  const total = (await appView(page)).turnCount;
  await expect(page.getByTestId("timeline-filter-all")).toHaveAttribute("data-count", String(total + 2));
  await expect(page.getByTestId("timeline-filter-compactions")).toHaveAttribute("data-count", "2");
  await expect(page.getByTestId("timeline-filter-errors")).toHaveAttribute("data-count", "0");
  await expect(page.getByTestId("timeline-filter-errors")).toBeDisabled();
  // The breaks are counted once the prefix pass has run (the two rewrites after compaction).
  await expect(page.getByTestId("timeline-filter-breaks")).toHaveAttribute("data-count", "2", { timeout: 30_000 });
  await expect(page.getByTestId("overview-breaks")).toContainText("2");
  await expect(page.getByTestId("overview-compactions")).toContainText("2");

  await page.getByTestId("timeline-filter-compactions").click();
  const rows = page.getByTestId("timeline-row");
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) await expect(row).toHaveAttribute("data-kind", "compaction");
  // The selection moved to the first compaction; j steps to the second one.
  await expect(rows.first()).toHaveAttribute("aria-selected", "true");
  await page.getByTestId("timeline").focus();
  await page.keyboard.press("j");
  await expect(rows.nth(1)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("j");
  await expect(rows.nth(1)).toHaveAttribute("aria-selected", "true");

  await page.getByTestId("timeline-filter-breaks").click();
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) await expect(row.getByTestId("timeline-break-badge")).toBeVisible();
  await page.keyboard.press("k");
  await expect(rows.first()).toHaveAttribute("aria-selected", "true");
  const firstBreak = Number(await rows.first().getAttribute("data-turn"));
  await expect.poll(async () => (await view(page)).selectedTurn).toBe(firstBreak);

  await page.getByTestId("timeline-filter-all").click();
  await expect(page.locator('[data-testid="timeline-row"][data-kind="turn"]').first()).toBeVisible();
  await expect.poll(async () => (await view(page)).selectedTurn).toBe(firstBreak);
});

const CODEX_FOLDER = path.join(repoRoot, "test/fixtures/codex/spawn-agents/sessions/2026/03/01");

test("a pretty-printed Codex parent rollout dropped with its children opens as the parent, its cost counting them", async ({ page }) => {
  await openEmptyApp(page);
  const names = readdirSync(CODEX_FOLDER).sort().reverse();
  const parent = names.find((file) => file.endsWith("a001.jsonl"))!;
  const prettyName = parent.replace(/\.jsonl$/, ".json");
  await dropFiles(
    page,
    names.map((file) => {
      const content = readFileSync(path.join(CODEX_FOLDER, file), "utf8");
      if (file !== parent) return { name: file, text: content };
      // `jq .` of each line: one object over several lines.
      const pretty = content
        .split("\n")
        .filter((value) => value.trim() !== "")
        .map((value) => JSON.stringify(JSON.parse(value), null, 2))
        .join("\n");
      return { name: prettyName, text: pretty };
    }),
  );
  await waitForSession(page, prettyName);
  expect((await appView(page)).turnCount).toBe(3);
  await expect(page.getByTestId("warnings-button")).toContainText("0 warnings");
  await expect(page.getByTestId("thread-item")).toHaveCount(3);
  await expect(page.getByTestId("overview-cost")).toContainText("cost with 3 sub-agents");
  await expect(page.getByTestId("overview-cache")).toContainText("%");
  await expect(page.getByTestId("overview-turns")).toContainText("3 turns");
});

test("a file no reader knows, dropped with a session, is named with the whole list of what was expected", async ({ page }) => {
  await openEmptyApp(page);
  const names = readdirSync(CODEX_FOLDER).sort();
  await dropFiles(page, [
    ...names.map((file) => ({ name: file, text: readFileSync(path.join(CODEX_FOLDER, file), "utf8") })),
    { name: "notes.jsonl", text: "just some notes\nnot a session\n" },
  ]);
  await waitForSession(page);
  await page.getByTestId("warnings-button").click();
  const panel = page.getByTestId("warnings-panel");
  await expect(panel).toContainText("notes.jsonl: unsupported format. Expected one of:");
  await expect(panel).toContainText("not a Codex session");
  await expect(panel).toContainText("not a hermes-agent side file");
});
