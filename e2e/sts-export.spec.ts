// Journey: the Export panel's "Download session trace (STS)" saves the file `contextscope export
// --format sts` prints, byte for byte, redacted as the panel says; dropped on a fresh page, the
// trace opens as a session of its own, its calls listed and its requests marked approximated. The
// panel is photographed at both window sizes.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { appView, dropFiles, expect, openEmptyApp, test, turnRow, waitForRequestTurn, waitForSession } from "./support";

const SAMPLE = "pi-english-compaction.jsonl";

for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 700 }]) {
  test(`export: the session trace (STS) is the CLI's file and opens again (${size.width}x${size.height})`, async ({ page, browser }) => {
    test.setTimeout(150_000);
    await page.setViewportSize(size);
    await page.goto("./");
    await waitForSession(page, SAMPLE);
    await turnRow(page, 3).click();
    await waitForRequestTurn(page, 3);
    await page.getByTestId("export-button").click();
    await expect(page.getByTestId("export-panel")).toHaveAttribute("data-status", "ready");
    await expect(page.getByTestId("export-sts-download")).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-sts-download").click()]);
    expect(download.suggestedFilename()).toBe("pi-english-compaction.sts.jsonl");
    const saved = readFileSync((await download.path())!, "utf8");
    const printed = execFileSync("npx", ["tsx", "src/cli/main.ts", "export", `public/samples/${SAMPLE}`, "--format", "sts"], { encoding: "utf8" });
    expect(saved).toBe(printed);
    await expect(page.getByTestId("export-panel")).toContainText("Saved pi-english-compaction.sts.jsonl");
    await page.screenshot({ path: `test-results/sts-export-${size.width}.png` });

    const other = await browser.newPage({ viewport: size });
    await openEmptyApp(other);
    await dropFiles(other, [{ name: "pi-english-compaction.sts.jsonl", text: saved }]);
    await waitForSession(other, "pi-english-compaction.sts.jsonl");
    expect((await appView(other)).error).toBeNull();
    expect((await appView(other)).turnCount).toBeGreaterThan(10);
    await turnRow(other, 2).click();
    await waitForRequestTurn(other, 2);
    await expect(other.getByText(/approximated: a session trace records the conversation/).first()).toBeVisible();
    await other.screenshot({ path: `test-results/sts-open-${size.width}.png` });
    await other.close();
  });
}
