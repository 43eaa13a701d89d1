// Journey: the simulator speaks in words a user understands. A senpi recording and a Claude Code
// recording (../shared/fixtures) are opened and the simulator shown, beside the request and at the
// whole width: its visible text (tooltips aside) names no rule id of our spec and no code name, and
// a senpi file opens with the senpi profile and the senpi policy. Screenshots of the simulator at
// 1440×900 and 1024×700 go to /tmp/words-<case>-<size>.png for a person to look at.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { dropFiles, expect, openEmptyApp, sharedFixturePath, test, waitForSession, type DroppedFile } from "./support";

// The same patterns as the unit test of labels (test/ui/userWords.test.ts).
const RULE_ID = /\b[A-Z]{2,}-[A-Z0-9-]+\b/g;
const CAMEL_CASE = /\b[a-z]+[A-Z][A-Za-z]*\b/g;
// No allow-list: every word of the panel outside the file's own content must pass.
const ALLOWED = new Set<string>();

/** The one session file under a recording's session folder. */
function recorded(agentCase: string): DroppedFile {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".jsonl")) found.push(full);
    }
  };
  walk(sharedFixturePath(agentCase, "session"));
  if (found.length !== 1) throw new Error(`${agentCase}: expected one session file, found ${found.length}`);
  return { name: path.basename(found[0]!), text: readFileSync(found[0]!, "utf8") };
}

/** The simulator's visible text, without what the session itself says (message previews, request bodies). */
async function simulatorWords(page: Page): Promise<string> {
  return page.getByTestId("simulator-panel").evaluate((panel) => {
    // Session content and request bodies are the file's words, not ours; option lists are read separately.
    const skipped = ".sim-preview, .sim-editor, .sim-pre, textarea, select, input, [data-testid='simulator-inferred-shared']";
    const parts: string[] = [];
    const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement?.closest(skipped)) continue;
      parts.push(node.textContent ?? "");
    }
    // Each text node is its own word run: labels and values of adjacent cells never run together.
    return parts.join(" | ");
  });
}

/** The offending words of a text: rule ids and camelCase identifiers not allowed by name. */
function codeWords(text: string): string[] {
  return [...(text.match(RULE_ID) ?? []), ...(text.match(CAMEL_CASE) ?? [])].filter((word) => !ALLOWED.has(word));
}

const CASES = [
  { name: "senpi", fixture: "senpi/print-openai-autocompact", profile: "senpi", policy: "senpi" },
  { name: "claude-code", fixture: "claude/print-autocompact-manualcompact", profile: null, policy: "claude-code" },
];

for (const agentCase of CASES) {
  test(`simulator words: ${agentCase.name}`, async ({ page }) => {
    test.setTimeout(180_000);
    await openEmptyApp(page);
    const file = recorded(agentCase.fixture);
    await dropFiles(page, [file]);
    await waitForSession(page, file.name);
    if (agentCase.profile) await expect(page.getByTestId("profile-select")).toHaveValue(agentCase.profile);

    await page.getByTestId("simulate-button").click();
    await expect(page.getByTestId("simulator-policy")).toHaveValue(agentCase.policy, { timeout: 30_000 });
    await expect(page.getByTestId("simulator-result")).toHaveAttribute("data-status", "ready", { timeout: 60_000 });
    await expect(page.getByTestId("simulator-inferred-settings")).toHaveAttribute("data-status", /ready|error/, { timeout: 60_000 });
    // The policy menu names the policy in words: senpi's own, never pi's, on a senpi file.
    const policyLabel = await page.getByTestId("simulator-policy").evaluate((select) => (select as HTMLSelectElement).selectedOptions[0]?.textContent ?? "");
    expect(policyLabel.toLowerCase()).toContain(agentCase.policy === "claude-code" ? "claude code" : agentCase.policy);
    // Open the policy's parameters, so their labels are read too.
    const parameters = page.getByTestId("simulator-parameters");
    if ((await parameters.count()) > 0) await parameters.locator("summary").click();
    // Run the whole-session replay, so its table and chips are read too.
    await page.getByTestId("simulator-replay-run").click();
    await expect(page.getByTestId("simulator-replay-result")).toBeVisible({ timeout: 90_000 });

    const words = await simulatorWords(page);
    expect(codeWords(words), `code words in the simulator of ${agentCase.name}:\n${words}`).toEqual([]);
    const options = await page.getByTestId("simulator-panel").evaluate((panel) => [...panel.querySelectorAll("option")].map((o) => o.textContent ?? "").join("\n"));
    expect(codeWords(options), "code words in the simulator's menus").toEqual([]);
    // No plural after one, no negative saving, no long decimals.
    expect(words).not.toMatch(/\b1 (messages|calls|turns|tokens|entries)\b/);
    expect(words).not.toMatch(/saved? ~?-\d/);
    expect(words).not.toMatch(/\d\.\d{3,}/);

    // Another profile of the file opens the simulator on the policy that runs it, and back.
    if (agentCase.profile) {
      await page.getByTestId("profile-select").selectOption("pi");
      await expect(page.getByTestId("simulator-policy")).toHaveValue("pi", { timeout: 30_000 });
      await page.getByTestId("profile-select").selectOption(agentCase.profile);
      await expect(page.getByTestId("simulator-policy")).toHaveValue(agentCase.policy, { timeout: 30_000 });
      await expect(page.getByTestId("simulator-result")).toHaveAttribute("data-status", "ready", { timeout: 60_000 });
    }

    // The panel from its top, then scrolled to its result (trigger, partition, verdict), at both sizes.
    for (const [width, height] of [[1440, 900], [1024, 700]] as const) {
      await page.setViewportSize({ width, height });
      await page.locator(".simulator-body").evaluate((body) => body.scrollTo(0, 0));
      await page.screenshot({ path: `/tmp/words-${agentCase.name}-${width}.png` });
      await page.getByTestId("simulator-trigger").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/words-${agentCase.name}-${width}-result.png` });
      await page.getByTestId("simulator-verdict").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/words-${agentCase.name}-${width}-verdict.png` });
    }
  });
}
