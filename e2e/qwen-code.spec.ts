// Journey of a Qwen Code chat: the recording opens as Qwen Code (never as Claude Code, whose uuid
// chain its records share), with its 15 calls and the automatic compression's row before turn 9;
// the turn after it sends the compressed history, and the parts Qwen Code adds on send are marked
// "not recorded" without a capture; the compression's own request is a row of its own.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { appView, dropFiles, expect, expectEditorToShow, openEmptyApp, sharedFixturePath, test, turnRow, waitForRequestTurn, waitForSession } from "./support";

const CASE = "qwen-code/p-continue-autocompress";

function chatFile(): string {
  const chats = sharedFixturePath(CASE, "session/projects/-home-dev-qwen-code-p-continue-autocompress-lighthouse-notes/chats");
  return path.join(chats, readdirSync(chats).find((name) => name.endsWith(".jsonl"))!);
}

test("a Qwen Code chat: its calls, the compression row, the compressed history sent after it", async ({ page }) => {
  test.setTimeout(120_000);
  const file = chatFile();
  await openEmptyApp(page);
  await dropFiles(page, [{ name: path.basename(file), text: readFileSync(file, "utf8") }]);
  await waitForSession(page);
  const view = await appView(page);
  expect(view.turnCount).toBe(15);
  await expect(page.getByTestId("format-label")).toHaveText(/Qwen Code/);
  await expect(page.getByTestId("warnings-button")).toContainText("0 warnings");

  // The automatic compression, before the ninth call.
  const compaction = page.locator('[data-testid="timeline-row"][data-kind="compaction"]');
  await expect(compaction).toHaveCount(1);
  await expect(compaction).toHaveAttribute("data-before-turn", "9");

  // The compression's own request, rebuilt from the file: the history it replaced, then Qwen Code's
  // compression prompt, which no capture supplied here.
  const compression = page.locator('[data-testid="timeline-row"][data-kind="auxiliary"][data-purpose="summary"]');
  await expect(compression).toHaveCount(1);
  await expect(compression).toContainText("Compression request");
  await compression.click();
  // The auxiliary call waits for the tokenizer tables to load (slow on a busy machine).
  await expect(page.getByTestId("auxiliary-kind")).toHaveText("summariser request", { timeout: 60_000 });
  await expectEditorToShow(page, ["startup reminders", "이 디렉터리의 파일을 확인하고 README를 요약해줘"]);
  if (process.env.CONTEXTSCOPE_SHOTS_DIR) await page.screenshot({ path: `${process.env.CONTEXTSCOPE_SHOTS_DIR}/qwen-compression-request.png` });

  // Turn 9 sends the <state_snapshot> first, without the system prompt the file does not hold.
  await turnRow(page, 9).click();
  await waitForRequestTurn(page, 9);
  await page.waitForFunction(() => (window as unknown as { __contextscope?: { requestText: string | null } }).__contextscope?.requestText?.includes("<state_snapshot>") === true);
  await expect(page.getByTestId("turn-tokens")).toContainText("rebuilt request");

  const shots = process.env.CONTEXTSCOPE_SHOTS_DIR;
  if (shots) {
    for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 700 }]) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `${shots}/qwen-${size.width}.png` });
    }
  }
  expect((await appView(page)).error).toBeNull();
});
