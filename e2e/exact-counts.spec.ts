// Journey: exact token counts come from the browser's counting workers. A recorded session opens
// with estimates; its exact prefix pass is counted by a counting Web Worker started by the
// pipeline worker — o200k for the pi session on OpenAI shapes, the Claude vocabulary behind the
// Anthropic estimate for the Claude Code transcript — and the figures it shows are the CLI's: the
// sum of every turn's request tokens equals what `prefix` prints for the same file.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { baseName, dropFiles, expect, fixtureText, openEmptyApp, PI_OPENAI_SESSION, test, waitForSession } from "./support";

const CLAUDE_SESSION =
  "claude/print-autocompact-manualcompact/session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl";

function cliTokensTotal(fixture: string): number {
  const file = path.resolve("test/fixtures", fixture);
  const output = execFileSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "prefix", file, "--jobs", "1"], { encoding: "utf8" });
  return output
    .split("\n")
    .filter(Boolean)
    .reduce((sum, line) => sum + (JSON.parse(line) as { tokens: number }).tokens, 0);
}

for (const [label, fixture] of [
  ["a pi session on OpenAI shapes (o200k)", PI_OPENAI_SESSION],
  ["a Claude Code transcript (the Claude vocabulary)", CLAUDE_SESSION],
] as const) {
  test(`the exact prefix pass of ${label} is counted by a counting worker and equals the CLI's counts`, async ({ page }) => {
    const expected = cliTokensTotal(fixture);
    const name = baseName(fixture);
    await openEmptyApp(page);
    await dropFiles(page, [{ name, text: fixtureText(fixture) }]);
    await waitForSession(page, name);
    await page.waitForFunction(() => (window as unknown as { __contextscope: { prefixPass: string | null } }).__contextscope.prefixPass === "exact", null, { timeout: 30_000 });
    const total = await page.evaluate(() => (window as unknown as { __contextscope: { prefixTokensTotal: number | null } }).__contextscope.prefixTokensTotal);
    expect(total).toBe(expected);
    // The counting worker is one of the page's workers, beside the pipeline worker.
    expect(page.workers().some((worker) => worker.url().includes("count.worker"))).toBe(true);
  });
}
