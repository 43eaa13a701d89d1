// Journey: a session whose large texts the worker keeps as bytes (every text of 1 KiB or more of a
// pi file) looks exactly as it did when every text was a string: the request JSON holds the texts
// themselves, the Conversation tab shows them, search finds words inside them, and nothing on the
// page reads "[object Object]" or shows a stored text's inner fields.
import { readFileSync } from "node:fs";
import path from "node:path";
import { appView, dropFiles, expect, openEmptyApp, sharedFixturePath, test, turnRow, waitForRequestTurn, waitForSession } from "./support";

const FILE = sharedFixturePath("realworld", "pi", "pi-mono-large-session-v1.jsonl");

/** The first tool result of the file with a text of more than `minChars` characters, and a line of it. */
function largeToolResult(minChars: number): { text: string; line: string } {
  for (const line of readFileSync(FILE, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const entry = JSON.parse(line) as { message?: { role?: string; content?: { type: string; text?: string }[] } };
    if (entry.message?.role !== "toolResult") continue;
    const text = entry.message.content?.find((block) => block.type === "text" && (block.text?.length ?? 0) > minChars)?.text;
    if (!text) continue;
    const distinctive = text.split("\n").find((row) => row.trim().length > 40 && !row.includes("\t"));
    if (distinctive) return { text, line: distinctive.trim() };
  }
  throw new Error("no large tool result in the file");
}

test("a pi session whose large texts are kept as bytes shows them in the request, the conversation and search", async ({ page }) => {
  const { text, line } = largeToolResult(4096);
  await openEmptyApp(page);
  await dropFiles(page, [{ name: path.basename(FILE), text: readFileSync(FILE, "utf8") }]);
  await waitForSession(page, path.basename(FILE));

  // The request JSON of turn 3 holds the tool result's whole text, as JSON writes it.
  await turnRow(page, 3).click();
  await waitForRequestTurn(page, 3);
  const requestText = (await appView(page)).requestText ?? "";
  expect(requestText.includes(JSON.stringify(text).slice(1, -1)), "the request JSON holds the tool result's text").toBe(true);
  expect(requestText).not.toContain("stored-text");
  expect(() => JSON.parse(requestText) as unknown).not.toThrow();

  // The Conversation tab shows the text as text.
  await page.getByTestId("tab-conversation").click();
  const conversation = page.getByTestId("conversation-view");
  await expect(conversation).toBeVisible();
  await expect(conversation).not.toContainText("[object Object]");
  await expect(conversation).not.toContainText("stored-text");

  // Search finds a line that only the stored text holds.
  await page.keyboard.press("/");
  const input = page.getByTestId("search-input");
  await input.fill(line);
  await expect(page.getByTestId("search-status")).toHaveAttribute("data-done", "true");
  await expect(page.getByTestId("search-hit").first()).toBeVisible();
  await expect(page.getByTestId("search-hit").first()).toContainText("tool-result");
  await input.press("Escape");

  await expect(page.locator("body")).not.toContainText("[object Object]");
});
