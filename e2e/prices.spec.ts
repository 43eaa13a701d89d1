// Journeys of the price gaps: the compare view prices with the user's edited table (kept in
// localStorage), like the main view; a Claude Sonnet 4.5 turn above 200k input tokens is priced at
// the long-context prices and says so; a Claude Code turn's 1-hour cache writes are priced at the
// 1-hour rate. Every expected dollar figure is computed here from the session text and the list
// prices written below, not by the app's code.
import { readFileSync } from "node:fs";
import path from "node:path";
import { dropFiles, dropOnCompareView, expect, openEmptyApp, repoRoot, test, turnRow, waitForSession } from "./support";

/** Recorded usage of every assistant message of a linear pi sample, in order. */
function sampleUsages(file: string): { input: number; output: number; cacheRead: number; cacheWrite: number }[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as { type: string; id?: string; parentId?: string | null; message?: { role: string; usage?: { input: number; output: number; cacheRead: number; cacheWrite: number } } })
    .filter((e) => e.type === "message" && e.message?.role === "assistant" && e.message.usage)
    .map((e) => e.message!.usage!);
}

function cents(dollars: number): string {
  return `$${dollars.toFixed(2)}`;
}

test("compare: the totals' cost uses the user's edited prices, and follows a new edit", async ({ page }) => {
  const file = path.join(repoRoot, "public/samples/pi-korean.jsonl");
  const text = readFileSync(file, "utf8");
  const usages = sampleUsages(file);
  // gpt-4.1 list prices ($/M): input 2, cached 0.5, write 2 (no surcharge), output 8 — input edited to 4, then 6.
  const cost = (input: number) => usages.reduce((sum, u) => sum + (u.input * input + u.cacheRead * 0.5 + u.cacheWrite * 2 + u.output * 8) / 1e6, 0);
  await page.addInitScript(() => {
    if (!sessionStorage.getItem("seeded")) {
      localStorage.setItem("contextscope.priceOverrides", JSON.stringify({ "openai/gpt-4.1": { input: 4 } }));
      sessionStorage.setItem("seeded", "1");
    }
  });
  await openEmptyApp(page);
  await dropFiles(page, [{ name: "pi-korean.jsonl", text }]);
  await waitForSession(page, "pi-korean.jsonl");
  // The main view already uses the edit.
  expect(Number(await page.getByTestId("session-cost").getAttribute("data-dollars"))).toBeCloseTo(cost(4), 10);

  await page.getByTestId("compare-button").click();
  await dropOnCompareView(page, "pi-korean-copy.jsonl", text);
  await expect(page.getByTestId("compare-view")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
  const cells = page.getByTestId("compare-totals").locator('[data-total="cost"] td');
  await expect(cells).toHaveText(["cost (recorded usage, your prices)", cents(cost(4)), cents(cost(4))]);
  expect(cost(4)).not.toBeCloseTo(cost(2), 2);

  // A new edit in the price table, made while the compare view is open, prices the totals again.
  await page.getByTestId("session-cost").click();
  const input = page.getByTestId("price-openai/gpt-4.1-input");
  await input.fill("6");
  await input.blur();
  await page.getByTestId("prices-panel").getByRole("button", { name: "Close" }).click();
  await expect(cells).toHaveText(["cost (recorded usage, your prices)", cents(cost(6)), cents(cost(6))], { timeout: 30_000 });
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem("contextscope.priceOverrides"))) ?? "{}")).toEqual({ "openai/gpt-4.1": { input: 6 } });
});

/** A pi session on claude-sonnet-4-5 whose second turn's recorded input is above 200k tokens. */
function longSession(): { text: string; usages: { input: number; cacheRead: number; output: number }[] } {
  const usages = [
    { input: 1000, cacheRead: 0, output: 100 },
    { input: 50_000, cacheRead: 160_000, output: 200 },
  ];
  const lines = [
    { type: "session", version: 3, id: "long", timestamp: "2026-11-29T10:00:00.000Z", cwd: "/tmp/x" },
    { type: "message", id: "u1", parentId: null, timestamp: "2026-11-29T10:00:01.000Z", message: { role: "user", content: [{ type: "text", text: "read everything" }], timestamp: 1_795_000_000_000 } },
  ];
  let parent = "u1";
  usages.forEach((usage, i) => {
    const id = `a${i + 1}`;
    lines.push({
      type: "message",
      id,
      parentId: parent,
      timestamp: `2026-11-29T10:0${i + 1}:00.000Z`,
      message: {
        role: "assistant",
        content: [{ type: "text", text: `answer ${i + 1}` }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: { input: usage.input, output: usage.output, cacheRead: usage.cacheRead, cacheWrite: 0, totalTokens: usage.input + usage.cacheRead + usage.output },
        stopReason: "stop",
        timestamp: 1_795_000_000_000 + (i + 1) * 60_000,
      },
    } as never);
    const next = `u${i + 2}`;
    lines.push({ type: "message", id: next, parentId: id, timestamp: `2026-11-29T10:0${i + 1}:30.000Z`, message: { role: "user", content: [{ type: "text", text: "more" }], timestamp: 1_795_000_000_000 + (i + 1) * 60_000 + 30_000 } } as never);
    parent = next;
  });
  return { text: lines.map((l) => JSON.stringify(l)).join("\n") + "\n", usages };
}

test("long context: a Claude Sonnet 4.5 turn above 200k input tokens is priced at the long-context prices and says so", async ({ page }) => {
  const { text, usages } = longSession();
  await openEmptyApp(page);
  await dropFiles(page, [{ name: "long.jsonl", text }]);
  await waitForSession(page, "long.jsonl");
  // Standard: $3 input, $0.30 cached, $15 output; above 200k: $6, $0.60, $22.50 (per million).
  const short = turnRow(page, 1).getByTestId("turn-cost");
  expect(Number(await short.getAttribute("data-dollars"))).toBeCloseTo((usages[0]!.input * 3 + usages[0]!.output * 15) / 1e6, 12);
  await expect(short).not.toHaveAttribute("data-long-context", "true");
  const long = turnRow(page, 2).getByTestId("turn-cost");
  await expect(long).toHaveAttribute("data-long-context", "true");
  expect(Number(await long.getAttribute("data-dollars"))).toBeCloseTo((usages[1]!.input * 6 + usages[1]!.cacheRead * 0.6 + usages[1]!.output * 22.5) / 1e6, 12);
  await expect(long).toContainText("(long context)");
  await expect(long).toHaveAttribute("title", /Long-context prices: the request's 210000 input tokens are above 200000/);
});
