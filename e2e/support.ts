// Shared fixtures for the browser journeys: every test fails when the page logs a console error,
// throws, or makes a request to any host other than the page's own origin; one that times out prints
// the page's call stack (./stallReport.ts). Also helpers to drop files, wait for the app's published
// state (`window.__contextscope`) and read the request editor.
import { test as base, expect, type Page } from "@playwright/test";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { reportStall, watchForStall } from "./stallReport";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * A path inside the shared fixture folder (`../shared/fixtures`, or CONTEXTSCOPE_SHARED_FIXTURES).
 * The journeys that need it fail, naming the path, when it is absent: CI always has it beside the
 * repository, and a journey that skipped would hide what it tests.
 */
export function sharedFixturePath(...parts: string[]): string {
  const root = process.env.CONTEXTSCOPE_SHARED_FIXTURES
    ? path.resolve(process.env.CONTEXTSCOPE_SHARED_FIXTURES)
    : path.resolve(repoRoot, "../shared/fixtures");
  const full = path.join(root, ...parts);
  if (!existsSync(full)) throw new Error(`${full} is absent: this journey needs ../shared/fixtures beside the repository`);
  return full;
}

interface PageProblems {
  consoleErrors: string[];
  foreignRequests: string[];
}

export const test = base.extend<{ problems: PageProblems; stallReport: void }>({
  // `auto`: a journey that times out prints what the page's main thread was running.
  stallReport: [
    async ({ page }, use, testInfo) => {
      const debuggerSession = await watchForStall(page);
      await use();
      if (testInfo.status === "timedOut") await reportStall(page, debuggerSession, testInfo);
    },
    { auto: true },
  ],
  // `auto`: every journey gets these checks, whether or not it names the fixture.
  problems: [
    async ({ page, baseURL }, use) => {
      const problems: PageProblems = { consoleErrors: [], foreignRequests: [] };
      const origin = new URL(baseURL ?? "http://127.0.0.1:4173/").origin;
      page.on("console", (message) => {
        if (message.type() === "error") problems.consoleErrors.push(message.text());
      });
      page.on("pageerror", (error) => problems.consoleErrors.push(`pageerror: ${error.message}`));
      page.on("request", (request) => {
        const url = request.url();
        if (url.startsWith("data:") || url.startsWith("blob:")) return;
        if (new URL(url).origin !== origin) problems.foreignRequests.push(url);
      });
      await use(problems);
      expect(problems.consoleErrors, "console errors").toEqual([]);
      expect(problems.foreignRequests, "requests to other hosts").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Test fixture file contents, read from the repository's own copies. */
export function fixtureText(relativePath: string): string {
  return readFileSync(path.join(repoRoot, "test/fixtures", relativePath), "utf8");
}

export const PI_OPENAI_SESSION =
  "pi/print-openai-autocompact/session/--home-dev-pi-print-openai-autocompact-lighthouse-notes--/2026-11-29T19-24-40-505Z_01a228c4-42b7-7303-bb87-25da37b563c2.jsonl";

/** Captured request body of the fixture's first main request (system prompt and tools). */
export const PI_OPENAI_REQUEST_001 = "pi/print-openai-autocompact/requests/001.json";

/** The file name the app shows for a dropped fixture (its base name). */
export function baseName(relativePath: string): string {
  return path.basename(relativePath);
}

export interface DroppedFile {
  name: string;
  /** Text content (encoded as UTF-8), or … */
  text?: string;
  /** … raw bytes, base64-encoded (binary files). */
  base64?: string;
  type?: string;
}

/** Drops files on the page the way a user's drag and drop does (a real DataTransfer). */
export async function dropFiles(page: Page, files: DroppedFile[]): Promise<void> {
  await page.evaluate((items) => {
    const transfer = new DataTransfer();
    for (const item of items) {
      const part: BlobPart =
        item.base64 !== undefined ? Uint8Array.from(atob(item.base64), (char) => char.charCodeAt(0)) : (item.text ?? "");
      transfer.items.add(new File([part], item.name, { type: item.type ?? "" }));
    }
    const target = document.body;
    target.dispatchEvent(new DragEvent("dragenter", { bubbles: true, cancelable: true, dataTransfer: transfer }));
    target.dispatchEvent(new DragEvent("dragover", { bubbles: true, cancelable: true, dataTransfer: transfer }));
    target.dispatchEvent(new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: transfer }));
  }, files);
}

/** The state the app publishes for tests (see src/page/testHook.ts). */
export interface AppView {
  ready: boolean;
  status: "idle" | "loading" | "ready" | "error";
  turnCount: number;
  selectedTurn: number | null;
  requestTurn: number | null;
  fileName: string | null;
  error: string | null;
  /** True while the turns shown are those of the part of the file read so far. */
  provisional: boolean;
  /** The JSON text of the Request view, built with the current options. */
  requestText: string | null;
}

export async function appView(page: Page): Promise<AppView> {
  const view = await page.evaluate(() => (window as unknown as { __contextscope?: AppView }).__contextscope ?? null);
  if (!view) throw new Error("window.__contextscope is not published");
  return view;
}

/** Opens the app with no automatic sample and waits until it is mounted and idle. */
export async function openEmptyApp(page: Page): Promise<void> {
  await page.goto("./?sample=none");
  await expect(page.getByTestId("samples-button")).toBeVisible();
  await page.waitForFunction(() => (window as unknown as { __contextscope?: AppView }).__contextscope?.status === "idle");
}

/** Waits until the app reports a loaded session (optionally with this file name). */
export async function waitForSession(page: Page, fileName?: string): Promise<void> {
  await page.waitForFunction(
    (name) => {
      const state = (window as unknown as { __contextscope?: { ready: boolean; fileName: string | null } }).__contextscope;
      return Boolean(state?.ready) && (name === undefined || state?.fileName === name);
    },
    fileName,
    { timeout: 30_000 },
  );
}

/** Waits until the request JSON of `turn` is the one on screen (built and handed to the editor). */
export async function waitForRequestTurn(page: Page, turn: number): Promise<void> {
  await page.waitForFunction(
    (expected) => (window as unknown as { __contextscope?: AppView }).__contextscope?.requestTurn === expected,
    turn,
    { timeout: 30_000 },
  );
}

/** A timeline row of a turn (only rows scrolled into view exist: the timeline is virtualized). */
export function turnRow(page: Page, turn: number) {
  return page.locator(`[data-testid="timeline-row"][data-kind="turn"][data-turn="${turn}"]`);
}

/**
 * The text Monaco currently renders in the request editor (only the lines in view exist in the
 * DOM), lines sorted by position, all whitespace runs collapsed to one space so that word-wrap
 * breaks do not matter.
 */
export async function editorText(page: Page): Promise<string> {
  const text = await page
    .getByTestId("request-editor")
    .locator(".view-lines")
    .evaluate((root) =>
      Array.from(root.querySelectorAll<HTMLElement>(".view-line"))
        .map((line) => ({ top: parseFloat(line.style.top || "0"), text: line.textContent ?? "" }))
        .sort((a, b) => a.top - b.top)
        .map((line) => line.text)
        .join("\n"),
    );
  return text.replace(/\s+/g, " ");
}

/** Scrolls the request editor to the end of the document (Ctrl+End inside the editor). */
export async function scrollEditorToEnd(page: Page): Promise<void> {
  await page.getByTestId("request-editor").locator(".view-lines").click({ position: { x: 40, y: 10 } });
  await page.keyboard.press("ControlOrMeta+End");
}

/** Waits until the editor shows every one of `parts` (after whitespace collapsing). */
export async function expectEditorToShow(page: Page, parts: string[]): Promise<void> {
  for (const part of parts) {
    await expect.poll(() => editorText(page), { message: `editor shows ${JSON.stringify(part)}` }).toContain(part);
  }
}

/** Drops one file on the compare view itself (not the page), as a user drags a second session onto it. */
export async function dropOnCompareView(page: Page, name: string, text: string): Promise<void> {
  await page.getByTestId("compare-view").evaluate(
    (target, file) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([file.text], file.name));
      for (const type of ["dragenter", "dragover", "drop"]) target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
    },
    { name, text },
  );
}
