// Journey: a large session picked with "Open file" leaves its long texts in the file (the worker
// reads them back from the File when a view needs them, instead of holding a copy of them). The
// same session opened gzipped (decoded bytes are always copied) is the truth: the requests shown
// for its first, a middle and its last turn are the same text either way. When the file then
// changes on disk, a view that needs a text from it says so in words, with what to do.
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { generatePiSession } from "../bench/generate-session";
import { appView, expect, openEmptyApp, test } from "./support";

let plainFile = "";
let gzippedFile = "";

test.beforeAll(async () => {
  // Over the size from which a picked file's texts stay in it (64 MB).
  const generated = await generatePiSession({ minBytes: 70 * 1024 * 1024, seed: 3 });
  const dir = mkdtempSync(path.join(os.tmpdir(), "contextscope-texts-in-file-"));
  plainFile = path.join(dir, "session.jsonl");
  copyFileSync(generated.file, plainFile);
  gzippedFile = path.join(dir, "session-gzipped.jsonl");
  writeFileSync(gzippedFile, gzipSync(readFileSync(generated.file)));
});

async function open(page: Page, file: string): Promise<number> {
  await page.getByTestId("open-file-input").setInputFiles(file);
  await page.waitForFunction((name) => {
    const view = (window as unknown as { __contextscope?: { ready: boolean; fileName: string | null } }).__contextscope;
    return view?.ready === true && view.fileName === name;
  }, path.basename(file), { timeout: 150_000 });
  return (await appView(page)).turnCount;
}

/** Goes to `turn` with the go-to box (`g`, the number, Enter). */
async function goTo(page: Page, turn: number): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("g");
  await page.keyboard.type(String(turn));
  await page.keyboard.press("Enter");
}

/** The request shown for `turn`, as text. */
async function requestOf(page: Page, turn: number): Promise<string> {
  await goTo(page, turn);
  await page.waitForFunction((wanted) => {
    const view = (window as unknown as { __contextscope: { requestTurn: number | null; requestText: string | null } }).__contextscope;
    return view.requestTurn === wanted && view.requestText !== null;
  }, turn, { timeout: 60_000 });
  return (await appView(page)).requestText!;
}

test("a large picked file's texts are read back from it, and the page says when the file changed", async ({ page }) => {
  test.setTimeout(600_000);
  await openEmptyApp(page);
  const turns = await open(page, gzippedFile);
  expect(turns).toBeGreaterThan(100);
  const middle = Math.floor(turns / 2);
  const quarter = Math.floor(turns / 4);
  const copied = { first: await requestOf(page, 1), middle: await requestOf(page, middle), last: await requestOf(page, turns) };

  expect(await open(page, plainFile)).toBe(turns);
  expect(await requestOf(page, 1)).toBe(copied.first);
  expect(await requestOf(page, middle)).toBe(copied.middle);
  expect(await requestOf(page, turns)).toBe(copied.last);
  await expect(page.getByText(/Could not build the request/)).toHaveCount(0);

  // The agent writes on: the browser no longer reads the File picked before. A turn not shown
  // yet needs its texts from the file, and the page says why it cannot show them.
  appendFileSync(plainFile, "\n");
  await goTo(page, quarter);
  await expect(page.getByText(/can no longer be read: it changed on disk after it was opened.*Open the file again/).first()).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: test.info().outputPath("file-changed.png") });
});
