// Journeys: a session file followed while the test appends to it, and a folder of several agents'
// sessions opened as the sessions library. The files live in the origin private file system,
// whose handles are the same FileSystemFileHandle / FileSystemDirectoryHandle the pickers and a
// drop give; the app is handed them through `window.__contextscopeLive` (src/state/liveTestHook.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { appView, dropFiles, expect, openEmptyApp, PI_OPENAI_SESSION, repoRoot, test, waitForSession } from "./support";

interface LiveView {
  fileName: string | null;
  follow: boolean;
  notices: { turn: number; kind: string; cause: string | null }[];
}
interface LibraryView {
  rows: number;
  read: number;
  toRead: number;
  firstRowsMs: number | null;
  allRowsMs: number | null;
}

function fixture(relative: string): string {
  return readFileSync(path.join(repoRoot, "test/fixtures", relative), "utf8");
}

function fixtureBase64(relative: string): string {
  return readFileSync(path.join(repoRoot, "test/fixtures", relative)).toString("base64");
}

/** Writes `text` to `name` in the origin private file system: appended, or replacing the file. */
async function writeFile(page: Page, name: string, text: string, mode: "append" | "replace"): Promise<void> {
  await page.evaluate(
    async ({ name, text, mode }) => {
      const root = await navigator.storage.getDirectory();
      const handle = await root.getFileHandle(name, { create: true });
      const size = (await handle.getFile()).size;
      const writable = await handle.createWritable({ keepExistingData: mode === "append" });
      if (mode === "append") await writable.seek(size);
      await writable.write(text);
      await writable.close();
    },
    { name, text, mode },
  );
}

async function liveView(page: Page): Promise<LiveView> {
  return page.evaluate(() => (window as unknown as { __contextscopeLive: { live(): LiveView } }).__contextscopeLive.live());
}

async function libraryView(page: Page): Promise<LibraryView> {
  return page.evaluate(() => (window as unknown as { __contextscopeLive: { library(): LibraryView } }).__contextscopeLive.library());
}

test("a followed file: appended turns join the timeline, the newest stays selected, a compaction is announced, a rewrite is read again", async ({ page }) => {
  const lines = fixture(PI_OPENAI_SESSION).split("\n").filter((line) => line !== "").map((line) => `${line}\n`);
  await openEmptyApp(page);
  await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    await root.removeEntry("live.jsonl").catch(() => undefined);
  });
  await writeFile(page, "live.jsonl", lines.slice(0, 22).join(""), "replace");
  await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    const handle = await root.getFileHandle("live.jsonl");
    await (window as unknown as { __contextscopeLive: { openLiveHandle(h: FileSystemFileHandle): Promise<void> } }).__contextscopeLive.openLiveHandle(handle);
  });
  await waitForSession(page, "live.jsonl");
  const first = await appView(page);
  expect(first.turnCount).toBeGreaterThan(2);
  // Watched from its newest turn.
  expect(first.selectedTurn).toBe(first.turnCount);
  await expect(page.getByTestId("live-bar")).toContainText("Following live.jsonl as it grows");

  // The agent writes more: a line in two writes, then the rest of a few turns.
  await writeFile(page, "live.jsonl", lines[22]!.slice(0, 50), "append");
  await writeFile(page, "live.jsonl", lines[22]!.slice(50) + lines.slice(23, 29).join(""), "append");
  await page.waitForFunction((before) => (window as unknown as { __contextscope: { turnCount: number } }).__contextscope.turnCount > before, first.turnCount, { timeout: 15_000 });
  const second = await appView(page);
  expect(second.selectedTurn).toBe(second.turnCount);
  // The passes over every turn go on with the new ones: the prefix rows and the chart cover them.
  await page.waitForFunction(
    (count) => {
      const view = (window as unknown as { __contextscope: { prefixTurns: number | null; compositionTurns: number | null } }).__contextscope;
      return view.prefixTurns === count && view.compositionTurns === count;
    },
    second.turnCount,
    { timeout: 15_000 },
  );
  await expect(page.getByTestId("live-bar")).toContainText(/\+\d+ turns? \d+ s ago/);

  // The user moves to the first turn: new turns no longer move the selection.
  await page.keyboard.press("Home");
  await page.waitForFunction(() => (window as unknown as { __contextscope: { selectedTurn: number | null } }).__contextscope.selectedTurn === 1);
  await writeFile(page, "live.jsonl", lines.slice(29).join(""), "append");
  await page.waitForFunction(() => (window as unknown as { __contextscope: { turnCount: number } }).__contextscope.turnCount === 15, undefined, { timeout: 15_000 });
  expect((await appView(page)).selectedTurn).toBe(1);
  await page.waitForFunction(() => (window as unknown as { __contextscope: { prefixTurns: number | null } }).__contextscope.prefixTurns === 15, undefined, { timeout: 15_000 });
  // The appended part holds the session's compaction: announced with the turn after it.
  await expect.poll(async () => (await liveView(page)).notices.some((notice) => notice.kind === "compaction")).toBe(true);
  await expect(page.getByTestId("live-notice").first()).toContainText(/Turn \d+ follows a compaction/);

  // Rewritten rather than appended (shorter than what was read): read again whole, the selected turn kept.
  await writeFile(page, "live.jsonl", lines.slice(0, 22).join(""), "replace");
  await page.waitForFunction((count) => (window as unknown as { __contextscope: { turnCount: number } }).__contextscope.turnCount === count, first.turnCount, { timeout: 15_000 });
  expect((await appView(page)).selectedTurn).toBe(1);
  await expect(page.getByTestId("live-bar")).toContainText("read again whole");
});

test("a sessions folder of several agents: rows fill in, sort and filter, a new session appears, a click opens one", async ({ page }) => {
  await openEmptyApp(page);
  const files = [
    { dir: "claude", name: "ae06c21a.jsonl", base64: fixtureBase64("claude/print-autocompact-manualcompact/session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl") },
    { dir: "codex/2026/11/29", name: "rollout-a.jsonl", base64: fixtureBase64("codex/exec-autocompact/session/sessions/2026/11/29/rollout-2026-11-29T19-25-29-01a228c5-0111-7641-8ea4-161c4b3a44d5.jsonl") },
    { dir: "pi", name: "pi-session.jsonl", base64: fixtureBase64(PI_OPENAI_SESSION) },
    { dir: "opencode", name: "opencode.db", base64: fixtureBase64("opencode/run-autocompact/session/opencode-db/opencode.db") },
    { dir: "opencode", name: "opencode.db-wal", base64: fixtureBase64("opencode/run-autocompact/session/opencode-db/opencode.db-wal") },
    { dir: "", name: "notes.json", base64: Buffer.from('{"not":"a session"}').toString("base64") },
  ];
  await page.evaluate(async (list) => {
    const root = await navigator.storage.getDirectory();
    await root.removeEntry("library", { recursive: true }).catch(() => undefined);
    const library = await root.getDirectoryHandle("library", { create: true });
    for (const file of list) {
      let dir = library;
      for (const part of file.dir.split("/").filter(Boolean)) dir = await dir.getDirectoryHandle(part, { create: true });
      const handle = await dir.getFileHandle(file.name, { create: true });
      const writable = await handle.createWritable();
      await writable.write(Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0)));
      await writable.close();
    }
    await (window as unknown as { __contextscopeLive: { openLibraryFolder(h: FileSystemDirectoryHandle): Promise<void> } }).__contextscopeLive.openLibraryFolder(library);
  }, files);
  const table = page.getByTestId("library-table");
  await expect(table).toBeVisible();
  await expect.poll(async () => { const view = await libraryView(page); return view.toRead > 0 && view.read === view.toRead; }, { timeout: 60_000 }).toBe(true);
  // Four sessions; notes.json is left out.
  await expect(page.getByTestId("library-row")).toHaveCount(4);
  await expect(page.getByTestId("library-status")).toContainText("1 other file left out");
  for (const agent of ["Claude Code", "Codex", "pi", "opencode"]) await expect(table).toContainText(agent);
  await expect(page.locator('[data-testid="library-row"][data-status="done"]')).toHaveCount(4);

  // Sorted by turns, one way then the other.
  const turnsHeader = page.getByRole("columnheader", { name: /Turns/ });
  const turnsShown = async () => (await page.locator('[data-testid="library-row"] td:nth-child(6)').allTextContents()).map((text) => Number(text.replace(/,/g, "")));
  await turnsHeader.click();
  await expect(turnsHeader).toHaveAttribute("aria-sort", "descending");
  const descending = await turnsShown();
  expect(descending).toEqual([...descending].sort((a, b) => b - a));
  expect(descending.every((value) => value > 0)).toBe(true);
  await turnsHeader.click();
  await expect(turnsHeader).toHaveAttribute("aria-sort", "ascending");
  expect(await turnsShown()).toEqual([...descending].reverse());

  // Filtered: only the Codex rollout.
  await page.getByLabel("Filter sessions").fill("rollout");
  await expect(page.getByTestId("library-row")).toHaveCount(1);
  await page.getByLabel("Filter sessions").fill("");

  // A session written into the folder while it is open gets its row.
  await page.evaluate(async (text) => {
    const root = await navigator.storage.getDirectory();
    const library = await root.getDirectoryHandle("library");
    const handle = await library.getFileHandle("new-session.jsonl", { create: true });
    const writable = await handle.createWritable();
    await writable.write(text);
    await writable.close();
  }, fixture(PI_OPENAI_SESSION));
  await expect(page.getByTestId("library-row")).toHaveCount(5, { timeout: 15_000 });

  // A click opens the session, followed as it grows.
  await page.getByTestId("library-row").filter({ hasText: "rollout-a.jsonl" }).click();
  await waitForSession(page, "rollout-a.jsonl");
  await expect(page.getByTestId("library")).toHaveCount(0);
  await expect(page.getByTestId("live-bar")).toContainText("Following rollout-a.jsonl");
  expect((await liveView(page)).fileName).toBe("rollout-a.jsonl");
});

test("without the File System Access API: the buttons say why, a dropped file is shown as dropped with an offer to open it again", async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    delete w.showOpenFilePicker;
    delete w.showDirectoryPicker;
    delete (DataTransferItem.prototype as unknown as Record<string, unknown>).getAsFileSystemHandle;
  });
  await openEmptyApp(page);
  await expect(page.getByRole("button", { name: "Watch file…" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Sessions folder…" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Watch file…" })).toHaveAttribute("title", /no File System Access API/);
  await dropFiles(page, [{ name: "dropped.jsonl", text: fixture(PI_OPENAI_SESSION) }]);
  await waitForSession(page, "dropped.jsonl");
  await expect(page.getByTestId("live-unsupported")).toContainText("cannot follow a file as it grows");
  await expect(page.getByTestId("live-unsupported").getByRole("button", { name: "Open again…" })).toBeVisible();
  await expect(page.getByTestId("live-bar")).toHaveCount(0);
});
