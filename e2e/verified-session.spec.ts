// Journey: a session dropped together with its captured requests (the Claude Code recording: its
// transcript and every requests/NNN.json) is verified against the wire — the timeline says
// "15 of 15 turns equal to the wire" and marks each turn; a turn's "diff with capture" shows the
// rebuilt body against the wire, equal. Then the Codex recording: its turns are equal but for the
// field its rollout cannot hold, marked as such, and its diff names where the bodies first part.
// Screenshots at 1440x900 and 1024x700 (CONTEXTSCOPE_SCREENSHOT_DIR, else not written).
import { readdirSync } from "node:fs";
import { dropFiles, expect, fixtureText, openEmptyApp, sharedFixturePath, test, turnRow, waitForRequestTurn, waitForSession } from "./support";
import type { Page } from "@playwright/test";

const CLAUDE = "claude/print-autocompact-manualcompact";
const CLAUDE_SESSION = "ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl";
const CODEX = "codex/exec-autocompact";
const CODEX_SESSION = "rollout-2026-11-29T19-25-29-01a228c5-0111-7641-8ea4-161c4b3a44d5.jsonl";

function requestFiles(caseId: string) {
  return readdirSync(sharedFixturePath(caseId, "requests"))
    .filter((name) => /^\d{3}\.json$/.test(name))
    .map((name) => ({ name, text: fixtureText(`${caseId}/requests/${name}`) }));
}

async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.CONTEXTSCOPE_SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}

test("a session dropped with its captures is verified against the wire, turn by turn", async ({ page }) => {
  await openEmptyApp(page);
  await dropFiles(page, [
    { name: CLAUDE_SESSION, text: fixtureText(`${CLAUDE}/session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/${CLAUDE_SESSION}`) },
    ...requestFiles(CLAUDE),
  ]);
  await waitForSession(page, CLAUDE_SESSION);
  await expect(page.getByTestId("wire-headline")).toHaveText("15 of 15 turns equal to the wire", { timeout: 30_000 });
  await expect(turnRow(page, 1).getByTestId("timeline-wire-badge")).toHaveText("wire =");
  await expect(turnRow(page, 3).getByTestId("timeline-wire-badge")).toHaveText("wire =");

  await turnRow(page, 3).click();
  await waitForRequestTurn(page, 3);
  await page.getByTestId("capture-diff-toggle").check();
  await expect(page.getByTestId("capture-diff")).toContainText("rebuilt against the wire");
  await expect(page.getByTestId("capture-diff-verdict")).toHaveText("equal to the wire");
  await expect(page.getByTestId("capture-diff-first")).toHaveCount(0);
  await expect(page.locator(".monaco-diff-editor")).toBeVisible({ timeout: 30_000 });
  await screenshot(page, "verified-1440x900");
  // Wide enough: turn 9's three badges are all shown, no summary.
  await expect(turnRow(page, 9).locator(".badge:visible")).toHaveText(["wire =", "compacted", "cache break"]);
  await page.setViewportSize({ width: 1024, height: 700 });
  await expect(page.getByTestId("wire-headline")).toBeVisible();
  await screenshot(page, "verified-1024x700");
  // In the narrow timeline no badge is cut: the first stays, the others are summarised as "+N"
  // whose tooltip says each in full; every badge shown lies wholly inside its row.
  await turnRow(page, 9).scrollIntoViewIfNeeded();
  await expect(turnRow(page, 9).getByTestId("timeline-wire-badge")).toBeVisible();
  const more = turnRow(page, 9).getByTestId("timeline-more-badge");
  await expect(more).toHaveText("+2");
  await expect(more).toHaveAttribute("title", /^compacted: First request after a compaction\ncache break: Cache break: /);
  const cut = await page.locator(".timeline-row").evaluateAll((rows) =>
    rows.flatMap((row) => {
      const edge = row.getBoundingClientRect();
      return [...row.querySelectorAll<HTMLElement>(".badge")]
        .filter((badge) => badge.offsetParent !== null)
        .filter((badge) => {
          const box = badge.getBoundingClientRect();
          return box.right > edge.right + 0.5 || box.left < edge.left - 0.5 || box.bottom > edge.bottom + 0.5;
        })
        .map((badge) => badge.textContent);
    }),
  );
  expect(cut).toEqual([]);
  await screenshot(page, "verified-badges-1024x700");
});

test("Codex: equal but for the field its rollout cannot hold, named where the bodies part", async ({ page }) => {
  await openEmptyApp(page);
  await dropFiles(page, [{ name: CODEX_SESSION, text: fixtureText(`${CODEX}/session/sessions/2026/11/29/${CODEX_SESSION}`) }, ...requestFiles(CODEX)]);
  await waitForSession(page, CODEX_SESSION);
  await expect(page.getByTestId("wire-headline")).toHaveText("15 of 15 turns equal to the wire (15 but for fields declared not derivable)", { timeout: 30_000 });
  await expect(turnRow(page, 2).getByTestId("timeline-wire-badge")).toHaveText("wire ≈");
  await turnRow(page, 2).click();
  await waitForRequestTurn(page, 2);
  await page.getByTestId("capture-diff-toggle").check();
  await expect(page.getByTestId("capture-diff-first")).toContainText("turn_started_at_unix_ms");
  await expect(page.getByTestId("capture-diff-first")).toContainText("parameter client_metadata");
  await screenshot(page, "verified-codex-1440x900");
});
