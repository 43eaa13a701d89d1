// Journey: a share link reopens exactly what was shared, in both scopes, for the agents whose
// links did not: a Claude Code recording at the first turn after its manual compaction and at its
// last turn (no warning about the link's own header line, the turn under its own number), a real
// Claude Code transcript, hermes-agent's state.db (which opened as "no session entries") and a
// real hermes transcript (which lost its model), a pi and a Codex recording, and the newer agents'
// files (Qwen Code, Kilo Code, Kimi Code, Copilot CLI, Crush). Each link is
// opened in the page as a visitor would: the same turn of as many turns, the same request text,
// no warning the file itself did not have. The property test over every shared file is
// test/app/share-roundtrip.test.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { AGENTS, agentFilePath } from "./agentFiles";
import { appView, dropFiles, expect, openEmptyApp, test, waitForSession } from "./support";

const CASES: { agent: string; turns: (count: number) => number[] }[] = [
  { agent: "Claude Code", turns: (count) => [9, count] },
  { agent: "Claude Code (real)", turns: () => [1] },
  { agent: "hermes-agent", turns: (count) => [count] },
  { agent: "hermes-agent (real)", turns: () => [3] },
  { agent: "pi", turns: (count) => [count] },
  { agent: "Codex", turns: (count) => [count] },
  // The newer agents: a database (Kilo, Crush) and record logs whose header is made from the records (Qwen Code, Copilot CLI).
  { agent: "Qwen Code", turns: (count) => [count] },
  { agent: "Kilo Code", turns: (count) => [count] },
  { agent: "Kimi Code", turns: (count) => [count] },
  { agent: "Copilot CLI", turns: (count) => [count] },
  { agent: "Crush", turns: (count) => [count] },
  { agent: "Session trace (STS)", turns: (count) => [1, count] },
];

async function warningCount(page: Page): Promise<number> {
  const text = (await page.getByTestId("warnings-button").textContent()) ?? "";
  return Number(/(\d+) warnings?/.exec(text)?.[1] ?? NaN);
}

/** The dialog's link once it is built and stays the same (a rebuild may give the same bytes). */
async function settledLink(page: Page): Promise<string> {
  let previous = "";
  await expect
    .poll(async () => {
      await expect(page.getByTestId("share-dialog")).toHaveAttribute("data-status", "ready");
      const link = await page.getByTestId("share-link").inputValue();
      const settled = link === previous;
      previous = link;
      return settled;
    }, { intervals: [500] })
    .toBe(true);
  return previous;
}

/** Goes to `turn` with the "go to turn" box (g) and waits for its request. */
async function selectTurn(page: Page, turn: number): Promise<void> {
  await page.getByTestId("timeline").focus();
  await page.keyboard.press("g");
  await page.getByTestId("goto-turn-input").fill(String(turn));
  await page.keyboard.press("Enter");
  await page.waitForFunction((expected) => (window as unknown as { __contextscope: { requestTurn: number | null } }).__contextscope.requestTurn === expected, turn, { timeout: 30_000 });
}

for (const { agent, turns } of CASES) {
  test(`${agent}: share links reopen the shared turn in both scopes`, async ({ page, context }) => {
    test.setTimeout(180_000);
    const files = AGENTS.find((item) => item.agent === agent)!.files;
    await openEmptyApp(page);
    await dropFiles(page, files.map((file) => ({ name: path.basename(file), base64: readFileSync(agentFilePath(file)).toString("base64") })));
    await waitForSession(page);
    const count = (await appView(page)).turnCount;
    const warnings = await warningCount(page);
    for (const turn of turns(count)) {
      await selectTurn(page, turn);
      const requestText = (await appView(page)).requestText;
      await page.getByTestId("share-button").click();
      const dialog = page.getByTestId("share-dialog");
      await expect(dialog).toBeVisible();
      await expect(dialog).toHaveAttribute("data-status", "ready");
      // Unredacted, so the reopened request can be compared byte for byte.
      await page.getByTestId("share-redact-toggle").uncheck();
      const links: Record<string, string> = { branch: await settledLink(page) };
      // The same link when no cut smaller than the session reopens the turn (then both are the whole session).
      await page.getByTestId("share-scope-full").check();
      links.full = await settledLink(page);
      await page.getByTestId("share-scope-branch").check();
      await page.keyboard.press("Escape");
      for (const scope of ["branch", "full"] as const) {
        const link = links[scope]!;

        const visitor = await context.newPage();
        await visitor.goto(link);
        await waitForSession(visitor);
        await visitor.waitForFunction((expected) => (window as unknown as { __contextscope: { requestTurn: number | null } }).__contextscope.requestTurn === expected, turn, { timeout: 30_000 });
        const reopened = await appView(visitor);
        expect(reopened.error, `${scope} at turn ${turn}`).toBeNull();
        if (scope === "full") expect(reopened.turnCount, `${scope} at turn ${turn}`).toBe(count);
        else expect(reopened.turnCount, `${scope} at turn ${turn}`).toBeGreaterThanOrEqual(turn);
        await expect(visitor.getByTestId("turn-position")).toHaveText(`Turn ${turn} of ${reopened.turnCount}`);
        expect(reopened.requestText, `${scope} at turn ${turn}: request`).toBe(requestText);
        expect(await warningCount(visitor), `${scope} at turn ${turn}: warnings`).toBeLessThanOrEqual(warnings);
        if (agent === "Claude Code" && turn === 9 && scope === "branch") await visitor.screenshot({ path: "/tmp/truth-share-claude-turn9.png" });
        await visitor.close();
      }
    }
  });
}
