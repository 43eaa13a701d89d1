// Journey: a file that says what it did not read. A small Claude Code transcript with two record
// types no version we know writes is dropped: it opens with its turn, and the session overview
// says in plain words how many lines of how many types this version does not read, naming them;
// the tooltip lists every type with its count. A transcript whose types are all known shows the
// version it was written by instead, and its skipped bookkeeping lines are never warnings. A
// transcript resumed under a version newer than the newest verified says so in plain words.
import { baseName, dropFiles, expect, fixtureText, openEmptyApp, test, waitForSession } from "./support";

const UNKNOWN = "claude/structures/unknown-types.jsonl";
const KNOWN = "claude/structures/metadata-lines.jsonl";
const NEWER = "claude/structures/newer-version.jsonl";

test("the session overview names the record types this version does not read", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openEmptyApp(page);
  await dropFiles(page, [{ name: baseName(UNKNOWN), text: fixtureText(UNKNOWN) }]);
  await waitForSession(page, baseName(UNKNOWN));
  const note = page.getByTestId("overview-records");
  await expect(note).toHaveText(
    "3 lines of 2 types this version of Contextscope does not read: future-record (2, first on line 2), another-new-record (1, first on line 5) (written by Claude Code 2.1.143)",
  );
  await expect(note).toHaveClass(/attention/);
  const title = await note.getAttribute("title");
  expect(title).toContain("future-record: 2 not read (first on line 2)");
  expect(title).toContain("user: 1 read");
  await expect(page.getByTestId("overview-turns")).toContainText("1");
  await expect(page.getByTestId("warnings-button")).toContainText("0 warnings");
  await page.screenshot({ path: "/tmp/calls-unread-records-1440.png" });
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.screenshot({ path: "/tmp/calls-unread-records-1024.png" });

  await dropFiles(page, [{ name: baseName(KNOWN), text: fixtureText(KNOWN) }]);
  await waitForSession(page, baseName(KNOWN));
  await expect(note).toHaveText("written by Claude Code 2.1.143");
  await expect(note).not.toHaveClass(/attention/);
  expect(await note.getAttribute("title")).toContain("bridge-session: 1 skipped on purpose");
  await expect(page.getByTestId("overview-turns")).toContainText("2");
  await expect(page.getByTestId("warnings-button")).toContainText("0 warnings");
});

test("the session overview says when the file's agent version is newer than the newest verified", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openEmptyApp(page);
  await dropFiles(page, [{ name: baseName(NEWER), text: fixtureText(NEWER) }]);
  await waitForSession(page, baseName(NEWER));
  const note = page.getByTestId("overview-records");
  await expect(note).toHaveText("Claude Code 2.1.400 is newer than the newest version verified, 2.1.332");
  await expect(note).toHaveClass(/attention/);
  expect(await note.getAttribute("title")).toContain("written by Claude Code 2.1.332, 2.1.400");
  await expect(page.getByTestId("overview-turns")).toContainText("1");
  await page.screenshot({ path: "/tmp/acct-newer-version-1440.png" });
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.screenshot({ path: "/tmp/acct-newer-version-1024.png" });
});
