// Journeys: a session file followed while the test appends to it, a database followed with its
// -wal while the test writes the -wal, a folder of several agents' sessions opened as the sessions
// library, a Claude Code transcript followed as it grows, a Claude Code session whose sub-agent files belong to its row, and a
// folder dropped with its handle (the library for several sessions, its one session followed otherwise). The files live in the origin private file system,
// whose handles are the same FileSystemFileHandle / FileSystemDirectoryHandle the pickers and a
// drop give; the app is handed them through `window.__contextscopeLive` (src/features/live/liveTestHook.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { appView, dropFiles, expect, openEmptyApp, PI_OPENAI_SESSION, repoRoot, sharedFixturePath, test, waitForSession } from "./support";
import { assistant, SESSION_ID, toText, user } from "../test/core/agents/claude-code/helpers";
import { analyseJob } from "../src/cli/scan/analyse";
import { formatDollars } from "../src/core/pricing/index";

interface LiveView {
  fileName: string | null;
  follow: boolean;
  notices: { turn: number; kind: string; cause: string | null }[];
  growths: { appended: number; whole: number };
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

/** Writes `text` to `name` in the origin private file system and opens it as a followed file. */
async function openFollowedFile(page: Page, name: string, text: string): Promise<void> {
  await page.evaluate(async (name) => {
    const root = await navigator.storage.getDirectory();
    await root.removeEntry(name).catch(() => undefined);
  }, name);
  await writeFile(page, name, text, "replace");
  await page.evaluate(async (name) => {
    const handle = await (await navigator.storage.getDirectory()).getFileHandle(name);
    await (window as unknown as { __contextscopeLive: { openLiveHandle(h: FileSystemFileHandle): Promise<void> } }).__contextscopeLive.openLiveHandle(handle);
  }, name);
  await waitForSession(page, name);
}

/** Claude Code lines as a file's base64. */
const encode = (lines: unknown[]) => Buffer.from(`${toText(lines)}\n`).toString("base64");

/** A Claude Code session whose Task call launched the sub-agent `agent2` ("Check tests"), as base64. */
function mainWithTask(): string {
  const task = { type: "tool_use", id: "t2", name: "Task", input: { description: "Check tests", prompt: "check tests", subagent_type: "general-purpose" } };
  return encode([
    user("u1", null, "review this"),
    assistant("a1", "u1", "msg_1", [task]),
    user("r2", "a1", [{ type: "tool_result", tool_use_id: "t2", content: "launched" }], {
      toolUseResult: { isAsync: true, status: "async_launched", agentId: "agent2", description: "Check tests" },
    }),
    assistant("a2", "r2", "msg_2", [{ type: "text", text: "started" }]),
  ]);
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
  await openFollowedFile(page, "live.jsonl", lines.slice(0, 22).join(""));
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
  // The page was sent only the new rows and appended them to the analysis it held.
  const growths = (await liveView(page)).growths;
  expect(growths.appended).toBeGreaterThan(0);
  expect(growths.whole).toBe(0);

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

test("a followed Claude Code transcript: appended turns, an API message written entry by entry, a compaction, join the timeline", async ({ page }) => {
  const CLAUDE = "claude/print-autocompact-manualcompact/session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl";
  const lines = fixture(CLAUDE).split("\n").filter((line) => line !== "").map((line) => `${line}\n`);
  await openEmptyApp(page);
  await openFollowedFile(page, "claude-live.jsonl", lines.slice(0, 50).join(""));
  const first = await appView(page);
  expect(first.turnCount).toBeGreaterThan(1);
  // The rest in a few writes, cut anywhere (inside a line, between the entries of one API message).
  for (const [from, to] of [[50, 73], [73, 120], [120, lines.length]] as const) {
    await writeFile(page, "claude-live.jsonl", lines.slice(from, to).join(""), "append");
  }
  // As the whole file read at once: 15 requests, the compactions announced.
  await page.waitForFunction(() => (window as unknown as { __contextscope: { turnCount: number } }).__contextscope.turnCount === 15, undefined, { timeout: 20_000 });
  expect((await appView(page)).selectedTurn).toBe(15);
  await page.waitForFunction(() => (window as unknown as { __contextscope: { prefixTurns: number | null } }).__contextscope.prefixTurns === 15, undefined, { timeout: 20_000 });
  await expect.poll(async () => (await liveView(page)).notices.some((notice) => notice.kind === "compaction")).toBe(true);
});

const CLAUDE_LIBRARY_SESSION = "claude/print-autocompact-manualcompact/session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl";

test("a sessions folder of several agents: rows fill in from the summary pass where the agent has one, sort and filter, a new session appears, a click opens one", async ({ page }) => {
  await openEmptyApp(page);
  const files: { dir: string; name: string; base64: string; source?: string }[] = [
    { dir: "claude", name: "ae06c21a.jsonl", source: CLAUDE_LIBRARY_SESSION, base64: fixtureBase64(CLAUDE_LIBRARY_SESSION) },
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

  // Claude Code and Codex rows come from the summary pass, as `scan` makes its lines; pi and opencode are read in full.
  await expect(page.locator('[data-testid="library-row"][data-pass="summary"]')).toHaveCount(2);
  await expect(page.locator('[data-testid="library-row"][data-pass="full"]')).toHaveCount(2);
  // The breaks column says which breaks it counts: those the provider reported, on every row.
  const breaksHeader = page.getByRole("columnheader", { name: /Reported breaks/ });
  await expect(breaksHeader).toHaveAttribute("title", /^Cache breaks the provider reported: .*open a session for the breaks its rebuilt requests show/);
  await expect(page.locator('[data-testid="library-row"][data-pass="full"] [data-testid="library-breaks"]').first()).toHaveAttribute("title", /rebuilt requests break the prefix/);
  // The Claude Code row's figures are `scan`'s line for the same file.
  const claudeFile = path.join(repoRoot, "test/fixtures", files[0]!.source!);
  const line = await analyseJob({ file: claudeFile, with: [], sideFiles: [], agentIds: [null], bytes: 0 }, { tokenizer: "estimate", full: false }, (file) => new Uint8Array(readFileSync(file)));
  expect(line.pass).toBe("summary");
  const whole = line.wholeSession!;
  const claudeCells = page.getByTestId("library-row").filter({ hasText: "ae06c21a.jsonl" }).locator("td");
  await expect(claudeCells.nth(5)).toHaveText(line.turns.toLocaleString("en-US"));
  await expect(claudeCells.nth(6)).toHaveText(String(line.compactions));
  await expect(claudeCells.nth(7)).toHaveText(String(line.reportedBreaks));
  await expect(claudeCells.nth(8)).toHaveText(String(line.threads));
  await expect(claudeCells.nth(9).locator("span")).toHaveAttribute("title", `${(whole.input + whole.cacheRead + whole.cacheWrite + whole.output).toLocaleString("en-US")} tokens`);
  await expect(claudeCells.nth(10)).toHaveText(formatDollars(whole.cost.dollars!));

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

test("without the File System Access API: a dropped folder's session is shown as dropped, with how to see it grow", async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    delete w.showOpenFilePicker;
    delete w.showDirectoryPicker;
    delete (DataTransferItem.prototype as unknown as Record<string, unknown>).getAsFileSystemHandle;
  });
  await openEmptyApp(page);
  // A page cannot make a dropped folder: the drop's entry is made to be one (the entries API, as a browser gives it).
  await page.evaluate((text) => {
    const file = new File([text], "session.jsonl");
    const fileEntry = { isFile: true, isDirectory: false, name: file.name, file: (done: (file: File) => void) => done(file) };
    let listed = false;
    const reader = { readEntries: (done: (entries: unknown[]) => void) => { done(listed ? [] : [fileEntry]); listed = true; } };
    const folder = { isFile: false, isDirectory: true, name: "dropped-folder", createReader: () => reader };
    (DataTransferItem.prototype as unknown as { webkitGetAsEntry: () => unknown }).webkitGetAsEntry = () => folder;
    const transfer = new DataTransfer();
    transfer.items.add(new File([""], "dropped-folder"));
    for (const type of ["dragenter", "dragover", "drop"]) document.body.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
  }, fixture(PI_OPENAI_SESSION));
  await waitForSession(page, "session.jsonl");
  await expect(page.getByTestId("live-unsupported")).toContainText("The session shows the folder's files as they were when dropped: drop the folder again to see new turns");
  await expect(page.getByTestId("live-unsupported")).toContainText("In Chrome or Edge, a dropped folder opens as a list of its sessions, followed as they grow");
  // A file input cannot open the folder again.
  await expect(page.getByTestId("live-unsupported").getByRole("button", { name: "Open again…" })).toBeHidden();
  await expect(page.getByTestId("live-bar")).toHaveCount(0);
});

/** Writes files (base64) into a fresh folder `name` of the origin private file system. */
async function writeFolder(page: Page, name: string, files: { dir: string; name: string; base64: string }[]): Promise<void> {
  await page.evaluate(
    async ({ name, files }) => {
      const root = await navigator.storage.getDirectory();
      await root.removeEntry(name, { recursive: true }).catch(() => undefined);
      const top = await root.getDirectoryHandle(name, { create: true });
      for (const file of files) {
        let dir = top;
        for (const part of file.dir.split("/").filter(Boolean)) dir = await dir.getDirectoryHandle(part, { create: true });
        const handle = await dir.getFileHandle(file.name, { create: true });
        const writable = await handle.createWritable();
        await writable.write(Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0)));
        await writable.close();
      }
    },
    { name, files },
  );
}

const turnCountIs = (page: Page, count: number) =>
  page.waitForFunction((expected) => (window as unknown as { __contextscope: { turnCount: number } }).__contextscope.turnCount === expected, count, { timeout: 15_000 });

test("a database followed with its -wal: rows written to the -wal appear, the session shown stays; a database alone says new messages may appear late", async ({ page }) => {
  // A generated opencode database whose newest rows are only in its -wal (test/fixtures/opencode/wal-synthetic/make.py).
  const wal = readFileSync(path.join(repoRoot, "test/fixtures/opencode/wal-synthetic/opencode.db-wal"));
  await openEmptyApp(page);
  await writeFolder(page, "dbset", [
    { dir: "", name: "opencode.db", base64: fixtureBase64("opencode/wal-synthetic/opencode.db") },
    // The -wal as opencode leaves it after a checkpoint: its header, no frame yet.
    { dir: "", name: "opencode.db-wal", base64: wal.subarray(0, 32).toString("base64") },
  ]);
  const openSet = (names: string[]) =>
    page.evaluate(async (list) => {
      const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle("dbset");
      const handles = await Promise.all(list.map((name) => dir.getFileHandle(name)));
      await (window as unknown as { __contextscopeLive: { openLiveHandles(h: FileSystemFileHandle[]): Promise<void> } }).__contextscopeLive.openLiveHandles(handles);
    }, names);
  await openSet(["opencode.db", "opencode.db-wal"]);
  await waitForSession(page);
  expect((await appView(page)).turnCount).toBe(1);
  await expect(page.getByTestId("live-bar")).toContainText("Following opencode.db with its -wal file");
  await expect(page.getByTestId("live-wal-late")).toHaveCount(0);

  // opencode writes: two more messages of this session and a newer session, all to the -wal.
  await page.evaluate(async (base64) => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle("dbset");
    const writable = await (await dir.getFileHandle("opencode.db-wal")).createWritable();
    await writable.write(Uint8Array.from(atob(base64), (char) => char.charCodeAt(0)));
    await writable.close();
  }, wal.toString("base64"));
  await turnCountIs(page, 2);
  // The session shown stays the one followed; the newer one is offered in the picker.
  await expect(page.getByTestId("session-select")).toHaveValue("ses_a");
  await expect(page.getByTestId("live-bar")).toContainText(/read again \d+ s ago/);
  // Another session of the database, chosen in the picker, is followed too.
  await page.getByTestId("session-select").selectOption("ses_b");
  await expect(page.getByTestId("session-select")).toHaveValue("ses_b");
  await expect(page.getByTestId("live-bar")).toContainText("Following opencode.db with its -wal file");

  // The database alone (a file handle covers one file): followed, with the reason new messages may come late.
  await openSet(["opencode.db"]);
  await expect(page.getByTestId("live-wal-late")).toContainText("New messages may appear late, and recent ones may be missing: opencode writes them to opencode.db-wal first, and only opencode.db was opened");
  // The live bar says it: the banner of a database opened without its -wal is not shown twice.
  await expect(page.getByTestId("wal-warning")).toHaveCount(0);
  await expect(page.getByTestId("live-wal-late")).toContainText("Open the folder that holds opencode.db and its -wal file");
});

test("a sessions folder: a Claude Code session's sub-agent files belong to its row and open with it; a subagents folder without its session is listed", async ({ page }) => {
  const main = mainWithTask();
  const sidechain = (agentId: string) => ({ isSidechain: true, agentId });
  const subAgent = (agentId: string) =>
    encode([user("f1", null, "check tests", sidechain(agentId)), assistant("f2", "f1", "msg_f1", [{ type: "text", text: "tests pass" }], undefined, sidechain(agentId))]);
  await openEmptyApp(page);
  await writeFolder(page, "claude-projects", [
    { dir: "-home-dev-p", name: `${SESSION_ID}.jsonl`, base64: main },
    { dir: `-home-dev-p/${SESSION_ID}/subagents`, name: "agent-agent2.jsonl", base64: subAgent("agent2") },
    // A sub-agent file whose session file is not in the folder: a row of its own, not left out unseen.
    { dir: "-home-dev-q/orphan/subagents", name: "agent-agent9.jsonl", base64: subAgent("agent9") },
  ]);
  await page.evaluate(async () => {
    const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle("claude-projects");
    await (window as unknown as { __contextscopeLive: { openLibraryFolder(h: FileSystemDirectoryHandle): Promise<void> } }).__contextscopeLive.openLibraryFolder(folder);
  });
  await expect.poll(async () => { const view = await libraryView(page); return view.toRead > 0 && view.read === view.toRead; }, { timeout: 60_000 }).toBe(true);
  const rows = page.getByTestId("library-row");
  await expect(rows).toHaveCount(2);
  const sessionRow = rows.filter({ hasText: `${SESSION_ID}.jsonl` });
  await expect(sessionRow).toHaveCount(1);
  await expect(rows.filter({ hasText: "agent-agent2.jsonl" })).toHaveCount(0);
  await expect(rows.filter({ hasText: "orphan/subagents/agent-agent9.jsonl" })).toHaveCount(1);
  // The Sub-agents column counts the thread in the subagents/ folder.
  const subAgentsColumn = (await page.getByRole("columnheader").allTextContents()).findIndex((text) => text.startsWith("Sub-agents")) + 1;
  expect(subAgentsColumn).toBeGreaterThan(0);
  await expect(sessionRow.locator(`td:nth-child(${subAgentsColumn})`)).toHaveText("1");
  await expect(sessionRow).toHaveAttribute("title", /with its 1 sub-agent file/);

  // Opened: the session with its sub-agent thread joined, followed.
  await sessionRow.click();
  await waitForSession(page, `${SESSION_ID}.jsonl`);
  await expect(page.getByTestId("live-bar")).toContainText(`Following ${SESSION_ID}.jsonl with its 1 sub-agent file as they grow`);
  await expect(page.getByTestId("thread-main")).toContainText("1 sub-agent thread");
  await expect(page.getByTestId("thread-item")).toContainText("Check tests");
  await expect(page.getByTestId("thread-item")).toContainText("1 turn");
  // The sub-agent writes on: its thread grows.
  await page.evaluate(async (text) => {
    const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle("claude-projects");
    const sub = await (await (await (await folder.getDirectoryHandle("-home-dev-p")).getDirectoryHandle(text.session)).getDirectoryHandle("subagents")).getFileHandle("agent-agent2.jsonl");
    const size = (await sub.getFile()).size;
    const writable = await sub.createWritable({ keepExistingData: true });
    await writable.seek(size);
    await writable.write(text.lines);
    await writable.close();
  }, { session: SESSION_ID, lines: `${toText([user("f3", "f2", "and the lint?", sidechain("agent2")), assistant("f4", "f3", "msg_f2", [{ type: "text", text: "lint passes" }], undefined, sidechain("agent2"))])}\n` });
  await expect(page.getByTestId("thread-item")).toContainText("2 turns", { timeout: 15_000 });
});

test("a sessions folder: a Codex rollout's child rollouts belong to its row and open with it as its threads", async ({ page }) => {
  const dir = "codex/spawn-agents/sessions/2026/03/01";
  const names = [
    "rollout-2026-03-01T10-00-00-0199a000-0000-7000-8000-00000000a001.jsonl",
    "rollout-2026-03-01T10-00-03-0199a000-0000-7000-8000-00000000c001.jsonl",
    "rollout-2026-03-01T10-00-03-0199a000-0000-7000-8000-00000000c002.jsonl",
    "rollout-2026-03-01T10-00-05-0199a000-0000-7000-8000-00000000d001.jsonl",
  ];
  await openEmptyApp(page);
  await writeFolder(page, "codex-sessions", names.map((name) => ({ dir: "2026/03/01", name, base64: fixtureBase64(`${dir}/${name}`) })));
  await page.evaluate(async () => {
    const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle("codex-sessions");
    await (window as unknown as { __contextscopeLive: { openLibraryFolder(h: FileSystemDirectoryHandle): Promise<void> } }).__contextscopeLive.openLibraryFolder(folder);
  });
  // The children are read, found to be the parent's sub-agents, and the parent read again with them.
  const rows = page.getByTestId("library-row");
  await expect(rows).toHaveCount(1, { timeout: 60_000 });
  await expect(rows.first()).toContainText("a001.jsonl");
  await expect(page.locator('[data-testid="library-row"][data-status="done"]')).toHaveCount(1, { timeout: 60_000 });
  const subAgentsColumn = (await page.getByRole("columnheader").allTextContents()).findIndex((text) => text.startsWith("Sub-agents")) + 1;
  await expect(rows.first().locator(`td:nth-child(${subAgentsColumn})`)).toHaveText("3");
  await expect(rows.first()).toHaveAttribute("title", /with its 3 sub-agent files/);
  await expect(page.getByTestId("library-status")).not.toContainText("left out");
  await rows.first().click();
  await waitForSession(page, names[0]);
  await expect(page.getByTestId("thread-main")).toContainText("3 sub-agent threads");
  await expect(page.getByTestId("live-bar")).toContainText(`Following ${names[0]} with its 3 sub-agent files as they grow`);
});

test("a Gemini CLI folder: projects.json and logs.json are no rows but read with the chats near them, whose project they name", async ({ page }) => {
  const CASE = "gemini-cli/p-resume-autocompress/session";
  const chat = "session-2026-12-03T09-09-04c32c61.jsonl";
  const encode = (text: string) => Buffer.from(text).toString("base64");
  const logs = JSON.stringify([{ sessionId: "04c32c61-7e8e-478b-830c-627e8c677e94", messageId: 0, type: "user", message: "/compress", timestamp: "2026-12-03T09:12:00.000Z" }]);
  await openEmptyApp(page);
  await writeFolder(page, "gemini-home", [
    { dir: "", name: "projects.json", base64: encode(readFileSync(sharedFixturePath(CASE, "projects.json"), "utf8")) },
    { dir: "tmp/lighthouse-notes", name: "logs.json", base64: encode(logs) },
    { dir: "tmp/lighthouse-notes/chats", name: chat, base64: encode(readFileSync(sharedFixturePath(CASE, `tmp/lighthouse-notes/chats/${chat}`), "utf8")) },
  ]);
  await page.evaluate(async () => {
    const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle("gemini-home");
    await (window as unknown as { __contextscopeLive: { openLibraryFolder(h: FileSystemDirectoryHandle): Promise<void> } }).__contextscopeLive.openLibraryFolder(folder);
  });
  const rows = page.getByTestId("library-row");
  await expect(page.getByTestId("library-status")).toContainText("2 side files read with their sessions", { timeout: 60_000 });
  await expect(rows).toHaveCount(1);
  // The chat, read again with the side files: its project folder comes from projects.json.
  await expect(rows.first()).toContainText("/home/dev/gemini-cli-p-resume-autocompress/lighthouse-notes", { timeout: 60_000 });
  await expect(page.getByTestId("library-status")).not.toContainText("left out");
  await rows.first().click();
  await waitForSession(page, chat);
  await expect(page.getByTestId("companion-files")).toHaveText("+ 2 files");
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
});

/** Hands the folder `name` of the origin private file system to the app as a drop with its handle would; true when it did not fall back to the snapshot. */
const dropFolderWithHandle = (page: Page, name: string) =>
  page.evaluate(async (folderName) => {
    const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle(folderName);
    return (window as unknown as { __contextscopeLive: { openDroppedFolder(h: FileSystemDirectoryHandle): Promise<boolean> } }).__contextscopeLive.openDroppedFolder(folder);
  }, name);

test("a folder dropped with its handle: several sessions open as the library, remembered for the next visit", async ({ page }) => {
  const session = fixtureBase64(PI_OPENAI_SESSION);
  await openEmptyApp(page);
  await writeFolder(page, "dropped-sessions", [
    { dir: "project-a", name: "first.jsonl", base64: session },
    { dir: "project-b", name: "second.jsonl", base64: session },
    { dir: "", name: "notes.txt", base64: Buffer.from("not a session").toString("base64") },
  ]);
  expect(await dropFolderWithHandle(page, "dropped-sessions")).toBe(true);
  await expect(page.getByTestId("library-row")).toHaveCount(2, { timeout: 60_000 });
  await expect(page.getByText("Sessions in dropped-sessions")).toBeVisible();
  await expect(page.getByTestId("live-bar")).toHaveCount(0);
  // A folder of one session dropped while the table is open: the session takes its place, followed.
  await writeFolder(page, "dropped-one", [{ dir: "", name: "only.jsonl", base64: session }]);
  expect(await dropFolderWithHandle(page, "dropped-one")).toBe(true);
  await waitForSession(page, "only.jsonl");
  await expect(page.getByTestId("live-bar")).toContainText("Following only.jsonl as it grows");
  await expect(page.getByTestId("library-row")).toHaveCount(0);
  // Remembered as a folder opened with "Sessions folder…" is.
  await page.reload();
  await expect(page.getByRole("button", { name: "Sessions in dropped-sessions" })).toBeVisible({ timeout: 15_000 });
});

test("a folder dropped with its handle: its one session opens followed with its sub-agent file, a database with its -wal", async ({ page }) => {
  const main = mainWithTask();
  const sidechain = { isSidechain: true, agentId: "agent2" };
  const subAgent = encode([user("f1", null, "check tests", sidechain), assistant("f2", "f1", "msg_f1", [{ type: "text", text: "tests pass" }], undefined, sidechain)]);
  await openEmptyApp(page);
  await writeFolder(page, "dropped-session", [
    { dir: "", name: `${SESSION_ID}.jsonl`, base64: main },
    { dir: `${SESSION_ID}/subagents`, name: "agent-agent2.jsonl", base64: subAgent },
  ]);
  expect(await dropFolderWithHandle(page, "dropped-session")).toBe(true);
  await waitForSession(page, `${SESSION_ID}.jsonl`);
  await expect(page.getByTestId("live-bar")).toContainText(`Following ${SESSION_ID}.jsonl with its 1 sub-agent file as they grow`);
  await expect(page.getByTestId("thread-item")).toContainText("Check tests");
  await expect(page.getByTestId("library-row")).toHaveCount(0);

  // A database folder: the database followed with its -wal (its -shm is not needed).
  await writeFolder(page, "dropped-database", [
    { dir: "", name: "opencode.db", base64: fixtureBase64("opencode/wal-synthetic/opencode.db") },
    { dir: "", name: "opencode.db-wal", base64: fixtureBase64("opencode/wal-synthetic/opencode.db-wal") },
    { dir: "", name: "opencode.db-shm", base64: "" },
  ]);
  expect(await dropFolderWithHandle(page, "dropped-database")).toBe(true);
  await waitForSession(page, "opencode.db");
  await expect(page.getByTestId("live-bar")).toContainText("Following opencode.db with its -wal file");
  await expect(page.getByTestId("live-wal-late")).toHaveCount(0);

  // A folder of captured requests is what only the snapshot opens: left to the drop's usual path.
  await writeFolder(page, "dropped-captures", [{ dir: "", name: "001.json", base64: Buffer.from(JSON.stringify({ model: "m", messages: [] })).toString("base64") }]);
  expect(await dropFolderWithHandle(page, "dropped-captures")).toBe(false);
});


test("a followed file: a search typed before new turns arrive keeps its query and finds them too", async ({ page }) => {
  const lines = fixture(PI_OPENAI_SESSION).split("\n").filter((line) => line !== "").map((line) => `${line}\n`);
  await openEmptyApp(page);
  await openFollowedFile(page, "live-search.jsonl", lines.slice(0, 22).join(""));
  const before = (await appView(page)).turnCount;
  await page.keyboard.press("/");
  const input = page.getByTestId("search-input");
  await input.fill("store module");
  await expect(page.getByTestId("search-status")).toHaveAttribute("data-done", "true", { timeout: 15_000 });
  // The later prompts ("Print the FAQ and the store module…") are not written yet.
  await expect(page.getByTestId("search-hit")).toHaveCount(0);

  await writeFile(page, "live-search.jsonl", lines.slice(22).join(""), "append");
  await page.waitForFunction((count) => (window as unknown as { __contextscope: { turnCount: number } }).__contextscope.turnCount > count, before, { timeout: 15_000 });
  await expect(input).toHaveValue("store module");
  await expect(page.getByTestId("search-hit").first()).toBeVisible({ timeout: 15_000 });
  const turns = (await page.getByTestId("search-hit").evaluateAll((hits) => hits.map((hit) => Number(hit.getAttribute("data-turn")))));
  expect(Math.min(...turns)).toBeGreaterThan(before);
});
