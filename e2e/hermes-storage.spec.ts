// hermes-agent's own storage in the browser: the state.db written by hermes' SessionDB (schema 6,
// ../shared/fixtures/hermes-storage) dropped with its -wal, -shm and session_<id>.json snapshots,
// plus a request dump built by the spec's rules (test/support/hermes-dump.ts). The session picker
// lists the three sessions; the compressed pair is one timeline with its compaction between turn
// 10 and turn 11; the snapshot fills the tools; the dump's turn says "equal".
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { appView, dropFiles, expect, openEmptyApp, sharedFixturePath, test, turnRow, waitForRequestTurn, waitForSession } from "./support";
import { dumpFile, specBody, type Json } from "../test/support/hermes-dump";

const SHARED = sharedFixturePath("hermes-storage");
const PLAIN = "20261201_090624_3e9952";
const CHILD = "20261201_090624_dbb368";

function base64(file: string): string {
  return readFileSync(file).toString("base64");
}

test("a hermes-agent state.db with its -wal opens: three sessions, the compressed pair as one timeline, dump check equal", async ({ page }) => {
  await openEmptyApp(page);
  const snapshots = readdirSync(path.join(SHARED, "sessions")).map((name) => ({ name, text: readFileSync(path.join(SHARED, "sessions", name), "utf8") }));
  const plain = JSON.parse(snapshots.find((s) => s.name.includes(PLAIN))!.text) as Json;
  const dump = dumpFile(plain, specBody(plain, 4));
  await dropFiles(page, [
    { name: "state.db", base64: base64(path.join(SHARED, "state.db")) },
    { name: "state.db-wal", base64: base64(path.join(SHARED, "state.db-wal")) },
    { name: "state.db-shm", base64: base64(path.join(SHARED, "state.db-shm")) },
    ...snapshots,
    { name: `request_dump_${PLAIN}_20261201_090624_490000.json`, text: JSON.stringify(dump, null, 2) },
  ]);
  await waitForSession(page, "state.db");
  await expect(page.getByTestId("format-label")).toContainText("hermes");
  await expect(page.getByTestId("wal-warning")).toHaveCount(0);

  const picker = page.getByTestId("session-select");
  await expect(picker.locator("option")).toHaveCount(3);
  await expect(picker).toHaveValue(CHILD);
  await expect(picker.locator("option", { hasText: "Echo steps #2" })).toContainText("continues \"Echo steps\" after compression");
  await expect(picker.locator("option", { hasText: "Count files in tmp" })).toContainText("7 messages");

  // Parent (10 calls) → compaction → child (2 calls), one timeline.
  expect((await appView(page)).turnCount).toBe(12);
  const compaction = page.locator('[data-testid="timeline-row"][data-kind="compaction"]');
  await expect(compaction).toHaveCount(1);
  await expect(compaction).toHaveAttribute("data-before-turn", "11");

  // The plain session: the dump of its turn 2 is equal to the rebuilt request.
  await picker.selectOption(PLAIN);
  await page.waitForFunction(() => (window as unknown as { __contextscope?: { ready: boolean; turnCount: number } }).__contextscope?.turnCount === 3);
  await turnRow(page, 2).click();
  await waitForRequestTurn(page, 2);
  await expect(page.getByTestId("dump-check")).toContainText("turn 2: equal");
  await expect(page.locator(".not-recorded-item")).not.toContainText(["tools"]);
});
