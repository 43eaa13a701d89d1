// Journey: drop the recorded pi session (print-openai-autocompact) on the page → its 15 turns and
// 2 compactions are listed, the header describes the file, turn 5 shows its request; then drop a
// captured request body of the same run → it becomes the request header and the recorded system
// prompt appears in the rebuilt request.
import {
  appView,
  baseName,
  dropFiles,
  editorText,
  expect,
  expectEditorToShow,
  fixtureText,
  openEmptyApp,
  PI_OPENAI_REQUEST_001,
  PI_OPENAI_SESSION,
  scrollEditorToEnd,
  test,
  turnRow,
  waitForRequestTurn,
  waitForSession,
} from "./support";

const SESSION_NAME = baseName(PI_OPENAI_SESSION);
const sessionText = fixtureText(PI_OPENAI_SESSION);
const sessionLines = sessionText.split("\n").filter((line) => line.trim() !== "");

test("a dropped pi session lists its turns and shows the selected turn's request", async ({ page }) => {
  await openEmptyApp(page);
  // Dragging files over the page shows the drop overlay; leaving hides it again.
  const drag = (type: "dragenter" | "dragleave") =>
    page.evaluate((eventType) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(["{}"], "any.jsonl"));
      document.body.dispatchEvent(new DragEvent(eventType, { bubbles: true, cancelable: true, dataTransfer: transfer }));
    }, type);
  await drag("dragenter");
  await expect(page.getByTestId("drop-overlay")).toBeVisible();
  await drag("dragleave");
  await expect(page.getByTestId("drop-overlay")).toHaveCount(0);

  await dropFiles(page, [{ name: SESSION_NAME, text: sessionText }]);
  await waitForSession(page, SESSION_NAME);
  await expect(page.getByTestId("drop-overlay")).toHaveCount(0);

  // Header: file name, format, entry count (every line but the session header), no warnings.
  await expect(page.getByTestId("file-name")).toHaveText(SESSION_NAME);
  await expect(page.getByTestId("format-label")).toContainText(/pi/i);
  await expect(page.getByTestId("entry-count")).toHaveText(String(sessionLines.length - 1));
  await expect(page.getByTestId("warnings-button")).toContainText("0 warnings");

  // Timeline: 15 main requests and the 2 recorded compactions, in file order.
  expect((await appView(page)).turnCount).toBe(15);
  const rows = page.getByTestId("timeline-row");
  await expect(rows).toHaveCount(17);
  await expect(page.locator('[data-testid="timeline-row"][data-kind="turn"]')).toHaveCount(15);
  const compactions = page.locator('[data-testid="timeline-row"][data-kind="compaction"]');
  await expect(compactions).toHaveCount(2);
  const beforeTurns = await compactions.evaluateAll((els) => els.map((el) => Number(el.getAttribute("data-before-turn"))));
  expect(beforeTurns).toEqual([9, 13]);
  const order = await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-turn") ?? `c${el.getAttribute("data-before-turn")}`));
  expect(order).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "c9", "9", "10", "11", "12", "c13", "13", "14", "15"]);

  // Turn 5: the request pi sent after the user asked for the architecture document.
  await turnRow(page, 5).click();
  await waitForRequestTurn(page, 5);
  await expect(turnRow(page, 5)).toHaveAttribute("aria-selected", "true");
  await expectEditorToShow(page, ['"model": "fake-model"', '"role": "system"', "이 디렉터리의 파일을 확인하고 README를 요약해줘"]);
  // Without a captured request the system prompt is marked, never invented.
  expect(await editorText(page)).toContain('"$notRecorded": "system prompt"');
  await scrollEditorToEnd(page);
  await expectEditorToShow(page, ["Show me the architecture document and explain the main components."]);
  expect(await editorText(page)).not.toContain("The architecture document describes three guiding principles");
});

test("a dropped captured request becomes the request header and fills the system prompt", async ({ page }) => {
  await openEmptyApp(page);
  await dropFiles(page, [{ name: SESSION_NAME, text: sessionText }]);
  await waitForSession(page, SESSION_NAME);
  await waitForRequestTurn(page, 1);
  await expect(page.getByTestId("header-state")).toHaveText("system & tools: not in the file");

  const captured = fixtureText(PI_OPENAI_REQUEST_001);
  const systemPrompt = (JSON.parse(captured) as { messages: { role: string; content: string }[] }).messages[0]?.content ?? "";
  expect(systemPrompt).toContain("You are an expert coding assistant");
  await dropFiles(page, [{ name: "001.json", text: captured, type: "application/json" }]);

  await expect(page.getByTestId("header-state")).toHaveText("system & tools: from 001.json");
  await expect(page.getByTestId("header-state")).toHaveClass(/attached/);
  // The session stays open; the request is rebuilt with the captured system prompt.
  await expect(page.getByTestId("file-name")).toHaveText(SESSION_NAME);
  await expectEditorToShow(page, ['"role": "system"', "You are an expert coding assistant operating inside pi"]);
  expect(await editorText(page)).not.toContain('"$notRecorded": "system prompt"');

  // Another turn gets the same header.
  await turnRow(page, 5).click();
  await waitForRequestTurn(page, 5);
  await expectEditorToShow(page, ["You are an expert coding assistant operating inside pi"]);
});
