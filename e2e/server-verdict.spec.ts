// Journey: the provider's own cache verdict beside ours, on a real Claude Code 2.1.143 transcript
// (../shared/fixtures/realworld-next/claude-code/pshung-…), whose assistant lines record the
// server's cache diagnosis. The server says one call missed 97,848 tokens because the tool
// definitions changed; the file records no tool definitions, so the rebuilt requests show no break
// there. The breaks filter lists that turn, stepping to it shows the server's verdict on the turn
// and in the Diff tab in plain words, with what the file cannot show; at two window sizes.
import { readFileSync } from "node:fs";
import path from "node:path";
import { dropFiles, expect, openEmptyApp, sharedFixturePath, test, waitForSession } from "./support";

const NAME = "pshung-v2.1.143-2compactions-4subagents.jsonl";

for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 700 }]) {
  test(`the server's tools_changed verdict is a break, named on the turn and in the Diff tab (${size.width}×${size.height})`, async ({ page }) => {
    await page.setViewportSize(size);
    await openEmptyApp(page);
    const file = path.join(sharedFixturePath("realworld-next", "claude-code"), NAME);
    await dropFiles(page, [{ name: NAME, text: readFileSync(file, "utf8") }]);
    await waitForSession(page, NAME);

    // The breaks filter counts the two compactions, the server's break and the miss nothing explains.
    const breaks = page.getByTestId("timeline-filter-breaks");
    await expect.poll(async () => Number(await breaks.getAttribute("data-count")), { timeout: 60_000 }).toBeGreaterThanOrEqual(4);
    await breaks.click();
    const rows = page.getByTestId("timeline-row");
    const serverBreak = page.locator('[data-testid="timeline-row"]', { has: page.locator('[data-testid="timeline-break-badge"][title*="tool definitions changed"]') });
    await expect(serverBreak).toHaveCount(1);
    await expect(serverBreak.getByTestId("timeline-break-badge")).toHaveText("cache break");
    const miss = page.locator('[data-testid="timeline-row"]', { has: page.locator('[data-testid="timeline-break-badge"]', { hasText: "cache miss" }) });
    await expect(miss).toHaveCount(1);

    // Step through the breaks with j until the server's break is selected.
    await expect(rows.first()).toHaveAttribute("aria-selected", "true");
    await page.getByTestId("timeline").focus();
    for (let step = 0; step < 10 && (await serverBreak.getAttribute("aria-selected")) !== "true"; step++) await page.keyboard.press("j");
    await expect(serverBreak).toHaveAttribute("aria-selected", "true");

    // The turn's details: what the server says, and that the rebuild cannot show it.
    const verdict = page.getByTestId("server-verdict");
    await expect(verdict).toHaveAttribute("data-verdict", "tools_changed");
    await expect(verdict).toHaveAttribute("data-agreement", "disagree");
    await expect(verdict).toContainText("the tool definitions changed; 97,848 input tokens missed the cache");
    await expect(verdict).toContainText("disagrees with the rebuilt requests");
    await expect(page.getByTestId("server-verdict-note")).toContainText("The file does not record the tool definitions");
    await page.screenshot({ path: `/tmp/verdict-details-${size.width}.png` });

    // The Diff tab: a break the provider reported, with its verdict and what the file cannot show.
    await page.getByTestId("tab-diff").click();
    const cause = page.getByTestId("diff-cause");
    await expect(cause).toContainText("cache break the provider reported");
    // The rebuilt requests share everything: no figure of theirs claims tokens were paid again.
    await expect(cause).not.toContainText("tokens billed again");
    const server = page.getByTestId("diff-server-verdict");
    await expect(server).toHaveAttribute("data-agreement", "disagree");
    await expect(server).toContainText("The server says the tool definitions changed (97,848 input tokens missed the cache)");
    await expect(server).toContainText("the difference is in something the transcript does not record");
    await page.screenshot({ path: `/tmp/verdict-diff-${size.width}.png` });

    // A turn where the server found nothing changed says so, and agrees.
    await page.getByTestId("timeline-filter-all").click();
    await page.getByTestId("timeline").focus();
    await page.keyboard.press("j");
    await expect(server).toHaveAttribute("data-agreement", "agree");
    await expect(server).toContainText("The server says: nothing changed since the previous request.");
  });
}
