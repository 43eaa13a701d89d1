// One picture per agent for the documentation (docs/agents.md): the agent's recording at
// 1440×900, the first turn after its compaction selected (else its last turn), the rebuilt
// request and its token story. Every run checks the page and the picture; only
// `npm run screenshot` (CONTEXTSCOPE_SCREENSHOT=1) writes them to docs/screenshots/.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { AGENTS, agentFilePath } from "./agentFiles";
import { appView, dropFiles, expect, openEmptyApp, repoRoot, test, turnRow, waitForRequestTurn, waitForSession } from "./support";

const WRITE = process.env.CONTEXTSCOPE_SCREENSHOT === "1";

/** The recordings (not the real users' files: their content is theirs, not for our docs). */
const RECORDINGS = AGENTS.filter((files) => !files.agent.includes("(real)"));

for (const files of RECORDINGS) {
  const slug = files.agent.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  test(`screenshot of ${files.agent}`, async ({ page }, testInfo) => {
    const target = WRITE ? path.join(repoRoot, "docs/screenshots", `${slug}.png`) : testInfo.outputPath(`${slug}.png`);
    await page.setViewportSize({ width: 1440, height: 900 });
    await openEmptyApp(page);
    await dropFiles(page, files.files.map((file) => ({ name: path.basename(file), base64: readFileSync(agentFilePath(file)).toString("base64") })));
    await waitForSession(page);
    const { turnCount } = await appView(page);

    await page.getByTestId("timeline").focus();
    await page.keyboard.press("End");
    const compaction = page.locator('[data-testid="timeline-row"][data-kind="compaction"]').first();
    const after = (await compaction.count()) > 0 ? Number(await compaction.getAttribute("data-before-turn")) : NaN;
    const turn = Number.isFinite(after) && after > 0 ? after : turnCount;
    await turnRow(page, turn).scrollIntoViewIfNeeded();
    await turnRow(page, turn).click();
    await waitForRequestTurn(page, turn);
    await expect(page.getByTestId("turn-tokens")).toContainText("rebuilt request");
    // The request's editor loads apart from the page: the picture waits for it, not its placeholder.
    await expect(page.locator(".editor-placeholder")).toHaveCount(0, { timeout: 30_000 });
    await expect(page.locator(".monaco-editor").first()).toBeVisible();

    // A calm frame: no hover, focus ring or caret.
    await page.mouse.move(0, 0);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: target, animations: "disabled", caret: "hide" });
    expect(statSync(target).size).toBeGreaterThan(50_000);
  });
}
