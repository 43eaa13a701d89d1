// Shared fixtures for the browser journeys: every test fails when the page logs a console error,
// throws, or makes a request to any host other than the page's own origin.
import { test as base, expect, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

interface PageProblems {
  consoleErrors: string[];
  foreignRequests: string[];
}

export const test = base.extend<{ problems: PageProblems }>({
  problems: async ({ page, baseURL }, use) => {
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
});

export { expect };

/** Test fixture file contents, read from the repository's own copies. */
export function fixtureText(relativePath: string): string {
  return readFileSync(path.join(repoRoot, "test/fixtures", relativePath), "utf8");
}

export const PI_OPENAI_SESSION =
  "pi/print-openai-autocompact/session/--home-dev-pi-print-openai-autocompact-lighthouse-notes--/2026-11-29T19-24-40-505Z_01a228c4-42b7-7303-bb87-25da37b563c2.jsonl";

interface DroppedFile {
  name: string;
  text: string;
  type?: string;
}

/** Drops files on the page the way a user's drag and drop does (a real DataTransfer). */
export async function dropFiles(page: Page, files: DroppedFile[]): Promise<void> {
  await page.evaluate((items) => {
    const transfer = new DataTransfer();
    for (const item of items) transfer.items.add(new File([item.text], item.name, { type: item.type ?? "" }));
    const target = document.body;
    target.dispatchEvent(new DragEvent("dragenter", { bubbles: true, cancelable: true, dataTransfer: transfer }));
    target.dispatchEvent(new DragEvent("dragover", { bubbles: true, cancelable: true, dataTransfer: transfer }));
    target.dispatchEvent(new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: transfer }));
  }, files);
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
