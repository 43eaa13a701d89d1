// Labels in words on every agent's files: the Details panel's keys, section titles, badges and
// not-recorded list, the tabs' chips and the Conversation and Messages tabs' kinds hold no rule id
// of our spec (FM-CC-19) and no code name (systemInstruction, summary:compaction). The rule ids
// stay in tooltips, which are not read here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { AGENTS, agentFilePath } from "./agentFiles";
import { appView, dropFiles, expect, openEmptyApp, test, turnRow, waitForRequestTurn, waitForSession } from "./support";

const RULE_ID = /\b[A-Z]{2,}-[A-Z0-9-]+\b/g;
const CAMEL_CASE = /\b[a-z]+[A-Z][A-Za-z]*\b/g;
const PROVENANCE_CODE = /\b(synth|summary|reminder|codex|hermes|note):[a-z-]+\b/g;

/** Label texts on screen: keys, titles, badges, chips, list items of the panels (not the request's JSON). */
async function labelTexts(page: import("@playwright/test").Page): Promise<string[]> {
  return page.locator(".k, .section-title, .badge, .chip, .details-panel li, [data-testid=conversation-inserted], [data-testid=messages-table] td:nth-child(3)").allInnerTexts();
}

function offending(texts: readonly string[]): string[] {
  return texts.flatMap((text) => [...text.matchAll(RULE_ID), ...text.matchAll(CAMEL_CASE), ...text.matchAll(PROVENANCE_CODE)].map((match) => `${match[0]} in "${text}"`));
}

const CASES = AGENTS.map((files) => ({ agent: files.agent, paths: files.files.map(agentFilePath) }));

for (const files of CASES) {
  test(`${files.agent}: labels in words on the last turn, its conversation and its messages`, async ({ page }) => {
    await openEmptyApp(page);
    await dropFiles(page, files.paths.map((file) => ({ name: path.basename(file), base64: readFileSync(file).toString("base64") })));
    await waitForSession(page);
    const { turnCount } = await appView(page);
    await page.getByTestId("timeline").focus();
    await page.keyboard.press("End");
    await turnRow(page, turnCount).click();
    await waitForRequestTurn(page, turnCount);
    const seen = [...(await labelTexts(page))];
    await page.getByRole("tab", { name: "Conversation" }).click();
    seen.push(...(await labelTexts(page)));
    await page.getByRole("tab", { name: "Messages" }).click();
    seen.push(...(await labelTexts(page)));
    expect(seen.length).toBeGreaterThan(5);
    expect(offending(seen)).toEqual([]);
  });
}
