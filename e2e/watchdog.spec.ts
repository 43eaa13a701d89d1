// Journey: inputs that once hung or crashed the worker (the shared hostile reproducers) now open
// with their warnings; and when a stage does not answer within the watchdog's bound, the worker is
// stopped and restarted, the banner names the stage, and the next file opens as usual. The bound
// is set with `?watchdog=<seconds>`: here 1 ms, so that reading a long file outlasts it, then back
// to the default for the sample that follows. The address keeps the bound while a session is open
// (the view state written into it would otherwise drop it, and the default apply again).
import { readFileSync } from "node:fs";
import path from "node:path";
import { appView, dropFiles, expect, openEmptyApp, sharedFixturePath, test, waitForSession } from "./support";

const HOSTILE = sharedFixturePath("hostile");
const hostile = (name: string) => readFileSync(path.join(HOSTILE, name), "utf8");

/** A pi session of `messages` user messages (about 120 bytes each). */
function longPiSession(messages: number): string {
  const lines = [JSON.stringify({ type: "session", version: 3, id: "long-read", timestamp: "2026-11-29T10:00:00.000Z", cwd: "/tmp/x" })];
  let parent: string | null = null;
  for (let i = 0; i < messages; i++) {
    const id = `u${i}`;
    lines.push(JSON.stringify({ type: "message", id, parentId: parent, timestamp: "2026-11-29T10:00:01.000Z", message: { role: "user", content: `message ${i}`, timestamp: 1_795_000_000_000 } }));
    parent = id;
  }
  return lines.join("\n") + "\n";
}

test("inputs that once hung the worker open with a warning", async ({ page }) => {
  await openEmptyApp(page);
  for (const name of ["opencode-salvage-loop.json", "pi-dupid-hang.jsonl", "senpi-wrong-type-field.jsonl"]) {
    await dropFiles(page, [{ name, text: hostile(name) }]);
    await waitForSession(page, name);
    await expect(page.getByTestId("warnings-button")).not.toContainText(/^0 warnings/);
  }
  expect((await appView(page)).turnCount).toBeGreaterThan(0);
});

test("a stage past the watchdog's bound is stopped with a message naming it; a sample opens right after", async ({ page }) => {
  await page.goto("./?sample=none&watchdog=0.001");
  await expect(page.getByTestId("samples-button")).toBeVisible();
  // A file whose reading lasts well past 1 ms between two messages of the worker (progress is sent
  // every 50 ms): small files now open within one message, too fast for the bound to be sure to pass.
  await dropFiles(page, [{ name: "long-read.jsonl", text: longPiSession(40_000) }]);
  const banner = page.getByTestId("error-banner");
  await expect(banner).toContainText(/stopped (reading the file|analysing the session)/);
  await expect(banner).toContainText(/worker was restarted/);
  expect((await appView(page)).ready).toBe(false);

  // Back to the default bound: the restarted worker opens a sample.
  await page.evaluate(() => history.replaceState(null, "", "./?sample=none"));
  await page.getByTestId("samples-button").click();
  await page.getByRole("menuitem").first().click();
  await waitForSession(page);
  const view = await appView(page);
  expect(view.turnCount).toBeGreaterThan(0);
  await expect(banner).toHaveCount(0);
});

test("the address keeps the watchdog's bound while a session is open", async ({ page }) => {
  await page.goto("./?sample=none&watchdog=45");
  await page.getByTestId("samples-button").click();
  await page.getByRole("menuitem").first().click();
  await waitForSession(page);
  await expect.poll(() => new URL(page.url()).searchParams.get("turn")).not.toBeNull();
  expect(new URL(page.url()).searchParams.get("watchdog")).toBe("45");
});
