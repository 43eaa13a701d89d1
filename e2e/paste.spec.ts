// Journey: paste a small pi session as text → its turns are listed and the selected turn's
// request shows the pasted conversation.
import { appView, expect, expectEditorToShow, openEmptyApp, scrollEditorToEnd, test, turnRow, waitForRequestTurn, waitForSession } from "./support";

/** A small pi session (format v3): two user requests, three provider calls (one tool call). */
function smallPiSession(): string {
  let parent: string | null = null;
  let clock = Date.parse("2026-02-10T08:00:00.000Z");
  const usage = { input: 900, output: 30, cacheRead: 0, cacheWrite: 0, totalTokens: 930, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  const assistant = { api: "openai-completions", provider: "openai", model: "gpt-4.1", usage };
  const entries: object[] = [];
  const add = (id: string, fields: Record<string, unknown>) => {
    clock += 1500;
    entries.push({ id, parentId: parent, timestamp: new Date(clock).toISOString(), ...fields });
    parent = id;
  };
  const message = (id: string, body: Record<string, unknown>) => add(id, { type: "message", message: { ...body, timestamp: clock } });
  add("a1000001", { type: "model_change", provider: "openai", modelId: "gpt-4.1" });
  message("a1000002", { role: "user", content: [{ type: "text", text: "Which port does the pasted demo server listen on?" }] });
  message("a1000003", {
    role: "assistant",
    content: [{ type: "toolCall", id: "call_paste_1", name: "bash", arguments: { command: "grep -n PORT server.js" } }],
    ...assistant,
    stopReason: "toolUse",
  });
  message("a1000004", { role: "toolResult", toolCallId: "call_paste_1", toolName: "bash", content: [{ type: "text", text: "3:const PORT = 8087;" }], isError: false });
  message("a1000005", { role: "assistant", content: [{ type: "text", text: "It listens on port 8087." }], ...assistant, stopReason: "stop" });
  message("a1000006", { role: "user", content: [{ type: "text", text: "Change it to read PORT from the environment." }] });
  message("a1000007", { role: "assistant", content: [{ type: "text", text: "Done: process.env.PORT with 8087 as the fallback." }], ...assistant, stopReason: "stop" });
  const header = { type: "session", version: 3, id: "0190b000-0000-7000-8000-00000000feed", timestamp: "2026-02-10T08:00:00.000Z", cwd: "/home/dev/demo" };
  return [header, ...entries].map((entry) => JSON.stringify(entry)).join("\n") + "\n";
}

test("pasted JSONL opens like a file", async ({ page }) => {
  await openEmptyApp(page);
  await page.getByTestId("paste-button").click();
  const textarea = page.getByTestId("paste-textarea");
  await expect(textarea).toBeFocused();
  await expect(page.getByTestId("paste-submit")).toBeDisabled();
  await textarea.fill(smallPiSession());
  await page.getByTestId("paste-submit").click();
  await expect(textarea).toHaveCount(0);

  await waitForSession(page, "pasted.jsonl");
  expect(await appView(page)).toMatchObject({ turnCount: 3, fileName: "pasted.jsonl", error: null });
  await expect(page.getByTestId("file-name")).toHaveText("pasted.jsonl");
  await expect(page.getByTestId("entry-count")).toHaveText("7");
  await expect(page.getByTestId("timeline-row")).toHaveCount(3);
  const turns = await page.getByTestId("timeline-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-turn")));
  expect(turns).toEqual(["1", "2", "3"]);

  await waitForRequestTurn(page, 1);
  await expectEditorToShow(page, ['"model": "gpt-4.1"', "Which port does the pasted demo server listen on?"]);

  await turnRow(page, 3).click();
  await waitForRequestTurn(page, 3);
  await scrollEditorToEnd(page);
  await expectEditorToShow(page, ["3:const PORT = 8087;", "It listens on port 8087.", "Change it to read PORT from the environment."]);
});
