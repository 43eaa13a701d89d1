// Pictures of the sessions library for a look by eye: a folder of four agents' sessions (Claude Code
// and Codex rows from the summary pass, pi and opencode read in full) at 1440×900 and 1024×700, the
// table's columns fitting the window. The pictures go to the test's output folder
// (`--output=<dir>`); every run checks the table first.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, openEmptyApp, PI_OPENAI_SESSION, repoRoot, test } from "./support";

const base64 = (relative: string) => readFileSync(path.join(repoRoot, "test/fixtures", relative)).toString("base64");

const FILES = [
  { dir: "claude", name: "ae06c21a.jsonl", base64: base64("claude/print-autocompact-manualcompact/session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl") },
  { dir: "codex/2026/11/29", name: "rollout-a.jsonl", base64: base64("codex/exec-autocompact/session/sessions/2026/11/29/rollout-2026-11-29T19-25-29-01a228c5-0111-7641-8ea4-161c4b3a44d5.jsonl") },
  { dir: "pi", name: "pi-session.jsonl", base64: base64(PI_OPENAI_SESSION) },
  { dir: "opencode", name: "opencode.db", base64: base64("opencode/run-autocompact/session/opencode-db/opencode.db") },
  { dir: "opencode", name: "opencode.db-wal", base64: base64("opencode/run-autocompact/session/opencode-db/opencode.db-wal") },
];

for (const size of [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
]) {
  test(`screenshot of the sessions library at ${size.width}×${size.height}`, async ({ page }, testInfo) => {
    await page.setViewportSize(size);
    await openEmptyApp(page);
    await page.evaluate(async (list) => {
      const root = await navigator.storage.getDirectory();
      await root.removeEntry("library-shot", { recursive: true }).catch(() => undefined);
      const library = await root.getDirectoryHandle("library-shot", { create: true });
      for (const file of list) {
        let dir = library;
        for (const part of file.dir.split("/").filter(Boolean)) dir = await dir.getDirectoryHandle(part, { create: true });
        const writable = await (await dir.getFileHandle(file.name, { create: true })).createWritable();
        await writable.write(Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0)));
        await writable.close();
      }
      await (window as unknown as { __contextscopeLive: { openLibraryFolder(h: FileSystemDirectoryHandle): Promise<void> } }).__contextscopeLive.openLibraryFolder(library);
    }, FILES);
    await expect(page.locator('[data-testid="library-row"][data-status="done"]')).toHaveCount(4, { timeout: 60_000 });
    await expect(page.getByRole("columnheader", { name: /Reported breaks/ })).toBeVisible();
    // The table fits the window: no column pushed past its right edge.
    const overflow = await page.getByTestId("library-table").evaluate((table) => table.scrollWidth - table.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await page.mouse.move(0, 0);
    await page.evaluate(() => document.fonts.ready);
    const target = testInfo.outputPath(`library-${size.width}x${size.height}.png`);
    await page.screenshot({ path: target, animations: "disabled", caret: "hide" });
    expect(statSync(target).size).toBeGreaterThan(10_000);
  });
}
