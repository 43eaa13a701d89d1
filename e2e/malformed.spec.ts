// Journey: unreadable inputs. A binary file and a JSON file that is not a session each get a clear
// error banner that says what was expected, while the session already open stays on screen and
// the app keeps working (a sample and a valid file still open). A pi session with garbage lines in
// the middle opens anyway, and the warnings panel lists the bad lines by number.
import {
  appView,
  baseName,
  dropFiles,
  expect,
  expectEditorToShow,
  fixtureText,
  PI_OPENAI_SESSION,
  test,
  turnRow,
  waitForRequestTurn,
  waitForSession,
} from "./support";

const ENGLISH = "pi-english-compaction.jsonl";
const SESSION_NAME = baseName(PI_OPENAI_SESSION);

/** Deterministic pseudo-random bytes that start like a gzip stream (a typical wrong file). */
function binaryGarbage(size: number): string {
  const bytes = new Uint8Array(size);
  let seed = 0x2545f491;
  for (let i = 0; i < size; i += 1) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    bytes[i] = seed & 0xff;
  }
  bytes.set([0x1f, 0x8b, 0x08, 0x00], 0);
  return Buffer.from(bytes).toString("base64");
}

test("unreadable files get a clear error and the app stays usable", async ({ page }) => {
  await page.goto("./");
  await waitForSession(page, ENGLISH);
  await turnRow(page, 3).click();
  await waitForRequestTurn(page, 3);
  const banner = page.getByTestId("error-banner");
  await expect(banner).toHaveCount(0);

  // 1. Binary garbage behind a gzip header, dropped: gzip is a container sessions come in, so the
  //    banner says its data is damaged (not that the file is empty).
  await dropFiles(page, [{ name: "logs.tar.gz", base64: binaryGarbage(64 * 1024) }]);
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("logs.tar.gz");
  await expect(banner).toContainText("gzip member 1 (from byte 0) is damaged");
  await expect(banner).toContainText("nothing could be decoded");
  await expect(banner).not.toContainText("is empty");
  // It names what a readable input is.
  await expect(banner).toContainText("not a pi session: expected");
  await expect(banner).toContainText("the previous session is still shown");
  // The previous session is untouched: same file, same turn, same request, still navigable.
  let view = await appView(page);
  expect(view).toMatchObject({ ready: true, status: "ready", fileName: ENGLISH, selectedTurn: 3, requestTurn: 3 });
  await expect(page.getByTestId("file-name")).toHaveText(ENGLISH);
  await expect(page.getByTestId("load-progress")).toHaveCount(0);
  await page.getByTestId("timeline").focus();
  await page.keyboard.press("j");
  await waitForRequestTurn(page, 4);

  // 2. A JSON file that is not a session, opened with the file picker (the same path as a
  //    dropped .jsonl; a dropped .json is taken as a captured request instead).
  await page.getByRole("button", { name: "Dismiss error" }).click();
  await expect(banner).toHaveCount(0);
  await page.getByTestId("open-file-input").setInputFiles({
    name: "package.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify({ name: "lighthouse-notes", version: "1.4.0", scripts: { test: "node --test" } }, null, 2)),
  });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("package.json");
  await expect(banner).toContainText("not a pi session: expected");
  await expect(banner).not.toContainText("binary");
  view = await appView(page);
  expect(view).toMatchObject({ ready: true, fileName: ENGLISH, selectedTurn: 4, requestTurn: 4 });

  // 3. The app still opens things: a sample from the menu, then a valid dropped file. A
  //    successful open clears the banner.
  await page.getByTestId("samples-button").click();
  await page.getByTestId("sample-item-pi-korean").click();
  await waitForSession(page, "pi-korean.jsonl");
  await expect(banner).toHaveCount(0);
  await waitForRequestTurn(page, 1);
  await expectEditorToShow(page, ['"model": "gpt-4.1"']);

  await dropFiles(page, [{ name: SESSION_NAME, text: fixtureText(PI_OPENAI_SESSION) }]);
  await waitForSession(page, SESSION_NAME);
  expect((await appView(page)).turnCount).toBe(15);
  await waitForRequestTurn(page, 1);
  await expectEditorToShow(page, ['"model": "fake-model"']);
  await expect(banner).toHaveCount(0);
});

test("an empty file on a first visit gets an error and nothing else breaks", async ({ page }) => {
  await page.goto("./?sample=none");
  await expect(page.getByTestId("samples-button")).toBeVisible();
  await dropFiles(page, [{ name: "empty.jsonl", text: "" }]);
  const banner = page.getByTestId("error-banner");
  await expect(banner).toContainText("empty.jsonl");
  await expect(banner).toContainText(/empty/i);
  expect(await appView(page)).toMatchObject({ ready: false, fileName: null });

  await dropFiles(page, [{ name: SESSION_NAME, text: fixtureText(PI_OPENAI_SESSION) }]);
  await waitForSession(page, SESSION_NAME);
  await expect(banner).toHaveCount(0);
});

test("a pi session with garbage lines opens and the warnings list their line numbers", async ({ page }) => {
  const lines = fixtureText(PI_OPENAI_SESSION).split("\n");
  // Insert after file lines 10 and 20: the garbage lands on lines 11 and 22 of the new file.
  const withGarbage = [
    ...lines.slice(0, 10),
    "this line is not JSON at all",
    ...lines.slice(10, 20),
    '{"type":"message","id":"broken","message":{"role":"user","content":[{"type":"text","text":"cut off',
    ...lines.slice(20),
  ].join("\n");

  await page.goto("./?sample=none");
  await expect(page.getByTestId("samples-button")).toBeVisible();
  await dropFiles(page, [{ name: "with-garbage.jsonl", text: withGarbage }]);
  await waitForSession(page, "with-garbage.jsonl");
  // Every good entry is kept: the same 15 turns as the clean file.
  expect((await appView(page)).turnCount).toBe(15);
  await expect(page.getByTestId("error-banner")).toHaveCount(0);

  const warningsButton = page.getByTestId("warnings-button");
  await expect(warningsButton).toContainText("2 warnings");
  await expect(page.getByTestId("warnings-panel")).toHaveCount(0);
  await warningsButton.click();
  const panel = page.getByTestId("warnings-panel");
  await expect(panel).toBeVisible();
  await expect(panel.locator(".warning-line")).toHaveText(["line 11", "line 22"]);
  await expect(panel).toContainText("Warnings (2)");
});
