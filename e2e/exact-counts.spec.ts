// Journey: exact token counts come from the browser's counting workers. The recorded pi session
// (OpenAI shapes, so exact o200k counts) opens with estimates; its exact prefix pass is counted by
// a counting Web Worker started by the pipeline worker, and the exact figures it shows are the
// CLI's: the sum of every turn's request tokens equals what `prefix` prints for the same file.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { baseName, dropFiles, expect, fixtureText, openEmptyApp, PI_OPENAI_SESSION, test, waitForSession } from "./support";

const SESSION_NAME = baseName(PI_OPENAI_SESSION);

function cliTokensTotal(): number {
  const file = path.resolve("test/fixtures", PI_OPENAI_SESSION);
  const output = execFileSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "prefix", file, "--jobs", "1"], { encoding: "utf8" });
  return output
    .split("\n")
    .filter(Boolean)
    .reduce((sum, line) => sum + (JSON.parse(line) as { tokens: number }).tokens, 0);
}

test("the exact prefix pass is counted by a counting worker and equals the CLI's counts", async ({ page }) => {
  const expected = cliTokensTotal();
  await openEmptyApp(page);
  await dropFiles(page, [{ name: SESSION_NAME, text: fixtureText(PI_OPENAI_SESSION) }]);
  await waitForSession(page, SESSION_NAME);
  await page.waitForFunction(() => (window as unknown as { __contextscope: { prefixPass: string | null } }).__contextscope.prefixPass === "exact", null, { timeout: 30_000 });
  const total = await page.evaluate(() => (window as unknown as { __contextscope: { prefixTokensTotal: number | null } }).__contextscope.prefixTokensTotal);
  expect(total).toBe(expected);
  // The counting worker is one of the page's workers, beside the pipeline worker.
  expect(page.workers().some((worker) => worker.url().includes("count.worker"))).toBe(true);
});
