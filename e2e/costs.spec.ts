// The whole session's cost in the browser, for each agent's real files: the top bar prices every
// thread (sub-agents included) from the price dataset, the cost panel breaks it down by thread and
// names the dataset's version; a file without usage says so instead of "$0"; a hermes-agent
// state.db session is priced from the token counters hermes keeps per session. Expected dollars are
// computed here from the files' own token counts and the list prices written below (and, for the
// Claude Code session, ccusage 20.0.24's figure for its main thread), not by the app's code.
import { readFileSync } from "node:fs";
import path from "node:path";
import { dropFiles, expect, openEmptyApp, sharedFixturePath, test, turnRow, waitForSession } from "./support";

const RW = sharedFixturePath("realworld");
const b64 = (file: string) => readFileSync(file).toString("base64");
const text = (file: string) => readFileSync(file, "utf8");

for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 700 }]) {
  test(`Claude Code with sub-agents at ${size.width}: the top bar prices all 5 threads, the panel lists each`, async ({ page }) => {
    await page.setViewportSize(size);
    const name = "entire-6309-v2.1.39-compaction-4subagents.jsonl";
    await openEmptyApp(page);
    await dropFiles(page, [{ name, text: text(path.join(RW, "claude-code", name)) }]);
    await waitForSession(page, name);
    const total = page.getByTestId("session-cost");
    await expect(total).toHaveAttribute("data-threads", "5");
    await expect(total).toHaveAttribute("data-status", "priced");
    await expect(total).toContainText("5 threads");
    // The overview strip shows the same whole-session figure.
    const topBarDollars = Number(await total.getAttribute("data-dollars"));
    await expect(page.getByTestId("overview-cost")).toContainText("cost with 4 sub-agents");
    await expect(page.getByTestId("overview-cost")).toContainText(`$${topBarDollars.toFixed(2)}`);
    await total.click();
    const panel = page.getByTestId("prices-panel");
    await expect(panel.getByTestId("prices-dataset")).toContainText("@pydantic/genai-prices 0.1.8");
    const rows = panel.getByTestId("thread-cost-row");
    await expect(rows).toHaveCount(5);
    await expect(rows.first()).toContainText("Main thread");
    const dollars = await rows.evaluateAll((items) => items.map((item) => Number(item.getAttribute("data-dollars"))));
    // ccusage 20.0.24 prices the same 153 main-thread calls at $11.7968 (bench/ccusage-parity.ts).
    expect(Math.abs(dollars[0]! - 11.7968) / 11.7968).toBeLessThan(0.01);
    expect(dollars.slice(1).every((value) => value > 0)).toBe(true);
    const sum = dollars.reduce((a, b) => a + b, 0);
    expect(Number(await total.getAttribute("data-dollars"))).toBeCloseTo(sum, 9);
    await expect(panel.locator('[data-testid="price-row"][data-key="anthropic/claude-opus-4-6"]')).toBeVisible();
    // The panel fits the window.
    const box = await panel.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(size.width);
  });
}

test("opencode database on DeepSeek V4 Flash through a gateway: priced at DeepSeek's list prices", async ({ page }) => {
  const file = path.join(RW, "opencode/suhd550-stunning-memory-v1.16/opencode.db");
  await openEmptyApp(page);
  await dropFiles(page, [{ name: "opencode.db", base64: b64(file) }]);
  await waitForSession(page, "opencode.db");
  // The database's assistant messages record 5,387 input, 622,720 cache-read and 4,814 output
  // tokens; DeepSeek V4 Flash costs $0.14 / $0.0028 / $0.28 per million (before 2026-08-17).
  const expected = (5387 * 0.14 + 622_720 * 0.0028 + 4814 * 0.28) / 1e6;
  const total = page.getByTestId("session-cost");
  await expect(total).toHaveAttribute("data-status", "priced");
  expect(Number(await total.getAttribute("data-dollars"))).toBeCloseTo(expected, 9);
  await total.click();
  await expect(page.getByTestId("prices-panel").locator('[data-testid="price-row"][data-key="deepseek/deepseek-v4-flash"]')).toContainText("by date/hour");
});

test("a hermes-agent transcript (session_meta first line) beside its snapshot opens; without usage the cost says so", async ({ page }) => {
  const dir = path.join(RW, "hermes/juliuss-kb/sessions");
  await openEmptyApp(page);
  await dropFiles(page, [
    { name: "20260424_182100_85ae43c6.jsonl", text: text(path.join(dir, "20260424_182100_85ae43c6.jsonl")) },
    { name: "session_20260424_182100_85ae43c6.json", text: text(path.join(dir, "session_20260424_182100_85ae43c6.json")) },
  ]);
  await waitForSession(page);
  await expect(page.getByTestId("session-cost")).toHaveText("no usage recorded");
  await expect(page.getByTestId("session-cost")).toHaveAttribute("data-status", "no usage");
  await expect(turnRow(page, 1).getByTestId("turn-cost")).toHaveText("no usage");
  await expect(turnRow(page, 1).getByTestId("turn-cost")).toHaveAttribute("title", /records no token usage/);
  // The summary never says "$0" for a file without usage.
  await expect(page.getByTestId("overview-cost")).toContainText("no usage recorded");
  await expect(page.locator("body")).not.toContainText("not priced");
});

test("a hermes-agent state.db session is priced from the token counters hermes keeps per session", async ({ page }) => {
  const dir = sharedFixturePath("hermes-storage");
  await openEmptyApp(page);
  await dropFiles(page, [
    { name: "state.db", base64: b64(path.join(dir, "state.db")) },
    { name: "state.db-wal", base64: b64(path.join(dir, "state.db-wal")) },
  ]);
  await waitForSession(page, "state.db");
  await page.getByTestId("session-select").selectOption("20261201_090624_3e9952");
  // sessions row: 10,610 input, 9,296 cache-read, 192 output tokens of Claude Sonnet 4
  // ($3 / $0.30 / $15 per million).
  const expected = (10_610 * 3 + 9296 * 0.3 + 192 * 15) / 1e6;
  const total = page.getByTestId("session-cost");
  await expect.poll(async () => Number(await total.getAttribute("data-dollars"))).toBeCloseTo(expected, 9);
  await total.click();
  await expect(page.getByTestId("prices-counted-as")).toContainText("session totals state.db records");
});
