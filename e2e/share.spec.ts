// Journeys of issue #6 (export and share): open a sample, step to a turn, switch tab and provider,
// share, open the link in a new page and see the same view (turn, tab, provider, same request
// text); the exported JSON is byte for byte the Request view's text; a reproduction bundle dropped
// on a fresh page reopens the same view; a session seeded with one secret of each catalogue kind
// gives a link and an export with none of the values, and unmasking one (confirmed) puts exactly
// that value back in the regenerated link.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { decodeShareLink } from "../src/core/share/fragment";
import { SECRET_EXAMPLES, seededSessionText } from "../test/support/secret-examples";
import { dropFiles, expect, openEmptyApp, test, turnRow, waitForRequestTurn, waitForSession, type AppView } from "./support";

const ENGLISH = "pi-english-compaction.jsonl";

interface HookView extends AppView {
  requestText: string | null;
  activeTab: string;
  profile: string;
  provider: string | null;
  notes: boolean;
}

async function hook(page: Page): Promise<HookView> {
  return page.evaluate(() => (window as unknown as { __contextscope: HookView }).__contextscope);
}

/** Console errors and off-origin requests of a page other than the fixture's `page`. */
function watch(page: Page, origin: string): { problems: string[] } {
  const watched = { problems: [] as string[] };
  page.on("console", (message) => {
    if (message.type() === "error") watched.problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => watched.problems.push(`pageerror: ${error.message}`));
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith("data:") && !url.startsWith("blob:") && new URL(url).origin !== origin) watched.problems.push(`request: ${url}`);
  });
  return watched;
}

/** Waits for the request of `turn` to be on screen in the given provider shape. */
async function waitForView(page: Page, turn: number, provider: string | null): Promise<void> {
  await page.waitForFunction(
    ([t, p]) => {
      const state = (window as unknown as { __contextscope?: HookView }).__contextscope;
      return state?.requestTurn === t && state.provider === p && typeof state.requestText === "string";
    },
    [turn, provider] as const,
    { timeout: 30_000 },
  );
}

async function openShareDialog(page: Page): Promise<string> {
  await page.getByTestId("share-button").click();
  const dialog = page.getByTestId("share-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute("data-status", "ready");
  await expect(page.getByTestId("share-size")).toHaveAttribute("data-level", /^(ok|long)$/);
  await expect(page.getByTestId("share-size")).toContainText("The link is");
  const link = await page.getByTestId("share-link").inputValue();
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#v2=[A-Za-z0-9_-]+$/);
  return link;
}

test("share: the link reopens the same turn, tab, provider and request text in a new page", async ({ page, context, baseURL }) => {
  await page.goto("./");
  await waitForSession(page, ENGLISH);
  await turnRow(page, 4).click();
  await waitForRequestTurn(page, 4);
  await page.getByTestId("provider-select").selectOption("openai-responses");
  await waitForView(page, 4, "openai-responses");
  await page.getByTestId("tab-messages").click();
  const before = await hook(page);
  expect(before.activeTab).toBe("messages");
  expect(before.requestText).toContain('"input"');
  // The URL carries the file-less view state (no session in it).
  await expect.poll(() => page.url()).toContain("turn=4");
  expect(page.url()).toContain("provider=openai-responses");
  expect(page.url()).not.toContain("#v2=");

  const link = await openShareDialog(page);
  await page.getByTestId("share-scope-full").check();
  await expect(page.getByTestId("share-dialog")).toHaveAttribute("data-status", "ready");
  const fullLink = await page.getByTestId("share-link").inputValue();
  expect(fullLink.length).toBeGreaterThan(link.length);

  const other = await context.newPage();
  const watched = watch(other, new URL(baseURL ?? link).origin);
  for (const [url, scope] of [
    [link, "branch"],
    [fullLink, "full"],
  ] as const) {
    await other.goto(url);
    await waitForSession(other, ENGLISH);
    await waitForView(other, 4, "openai-responses");
    const after = await hook(other);
    expect(after.selectedTurn, scope).toBe(4);
    expect(after.activeTab, scope).toBe("messages");
    expect(after.profile, scope).toBe("pi");
    expect(after.requestText, scope).toBe(before.requestText);
    await expect(other.getByTestId("provider-select")).toHaveValue("openai-responses");
    await expect(other.getByTestId("tab-messages")).toHaveAttribute("aria-selected", "true");
    await expect(other.getByTestId("messages-table")).toBeVisible();
    await expect(turnRow(other, 4)).toHaveAttribute("aria-selected", "true");
  }
  // The full-session link keeps every turn; the branch link stops at turn 4.
  expect((await hook(other)).turnCount).toBe(before.turnCount);
  await other.goto(link);
  await waitForView(other, 4, "openai-responses");
  expect((await hook(other)).turnCount).toBe(4);
  expect(watched.problems).toEqual([]);
  await other.close();
});

/** The panel's OpenTelemetry trace is the file `contextscope export --format otlp` prints, a span per provider call. */
async function expectOtlpFileAsCli(page: Page): Promise<void> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-otlp-download").click()]);
  expect(download.suggestedFilename()).toBe("pi-english-compaction.otlp.json");
  const saved = readFileSync((await download.path())!, "utf8");
  const printed = execFileSync("npx", ["tsx", "src/cli/main.ts", "export", "public/samples/pi-english-compaction.jsonl", "--format", "otlp"], { encoding: "utf8" });
  expect(`${saved}\n`).toBe(printed);
  const spans = (JSON.parse(saved) as { resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[] }).resourceSpans[0]!.scopeSpans[0]!.spans;
  expect(spans.filter((span) => span.name.startsWith("chat ")).length).toBe((await hook(page)).turnCount);
  await expect(page.getByTestId("export-panel")).toContainText("Saved pi-english-compaction.otlp.json");
}

test("export: the downloaded and copied JSON is byte for byte the Request view", async ({ page, context }) => {
  // The trace is compared with the CLI's, run through tsx (TypeScript compiled on the fly).
  test.setTimeout(150_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("./");
  await waitForSession(page, ENGLISH);
  await turnRow(page, 3).click();
  await waitForRequestTurn(page, 3);

  for (const provider of ["", "google-generative-ai"]) {
    if (provider) {
      await page.getByTestId("provider-select").selectOption(provider);
      await waitForView(page, 3, provider);
    }
    const shown = (await hook(page)).requestText;
    expect(shown).toBeTruthy();
    await page.getByTestId("export-button").click();
    await expect(page.getByTestId("export-panel")).toHaveAttribute("data-status", "ready");
    await expect(page.getByTestId("export-redact-toggle")).toBeChecked();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-json-download").click()]);
    expect(download.suggestedFilename()).toBe("pi-english-compaction-turn-3.request.json");
    const saved = readFileSync((await download.path())!, "utf8");
    expect(saved).toBe(shown);
    if (!provider) await expectOtlpFileAsCli(page);

    await page.getByTestId("export-json-copy").click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
    await page.getByTestId("export-curl-copy").click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(/^curl '/);
    const curl = await page.evaluate(() => navigator.clipboard.readText());
    expect(curl).toContain(provider ? "$GEMINI_API_KEY" : "$ANTHROPIC_API_KEY");
    // Closing: the same button toggles the panel.
    await page.getByTestId("export-button").click();
    await expect(page.getByTestId("export-panel")).toHaveCount(0);
  }
});

test("share: a reproduction bundle dropped on a fresh page reopens the same view", async ({ page, context, baseURL }) => {
  await page.goto("./");
  await waitForSession(page, ENGLISH);
  await turnRow(page, 5).click();
  await waitForRequestTurn(page, 5);
  const shown = (await hook(page)).requestText;
  await openShareDialog(page);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("share-bundle-download").click()]);
  expect(download.suggestedFilename()).toBe("pi-english-compaction-turn-5.contextscope.json");
  const bundle = readFileSync((await download.path())!, "utf8");
  expect(bundle.startsWith('{"contextscope":"bundle","v":2,')).toBe(true);

  const other = await context.newPage();
  const watched = watch(other, new URL(baseURL ?? "http://127.0.0.1:4173").origin);
  await openEmptyApp(other);
  await dropFiles(other, [{ name: download.suggestedFilename(), text: bundle, type: "application/json" }]);
  await waitForSession(other, ENGLISH);
  await waitForView(other, 5, null);
  expect((await hook(other)).requestText).toBe(shown);
  expect(watched.problems).toEqual([]);
  await other.close();
});

test("a session seeded with one secret of each kind: link and export hold none of them; unmasking one is explicit", async ({ page }) => {
  await openEmptyApp(page);
  await dropFiles(page, [{ name: "seeded-secrets.jsonl", text: seededSessionText() }]);
  await waitForSession(page, "seeded-secrets.jsonl");
  await waitForRequestTurn(page, 1);
  // The Request view itself shows the session as read (secrets included): only exports mask.
  const shown = (await hook(page)).requestText ?? "";
  expect(shown).toContain(JSON.stringify(SECRET_EXAMPLES[1]!.secret).slice(1, -1));

  // Export: redacted by default, with the review pane listing every masked value.
  await page.getByTestId("export-button").click();
  await expect(page.getByTestId("export-panel")).toHaveAttribute("data-status", "ready");
  const exportItems = page.getByTestId("export-panel").getByTestId("redaction-item");
  expect(await exportItems.count()).toBeGreaterThanOrEqual(SECRET_EXAMPLES.length);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-json-download").click()]);
  const exported = readFileSync((await download.path())!, "utf8");
  for (const { kind, secret } of SECRET_EXAMPLES) {
    expect(exported.includes(JSON.stringify(secret).slice(1, -1)), `export: ${kind}`).toBe(false);
  }
  expect(exported).toContain("[redacted");
  await page.getByTestId("export-button").click();

  // Share: the link (decoded here with the app's own decoder) holds none of the values.
  const link = await openShareDialog(page);
  const review = page.getByTestId("share-dialog").getByTestId("redaction-review");
  const items = review.getByTestId("redaction-item");
  expect(await items.count()).toBeGreaterThanOrEqual(SECRET_EXAMPLES.length);
  const decoded = decodeShareLink(link);
  expect(decoded.ok).toBe(true);
  const lines = decoded.ok ? decoded.payload.session.lines.join("\n") : "";
  for (const { kind, secret } of SECRET_EXAMPLES) {
    expect(lines.includes(JSON.stringify(secret).slice(1, -1)), `link: ${kind}`).toBe(false);
  }

  // Unmask the GitHub token: a confirmation step, then the link is regenerated with it.
  const github = SECRET_EXAMPLES.find((example) => example.kind === "github-token")!;
  const item = review.locator('[data-testid="redaction-item"][data-kind="github-token"]').first();
  await item.getByTestId("redaction-unmask").click();
  await expect(item.getByTestId("redaction-unmask-confirm")).toBeVisible();
  expect(await page.getByTestId("share-link").inputValue()).toBe(link);
  await item.getByTestId("redaction-unmask-confirm").click();
  await expect(page.getByTestId("share-link")).not.toHaveValue(link);
  await expect(page.getByTestId("share-dialog")).toHaveAttribute("data-status", "ready");
  await expect(review.locator('[data-testid="redaction-item"][data-kind="github-token"]')).toHaveAttribute("data-unmasked", "true");
  const relinked = decodeShareLink(await page.getByTestId("share-link").inputValue());
  const relines = relinked.ok ? relinked.payload.session.lines.join("\n") : "";
  expect(relines).toContain(github.secret);
  for (const { kind, secret } of SECRET_EXAMPLES) {
    if (secret === github.secret) continue;
    expect(relines.includes(JSON.stringify(secret).slice(1, -1)), `relinked: ${kind}`).toBe(false);
  }
});
