// Journey: the compaction simulator and the compaction rows on every agent's files. For each agent's
// recording and real file in ../shared/fixtures: open it, open the simulator (it opens on the
// session's own agent's policy), see a result that is not an error, see that a policy that cannot
// run on the file says why instead of failing, open a recorded compaction and see the kept and
// summarised messages listed. At 1440×900 and 1024×700 the request editor keeps at least 45 % of
// the window beside the simulator, the simulator can take the whole width, and nothing sticks out
// sideways. With CONTEXTSCOPE_SHOTS=<folder> it saves a screenshot of each view there.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { dropFiles, expect, openEmptyApp, sharedFixturePath, test, waitForSession, type DroppedFile } from "./support";

interface Case {
  name: string;
  files: () => DroppedFile[];
  /** The file name the app shows once open. */
  opens: string;
  /** The policy the simulator must open on. */
  policy: string;
  /** A policy of another agent that does not run on this file (its reason is shown), if any. */
  notApplicable?: string;
  /** The file records a compaction with a next turn. */
  compaction: boolean;
}

function textFile(...parts: string[]): DroppedFile {
  const full = sharedFixturePath(...parts);
  return { name: path.basename(full), text: readFileSync(full, "utf8") };
}

function binaryFile(...parts: string[]): DroppedFile {
  const full = sharedFixturePath(...parts);
  return { name: path.basename(full), base64: readFileSync(full).toString("base64") };
}

/** The one session file under a recording's session folder whose name ends with `suffix`. */
function recorded(agentCase: string, suffix: string): DroppedFile {
  const root = sharedFixturePath(agentCase, "session");
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(suffix)) found.push(full);
    }
  };
  walk(root);
  if (found.length !== 1) throw new Error(`${root}: expected one *${suffix}, found ${found.length}`);
  return { name: path.basename(found[0]!), text: readFileSync(found[0]!, "utf8") };
}

const CASES: Case[] = [
  { name: "pi recording", files: () => [recorded("pi/print-openai-autocompact", ".jsonl")], opens: "", policy: "pi", notApplicable: "claude-code", compaction: true },
  { name: "pi real file", files: () => [textFile("realworld/pi/pi-mono-large-session-v1.jsonl")], opens: "pi-mono-large-session-v1.jsonl", policy: "pi", compaction: false },
  { name: "senpi recording", files: () => [recorded("senpi/print-openai-autocompact", ".jsonl")], opens: "", policy: "senpi", compaction: true },
  { name: "Claude Code recording", files: () => [recorded("claude/print-autocompact-manualcompact", ".jsonl")], opens: "", policy: "claude-code", notApplicable: "pi", compaction: true },
  { name: "Claude Code real file", files: () => [textFile("realworld/claude-code/codemie-session-624a4a58-compaction.jsonl")], opens: "codemie-session-624a4a58-compaction.jsonl", policy: "claude-code", notApplicable: "codex", compaction: true },
  { name: "Codex recording", files: () => [recorded("codex/exec-autocompact", ".jsonl")], opens: "", policy: "codex", notApplicable: "pi", compaction: true },
  { name: "Codex real file", files: () => [textFile("realworld/codex/codemie-rollout-0.128-desktop.jsonl")], opens: "codemie-rollout-0.128-desktop.jsonl", policy: "codex", compaction: false },
  { name: "Gemini CLI recording", files: () => [recorded("gemini-cli/p-resume-autocompress", ".jsonl")], opens: "", policy: "gemini-cli", notApplicable: "codex", compaction: true },
  { name: "opencode recording", files: () => [textFile("opencode/run-autocompact/session/export.json")], opens: "export.json", policy: "opencode", notApplicable: "claude-code", compaction: true },
  { name: "opencode real database", files: () => [binaryFile("realworld/opencode/suhd550-stunning-memory-v1.16/opencode.db")], opens: "opencode.db", policy: "opencode", compaction: false },
  {
    name: "hermes storage",
    files: () => [binaryFile("hermes-storage/state.db"), binaryFile("hermes-storage/state.db-wal"), binaryFile("hermes-storage/state.db-shm")],
    opens: "state.db",
    policy: "hermes",
    notApplicable: "pi",
    compaction: true,
  },
  {
    name: "deepseek-harness recording",
    files: () => [binaryFile("deepseek-harness/headless-deepseek-manualcompact/session/--home-dev-dsh-manual-compact-tidewater--/session-dc1086b1-208d-42e8-b3ef-9b8679a11273/session.jsonl.zstd")],
    opens: "session.jsonl.zstd",
    policy: "deepseek-harness",
    notApplicable: "pi",
    compaction: true,
  },
  { name: "hermes real snapshot", files: () => [textFile("realworld/hermes/juliuss-kb/sessions/session_20260424_182100_85ae43c6.json")], opens: "session_20260424_182100_85ae43c6.json", policy: "hermes", compaction: false },
];

const SHOTS = process.env.CONTEXTSCOPE_SHOTS ?? null;

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Scrolls the (virtualized) timeline until a compaction row is rendered, and selects it. */
async function firstCompactionRow(page: Page): Promise<void> {
  const row = page.locator('[data-testid="timeline-row"][data-kind="compaction"]').first();
  for (let step = 0; step < 200 && (await row.count()) === 0; step++) {
    await page.getByTestId("timeline").evaluate((element) => element.scrollBy(0, element.clientHeight * 0.8));
    await page.waitForTimeout(30);
  }
  await row.click();
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

/** Nothing on the page is wider than the window (no sideways scroll), and the request keeps 45 %. */
async function expectFits(page: Page): Promise<void> {
  const widths = await page.evaluate(() => {
    const center = document.querySelector(".center-panel")?.getBoundingClientRect();
    const panel = document.querySelector('[data-testid="simulator-panel"]')?.getBoundingClientRect();
    return { window: window.innerWidth, center: center?.width ?? 0, panelRight: panel?.right ?? 0, bodyScroll: document.querySelector(".main-area")?.scrollWidth ?? 0 };
  });
  expect(widths.center, "request column width").toBeGreaterThanOrEqual(0.45 * widths.window - 1);
  expect(widths.panelRight, "simulator inside the window").toBeLessThanOrEqual(widths.window + 1);
  expect(widths.bodyScroll, "main area does not scroll sideways").toBeLessThanOrEqual(widths.window + 1);
}

for (const agentCase of CASES) {
  test(`simulator and compaction rows: ${agentCase.name}`, async ({ page }) => {
    test.setTimeout(120_000);
    await openEmptyApp(page);
    const files = agentCase.files();
    await dropFiles(page, files);
    await waitForSession(page, agentCase.opens || files[0]!.name);

    // The simulator opens on the session's own agent's policy and answers.
    await page.getByTestId("simulate-button").click();
    await expect(page.getByTestId("simulator-policy")).toHaveValue(agentCase.policy, { timeout: 30_000 });
    const result = page.getByTestId("simulator-result");
    await expect(result).toHaveAttribute("data-status", "ready", { timeout: 60_000 });
    await expect(page.getByTestId("simulator-error")).toHaveCount(0);
    await expect(page.getByTestId("simulator-trigger-expression")).not.toHaveText(/→ no$/);
    await expect(page.getByTestId("simulator-verdict")).toBeVisible();
    await expect(page.getByTestId("simulator-inferred-settings")).toHaveAttribute("data-status", /ready|error/, { timeout: 60_000 });
    await expect(page.getByTestId("simulator-inferred-settings")).toHaveAttribute("data-status", "ready");
    // A conflicting interval is never offered as a setting.
    for (const item of await page.locator('[data-testid^="simulator-inferred-"][data-conflict="true"]').all()) {
      await expect(item).toContainText("not inferred");
    }
    await expectFits(page);
    await shot(page, `${slug(agentCase.name)}-simulator-1440`);

    await page.setViewportSize({ width: 1024, height: 700 });
    await expectFits(page);
    await shot(page, `${slug(agentCase.name)}-simulator-1024`);
    await page.getByTestId("simulator-width").click();
    await expect(page.getByTestId("simulator-panel")).toHaveAttribute("data-width", "whole");
    await shot(page, `${slug(agentCase.name)}-simulator-wide-1024`);
    await page.getByTestId("simulator-width").click();
    await page.setViewportSize({ width: 1440, height: 900 });

    // A policy of another agent says why it does not apply, instead of failing.
    if (agentCase.notApplicable) {
      await page.getByTestId("simulator-policy").selectOption(agentCase.notApplicable);
      await expect(page.getByTestId("simulator-unsupported")).toContainText("The opencode, hermes and deepseek-harness policies run on any session");
      await expect(page.getByTestId("simulator-error")).toHaveCount(0);
      await page.getByTestId("simulator-policy").selectOption(agentCase.policy);
    }
    await page.getByRole("button", { name: "Close the simulator" }).click();

    if (!agentCase.compaction) return;
    // A recorded compaction says what it kept and summarised, with the trigger in words.
    await firstCompactionRow(page);
    const outcome = page.getByTestId("compaction-outcome");
    await expect(outcome).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("compaction-trigger")).not.toHaveText(/→ no$/);
    const summarised = Number(await page.getByTestId("compaction-summarised").getAttribute("data-count"));
    const kept = Number(await page.getByTestId("compaction-kept").getAttribute("data-count"));
    expect(summarised, "summarised messages").toBeGreaterThan(0);
    expect(kept + summarised).toBeGreaterThan(0);
    await expect(page.getByTestId("compaction-tokens")).toContainText("→");
    // One "tokens before": the row's recorded figure is the compaction view's, and the trigger's.
    const recordedBefore = await page.locator('[data-testid="timeline-row"][data-kind="compaction"]').first().getAttribute("data-tokens-before");
    if (recordedBefore !== null) {
      const figure = Number(recordedBefore).toLocaleString("en-US");
      await expect(page.getByTestId("compaction-before")).toContainText(figure);
      const trigger = (await page.getByTestId("compaction-trigger").textContent()) ?? "";
      if (/\d tokens/.test(trigger)) expect(trigger).toContain(`${figure} tokens`);
    }
    // Details and the centre agree on whether the request was rebuilt.
    const rebuilt = await page.getByTestId("compaction-view").getAttribute("data-rebuilt");
    const details = page.getByTestId("compaction-details-request");
    if (rebuilt === "true") await expect(details).toContainText("reconstructed");
    else await expect(details).toContainText("not rebuilt here");
    await shot(page, `${slug(agentCase.name)}-compaction-1440`);
    await page.setViewportSize({ width: 1024, height: 700 });
    await shot(page, `${slug(agentCase.name)}-compaction-1024`);
  });
}
