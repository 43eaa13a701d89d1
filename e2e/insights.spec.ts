// Journeys of the cost, composition, search, keyboard and theme features: the samples' cost column
// and session total equal the price table applied to the recorded usage (computed here, from the
// sample file and the prices written below, not by the app's code); an unknown model is "not
// priced"; the stacked chart selects a turn on click; `/` finds a string only one tool result of a
// late turn holds and jumps there; `g` 7 Enter; `?`; the theme toggle with Monaco following; the
// empty page naming every agent.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { appView, dropFiles, expect, openEmptyApp, repoRoot, test, turnRow, waitForRequestTurn, waitForSession } from "./support";

/** List prices, $ per million tokens (input, cached input, 5-minute cache write, output), as published. */
const PRICES: Record<string, { input: number; cached: number; write: number; output: number }> = {
  "claude-sonnet-4-5": { input: 3, cached: 0.3, write: 3.75, output: 15 },
  "gpt-4.1": { input: 2, cached: 0.5, write: 2, output: 8 },
};

interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** The recorded usage of every turn of a pi sample's default branch (the path to its last entry). */
function branchUsages(file: string): { model: string; usage: Usage }[] {
  const entries = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as { type: string; id?: string; parentId?: string | null; message?: { role: string; model?: string; usage?: Usage } });
  const byId = new Map(entries.filter((e) => e.id).map((e) => [e.id!, e]));
  const path: typeof entries = [];
  for (let entry = entries[entries.length - 1]; entry; entry = entry.parentId ? byId.get(entry.parentId) : undefined) path.unshift(entry);
  return path.filter((e) => e.type === "message" && e.message?.role === "assistant" && e.message.usage).map((e) => ({ model: e.message!.model!, usage: e.message!.usage! }));
}

function dollars({ model, usage }: { model: string; usage: Usage }): number {
  const p = PRICES[model]!;
  return (usage.input * p.input + usage.cacheRead * p.cached + usage.cacheWrite * p.write + usage.output * p.output) / 1e6;
}

async function openSample(page: Page, id: string): Promise<void> {
  await page.goto(`./?sample=${id}`);
  await waitForSession(page);
}

for (const sample of ["pi-korean", "pi-english-compaction"]) {
  test(`cost: ${sample}'s cost column and session total are the price table applied to the recorded usage`, async ({ page }) => {
    const turns = branchUsages(path.join(repoRoot, "public/samples", `${sample}.jsonl`));
    await openSample(page, sample);
    expect((await appView(page)).turnCount).toBe(turns.length);
    const total = page.getByTestId("session-cost");
    await expect(total).toHaveAttribute("data-status", "priced");
    const expectedTotal = turns.reduce((sum, turn) => sum + dollars(turn), 0);
    expect(Number(await total.getAttribute("data-dollars"))).toBeCloseTo(expectedTotal, 10);
    await expect(total).toHaveText(`$${expectedTotal.toFixed(2)}`);
    // The first rows on screen: each one's cost.
    for (let turn = 1; turn <= Math.min(6, turns.length); turn++) {
      const cost = turnRow(page, turn).getByTestId("turn-cost");
      await expect(cost).toHaveAttribute("data-status", "priced");
      expect(Number(await cost.getAttribute("data-dollars"))).toBeCloseTo(dollars(turns[turn - 1]!), 12);
      await expect(cost).not.toHaveText("$0.00");
    }
  });
}

/** A linear pi session: each turn a tool call answered by a tool result; `needle` in one late tool result only. */
function toolSession(turns: number, provider: string, model: string, needleTurn: number, needle: string): string {
  const lines = [
    JSON.stringify({ type: "session", version: 3, id: "insights", timestamp: "2026-11-29T10:00:00.000Z", cwd: "/tmp/x" }),
    JSON.stringify({ type: "model_change", id: "m0", parentId: null, timestamp: "2026-11-29T10:00:00.001Z", provider, modelId: model }),
    JSON.stringify({ type: "message", id: "u0", parentId: "m0", timestamp: "2026-11-29T10:00:01.000Z", message: { role: "user", content: [{ type: "text", text: "read the files" }], timestamp: 1_795_000_000_000 } }),
  ];
  let parent = "u0";
  for (let turn = 1; turn <= turns; turn++) {
    const t = 1_795_000_000_000 + turn * 60_000;
    const assistant = `a${turn}`;
    lines.push(
      JSON.stringify({
        type: "message",
        id: assistant,
        parentId: parent,
        timestamp: new Date(t).toISOString(),
        message: {
          role: "assistant",
          content: [{ type: "toolCall", id: `call${turn}`, name: "read", arguments: { path: `src/file${turn}.ts` } }],
          api: "anthropic-messages",
          provider,
          model,
          usage: { input: 100 * turn, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 100 * turn + 20 },
          stopReason: "toolUse",
          timestamp: t,
        },
      }),
      JSON.stringify({
        type: "message",
        id: `r${turn}`,
        parentId: assistant,
        timestamp: new Date(t + 1000).toISOString(),
        message: {
          role: "toolResult",
          toolCallId: `call${turn}`,
          toolName: "read",
          content: [{ type: "text", text: `export const value${turn} = ${turn};\n`.repeat(turn) + (turn === needleTurn - 1 ? `// ${needle}\n` : "") }],
          isError: false,
          timestamp: t + 1000,
        },
      }),
    );
    parent = `r${turn}`;
  }
  return lines.join("\n") + "\n";
}

test("cost: a session with a model the price dataset lacks is not priced, naming the model, never $0.00", async ({ page }) => {
  await openEmptyApp(page);
  await dropFiles(page, [{ name: "unknown.jsonl", text: toolSession(3, "fake", "fake-model", 99, "x") }]);
  await waitForSession(page, "unknown.jsonl");
  await expect(page.getByTestId("session-cost")).toHaveText("not priced: fake/fake-model");
  await expect(turnRow(page, 2).getByTestId("turn-cost")).toHaveText("not priced");
  await expect(turnRow(page, 2)).toContainText("fake-model");
  await expect(turnRow(page, 2).getByTestId("turn-cost")).toHaveAttribute("title", /no price for fake\/fake-model in the price dataset/);
  await expect(turnRow(page, 2).getByTestId("turn-cost")).toHaveAttribute("data-status", "not priced");
});

test("composition: the stacked chart selects the turn clicked; the turn's messages are listed by size", async ({ page }) => {
  await openEmptyApp(page);
  await dropFiles(page, [{ name: "chart.jsonl", text: toolSession(12, "anthropic", "claude-sonnet-4-5", 99, "x") }]);
  await waitForSession(page, "chart.jsonl");
  await page.getByTestId("tab-tokens").click();
  const chart = page.getByTestId("composition-chart").locator("svg");
  await expect(chart).toBeVisible();
  await expect(chart.locator('path[data-kind="tool-result"]')).toHaveCount(1);
  const box = (await chart.boundingBox())!;
  // Turn 9 of 12 sits at 8/11 of the width.
  await page.mouse.click(box.x + (box.width * 8) / 11, box.y + box.height / 2);
  await expect.poll(async () => (await appView(page)).selectedTurn).toBe(9);
  await expect(page.getByTestId("turn-position")).toHaveText("Turn 9 of 12");
  // The list is turn 9's once the worker has counted it (the Claude estimate's tables load first).
  await expect(page.getByTestId("tokens-turn")).toHaveText("Turn 9", { timeout: 30_000 });
  // The estimates come first and the exact counts replace them, re-ordering the list: wait for the
  // exact list, then read it in one evaluation of the list itself (a locator over its items would
  // hold the items in one render's order and read their sizes in the next).
  const list = page.getByTestId("token-messages");
  await expect(list).toHaveAttribute("data-pass", "exact", { timeout: 30_000 });
  const sizes = await list.evaluate((ol) => Array.from(ol.querySelectorAll("li"), (li) => Number(li.getAttribute("data-tokens"))));
  expect(sizes.length).toBeGreaterThan(3);
  expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  await expect(list.locator("li").first()).toHaveAttribute("data-kind", "tool-result");
});

test("search: / finds the one tool result of turn 22 that holds the string and jumps there", async ({ page }) => {
  const needle = "zebra-needle-7731";
  await openEmptyApp(page);
  await dropFiles(page, [{ name: "search.jsonl", text: toolSession(30, "anthropic", "claude-sonnet-4-5", 22, needle) }]);
  await waitForSession(page, "search.jsonl");
  await turnRow(page, 1).click();
  await page.keyboard.press("/");
  const input = page.getByTestId("search-input");
  await expect(input).toBeFocused();
  await input.fill(needle);
  await expect(page.getByTestId("search-status")).toHaveAttribute("data-done", "true");
  const hits = page.getByTestId("search-hit");
  await expect(hits).toHaveCount(1);
  await expect(hits.first()).toHaveAttribute("data-turn", "22");
  await expect(hits.first()).toContainText("tool-result");
  await input.press("Enter");
  await expect(page.getByTestId("search-panel")).toHaveCount(0);
  await waitForRequestTurn(page, 22);
  expect((await appView(page)).selectedTurn).toBe(22);
  await expect(page.getByTestId("request-editor")).toHaveAttribute("data-search-matches", "1");
  await expect(page.locator(".search-match").first()).toBeVisible();
  await expect(page.locator(".search-match").first()).toHaveText(needle);
});

test("keyboard: g 7 Enter selects turn 7; Ctrl+G too; ? lists every shortcut", async ({ page }) => {
  await openEmptyApp(page);
  await dropFiles(page, [{ name: "keys.jsonl", text: toolSession(10, "anthropic", "claude-sonnet-4-5", 99, "x") }]);
  await waitForSession(page, "keys.jsonl");
  await turnRow(page, 1).click();
  await expect(page.getByTestId("turn-position")).toHaveText("Turn 1 of 10");
  await page.keyboard.press("g");
  await page.keyboard.type("7");
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await appView(page)).selectedTurn).toBe(7);
  await expect(page.getByTestId("turn-position")).toHaveText("Turn 7 of 10");
  await page.keyboard.press("Control+g");
  await page.keyboard.type("3");
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await appView(page)).selectedTurn).toBe(3);
  await page.keyboard.press("?");
  const panel = page.getByTestId("shortcuts-panel");
  await expect(panel).toBeVisible();
  for (const key of ["j", "k", "Home", "End", "g", "Ctrl+G", "/", "?", "Esc"]) await expect(panel.locator("kbd", { hasText: new RegExp(`^${key.replace(/[?/+]/g, "\\$&")}$`) })).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);
});

test("theme: the toggle switches light and dark, is kept, and Monaco follows", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await openSample(page, "pi-korean");
  const html = page.locator("html");
  await expect(html).toHaveAttribute("data-theme", "dark");
  const editor = page.getByTestId("request-editor").locator(".monaco-editor").first();
  await expect(editor).toHaveClass(/vs-dark/);
  const toggle = page.getByTestId("theme-toggle");
  await toggle.click(); // system → light
  await expect(html).toHaveAttribute("data-theme", "light");
  await expect(editor).not.toHaveClass(/vs-dark/);
  await expect(editor).toHaveClass(/\bvs\b/);
  expect(await page.evaluate(() => localStorage.getItem("contextscope.settings"))).toBe('{"theme":"light"}');
  await page.reload();
  await waitForSession(page);
  await expect(html).toHaveAttribute("data-theme", "light");
  await page.getByTestId("theme-toggle").click(); // light → dark
  await expect(html).toHaveAttribute("data-theme", "dark");
  await expect(page.getByTestId("request-editor").locator(".monaco-editor").first()).toHaveClass(/vs-dark/);
});

test("theme: following the system setting", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await openEmptyApp(page);
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
});

test("empty page: names every agent and file kind we read and the formats page", async ({ page }) => {
  await openEmptyApp(page);
  const list = page.getByTestId("readable-files");
  for (const name of ["pi", "senpi", "Claude Code", "Codex CLI", "opencode", "hermes-agent", "opencode.db", "state.db", "request_dump_", "export"]) {
    await expect(list).toContainText(name);
  }
  await expect(page.getByTestId("formats-doc")).toHaveText("docs/formats.md");
});

test("prices: an edited price is kept, marked edited, and changes the costs", async ({ page }) => {
  const turns = branchUsages(path.join(repoRoot, "public/samples", "pi-korean.jsonl"));
  await openSample(page, "pi-korean");
  await page.getByTestId("session-cost").click();
  const panel = page.getByTestId("prices-panel");
  await expect(panel.locator('[data-testid="price-row"][data-key="openai/gpt-4.1"]')).toContainText(PRICES_SOURCE_OPENAI);
  const input = page.getByTestId("price-openai/gpt-4.1-input");
  await input.fill("4");
  await input.blur();
  await expect(panel.locator('[data-testid="price-row"][data-key="openai/gpt-4.1"]').getByTestId("price-edited")).toBeVisible();
  const expected = turns.reduce((sum, t) => sum + dollars(t) + (t.usage.input * 2 + t.usage.cacheWrite * 0) / 1e6, 0);
  await expect.poll(async () => Number(await page.getByTestId("session-cost").getAttribute("data-dollars"))).toBeCloseTo(expected, 10);
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem("contextscope.priceOverrides"))) ?? "{}")).toEqual({ "openai/gpt-4.1": { input: 4 } });
  await page.reload();
  await waitForSession(page);
  expect(Number(await page.getByTestId("session-cost").getAttribute("data-dollars"))).toBeCloseTo(expected, 10);
});

const PRICES_SOURCE_OPENAI = "https://developers.openai.com/api/docs/pricing";
