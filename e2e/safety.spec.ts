// Safety journeys of issue #6: session text with HTML and script payloads is rendered as text and
// runs nothing (no dialog, no global set, no element created from it); broken, truncated,
// tampered, oversized, unknown-version and hostile (`__proto__`) share links show a clear error
// banner, never a blank page, and the app stays usable; the CSP allows no connection but the
// page's own origin. Every journey also fails on a request off the page's origin (support.ts).
import { deflateSync } from "fflate";
import type { Page } from "@playwright/test";
import { encodeBase64Url } from "../src/core/share/base64url";
import { dropFiles, expect, openEmptyApp, test, waitForRequestTurn, waitForSession } from "./support";

const TIME = "2026-01-01T00:00:00.000Z";
const PAYLOADS = [
  `<img src=x onerror="window.__pwned_img=1;alert('img')">`,
  `<script>window.__pwned_script=1;alert('script')</script>`,
  `<svg onload="window.__pwned_svg=1"><a href="javascript:alert(1)">click</a></svg>`,
  `"><iframe srcdoc="<script>parent.__pwned_iframe=1</script>"></iframe>`,
];

function hostileSession(): string {
  const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  const lines = [
    { type: "session", version: 3, id: "hostile", timestamp: TIME, cwd: "/w/<b>bold</b>" },
    { type: "model_change", id: "m0", parentId: null, timestamp: TIME, provider: "openai", modelId: "gpt-4.1" },
    { type: "message", id: "u1", parentId: "m0", timestamp: TIME, message: { role: "user", content: [{ type: "text", text: PAYLOADS.join("\n") }], timestamp: 1 } },
    {
      type: "message",
      id: "a1",
      parentId: "u1",
      timestamp: TIME,
      message: {
        role: "assistant",
        content: [{ type: "text", text: PAYLOADS[0] }, { type: "toolCall", id: "c1", name: "<script>bash</script>", arguments: { command: PAYLOADS[1] } }],
        api: "openai-completions",
        provider: "openai",
        model: "gpt-4.1",
        usage,
        stopReason: "toolUse",
        timestamp: 2,
      },
    },
    { type: "message", id: "t1", parentId: "a1", timestamp: TIME, message: { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: PAYLOADS[2] }], isError: false, timestamp: 3 } },
    { type: "message", id: "a2", parentId: "t1", timestamp: TIME, message: { role: "assistant", content: [{ type: "text", text: PAYLOADS[3] }], api: "openai-completions", provider: "openai", model: "gpt-4.1", usage, stopReason: "stop", timestamp: 4 } },
  ];
  return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}

async function pwned(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Object.keys(window).filter((key) => key.startsWith("__pwned") || key === "polluted").concat("polluted" in {} ? ["Object.prototype.polluted"] : []),
  );
}

test("HTML and script payloads in a session are shown as text and run nothing", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await openEmptyApp(page);
  await dropFiles(page, [{ name: "hostile.jsonl", text: hostileSession() }]);
  await waitForSession(page, "hostile.jsonl");
  await waitForRequestTurn(page, 1);
  // The Request view (Monaco) holds the payload as text.
  const text = await page.evaluate(() => (window as unknown as { __contextscope: { requestText: string } }).__contextscope.requestText);
  expect(text).toContain("<img src=x onerror=");

  // Turn 2 in the Messages tab: every payload is a text preview, no element is created from it.
  await page.getByTestId("timeline").focus();
  await page.keyboard.press("j");
  await waitForRequestTurn(page, 2);
  await page.getByTestId("tab-messages").click();
  const table = page.getByTestId("messages-table");
  await expect(table).toContainText("<img src=x onerror=");
  await expect(table).toContainText("<script>window.__pwned_script=1");
  for (const row of await page.getByTestId("message-row").all()) await row.click();
  await page.getByTestId("tab-request").click();

  await page.waitForTimeout(300);
  expect(dialogs).toEqual([]);
  expect(await pwned(page)).toEqual([]);
  expect(await page.locator('img[src="x"], iframe, svg[onload], a[href^="javascript:"]').count()).toBe(0);
  expect(await page.locator("script:not([src])").count()).toBe(0);
});

/** A fragment of raw bytes, deflated as the encoder does. */
function fragmentOf(json: string): string {
  return `#v1=${encodeBase64Url(deflateSync(new TextEncoder().encode(json), { level: 9 }))}`;
}

const VALID_VIEW = { turn: 1, tab: "request", profile: "pi", provider: null, notes: false, leafId: null };

async function expectLinkError(page: Page, fragment: string, message: RegExp): Promise<void> {
  // A fresh load each time (a fragment-only change would not reload the page).
  await page.goto("about:blank");
  await page.goto(`./${fragment}`);
  const banner = page.getByTestId("error-banner");
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(message);
  // Not a blank page: the app is there and usable (samples menu, open file).
  await expect(page.getByTestId("samples-button")).toBeVisible();
  await page.waitForFunction(() => (window as unknown as { __contextscope?: { status: string } }).__contextscope?.status === "error");
  expect(await pwned(page)).toEqual([]);
}

test("broken, tampered, oversized, unknown-version and hostile links show a clear error; the app stays usable", async ({ page }) => {
  // A good link to damage: built by the app from a sample.
  await page.goto("./");
  await waitForSession(page, "pi-english-compaction.jsonl");
  await page.getByTestId("share-button").click();
  await expect(page.getByTestId("share-dialog")).toHaveAttribute("data-status", "ready");
  const link = await page.getByTestId("share-link").inputValue();
  const fragment = link.slice(link.indexOf("#"));

  await expectLinkError(page, fragment.slice(0, Math.floor(fragment.length * 0.6)), /damaged \(cut short or altered\)/);
  const at = Math.floor(fragment.length / 2);
  const tampered = `${fragment.slice(0, at)}${fragment[at] === "Q" ? "w" : "Q"}${fragment.slice(at + 1)}`;
  await expectLinkError(page, tampered, /This share link/);
  await expectLinkError(page, "#v1=not*base64!", /damaged/);
  await expectLinkError(page, fragment.replace("#v2=", "#v42="), /newer version of Contextscope/);
  await expectLinkError(page, fragmentOf(JSON.stringify({ v: 1, session: { lines: ["A".repeat(33 * 1024 * 1024)] } })), /more data than Contextscope accepts/);
  const session = { fileName: "x.jsonl", formatId: "pi", scope: "full", lines: ['{"type":"session","version":3,"id":"s","cwd":"/"}'] };
  await expectLinkError(
    page,
    fragmentOf(`{"v":1,"session":${JSON.stringify(session)},"view":{"__proto__":{"polluted":true},${JSON.stringify(VALID_VIEW).slice(1)}}`),
    /does not contain a valid Contextscope view/,
  );
  await expectLinkError(page, fragmentOf(JSON.stringify({ v: 1, session, view: { ...VALID_VIEW, turn: "1" } })), /view\.turn/);

  // Still usable after an error: a sample opens from the menu and the banner can be dismissed.
  await page.getByTestId("samples-button").click();
  await page.getByTestId("sample-item-pi-korean").click();
  await waitForSession(page, "pi-korean.jsonl");
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
});

test("the Content-Security-Policy allows no connection off the page's origin", async ({ page }) => {
  await page.goto("./?sample=none");
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
  expect(csp).toBeTruthy();
  const directives = new Map(
    csp!
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map((words) => [words[0]!, words.slice(1)]),
  );
  expect(directives.get("default-src")).toEqual(["'self'"]);
  expect(directives.get("connect-src")).toEqual(["'self'"]);
  expect(directives.get("script-src")?.filter((source) => source !== "'wasm-unsafe-eval'")).toEqual(["'self'"]);
  expect(directives.get("object-src")).toEqual(["'none'"]);
  expect(directives.get("form-action")).toEqual(["'none'"]);
});
