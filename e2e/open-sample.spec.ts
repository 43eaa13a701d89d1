// Journey: a first visit opens the English sample on its own; the timeline lists its turns;
// selecting a turn (mouse, then j/k/arrows/Home/End) shows that turn's request in the editor;
// the Samples menu opens the Korean sample; the Messages tab lists the context messages.
import {
  appView,
  editorText,
  expect,
  expectEditorToShow,
  scrollEditorToEnd,
  test,
  turnRow,
  waitForRequestTurn,
  waitForSession,
} from "./support";

const ENGLISH = "pi-english-compaction.jsonl";
const KOREAN = "pi-korean.jsonl";

test("a first visit opens a sample, lists its turns and shows the selected turn's request", async ({ page }) => {
  await page.goto("./");
  // No click, no file: the app opens the first sample by itself.
  await waitForSession(page, ENGLISH);
  const view = await appView(page);
  expect(view.turnCount).toBeGreaterThan(20);
  await expect(page.getByTestId("file-name")).toHaveText(ENGLISH);
  await expect(page.getByTestId("format-label")).toContainText(/pi/i);

  // The timeline lists the turns, the first one selected, with its request on screen.
  const rows = page.getByTestId("timeline-row");
  await expect(rows.first()).toHaveAttribute("data-turn", "1");
  expect(await rows.count()).toBeGreaterThan(10);
  await expect(turnRow(page, 1)).toHaveAttribute("aria-selected", "true");
  await waitForRequestTurn(page, 1);
  await expectEditorToShow(page, ['"model": "claude-sonnet-4-5"', "I'm picking this project back up after a few weeks away."]);

  // Click turn 4: its request ends with the user's fourth-turn question.
  await turnRow(page, 4).click();
  await waitForRequestTurn(page, 4);
  await expect(turnRow(page, 4)).toHaveAttribute("aria-selected", "true");
  await expect(turnRow(page, 1)).toHaveAttribute("aria-selected", "false");
  await expect(page.locator(".request-view .view-toolbar")).toContainText("Turn 4");
  await expectEditorToShow(page, ['"model": "claude-sonnet-4-5"']);
  await scrollEditorToEnd(page);
  await expectEditorToShow(page, ["Run the test suite and tell me what's failing."]);
  // Turn 4's request ends before the assistant's answer to that question (turn 5's input).
  expect(await editorText(page)).not.toContain("One failure, the one I suspected");

  // Keyboard: focus the timeline (outside the editor) and step.
  await page.getByTestId("timeline").focus();
  await page.keyboard.press("j");
  await waitForRequestTurn(page, 5);
  await expect(turnRow(page, 5)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowDown");
  await waitForRequestTurn(page, 6);
  await page.keyboard.press("k");
  await waitForRequestTurn(page, 5);
  await page.keyboard.press("ArrowUp");
  await waitForRequestTurn(page, 4);
  // A new turn resets the editor to the top: turn 4's request starts with the model key again.
  await expectEditorToShow(page, ['"model": "claude-sonnet-4-5"', "I'm picking this project back up"]);

  // End jumps to the last turn (after the compaction), Home back to the first.
  await page.keyboard.press("End");
  const last = view.turnCount;
  await waitForRequestTurn(page, last);
  await expect(turnRow(page, last)).toHaveAttribute("aria-selected", "true");
  await expect(page.locator(".request-view .view-toolbar")).toContainText(`Turn ${last}`);
  await scrollEditorToEnd(page);
  await expectEditorToShow(page, ["Give me a short PR description for all of this."]);
  await page.getByTestId("timeline").focus();
  await page.keyboard.press("Home");
  await waitForRequestTurn(page, 1);
  await expect(turnRow(page, 1)).toHaveAttribute("aria-selected", "true");
  await expectEditorToShow(page, ["I'm picking this project back up"]);
});

test("the Samples menu opens the Korean sample and its Korean text is shown", async ({ page }) => {
  await page.goto("./");
  await waitForSession(page, ENGLISH);

  await page.getByTestId("samples-button").click();
  await page.getByTestId("sample-item-pi-korean").click();
  await waitForSession(page, KOREAN);
  await expect(page.getByTestId("file-name")).toHaveText(KOREAN);
  await waitForRequestTurn(page, 1);
  await expectEditorToShow(page, ['"model": "gpt-4.1"', "이 저장소 구조를 살펴보고 주요 모듈이 각각 무슨 일을 하는지 설명해 줘."]);

  // Turn 4's request ends with the user's second (Korean) request.
  await turnRow(page, 4).click();
  await waitForRequestTurn(page, 4);
  await scrollEditorToEnd(page);
  await expectEditorToShow(page, ["테스트를 돌려서 실패하는 게 있는지 확인해 줘."]);
});

test("the Messages tab lists the turn's context messages with role, kind, characters and tokens", async ({ page }) => {
  await page.goto("./");
  await waitForSession(page, ENGLISH);
  await turnRow(page, 4).click();
  await waitForRequestTurn(page, 4);

  await page.getByTestId("tab-messages").click();
  const table = page.getByTestId("messages-table");
  await expect(table).toBeVisible();
  await expect(table.locator("thead th")).toHaveText(["#", "role", "kind", "source entry", "chars", "~tokens", "preview"]);

  // Turn 4's context: user, assistant (tool call), tool result, assistant, 3 tool results,
  // assistant, user — every message from the file, none synthesised.
  const rows = table.locator("tbody tr[data-role]");
  await expect(rows.first()).toBeVisible();
  const cells = await rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll("td"), (td) => td.textContent ?? "")));
  expect(cells.length).toBeGreaterThanOrEqual(5);
  cells.forEach(([index, role, kind, , chars, tokens], position) => {
    expect(Number(index)).toBe(position);
    expect(["user", "assistant", "toolResult", "tool", "system"]).toContain(role);
    expect(kind).toBe("from the file");
    const charCount = Number(chars?.replace(/\D/g, ""));
    expect(charCount).toBeGreaterThan(0);
    // pi's estimate: ceil(chars / 4) per message (PI-K2).
    expect(Number(tokens?.replace(/\D/g, ""))).toBe(Math.ceil(charCount / 4));
  });
  expect(cells[0]?.[1]).toBe("user");
  expect(cells[0]?.[6]).toContain("I'm picking this project back up");
  expect(cells.at(-1)?.[1]).toBe("user");
  expect(cells.at(-1)?.[6]).toContain("Run the test suite");

  // The table follows the selection.
  await page.getByTestId("timeline").focus();
  await page.keyboard.press("j");
  await waitForRequestTurn(page, 5);
  await expect(page.locator(".messages-view .view-toolbar")).toContainText("Turn 5");
  // Turn 5 adds turn 4's tool call and its result.
  await expect(rows).toHaveCount(cells.length + 2);
});
