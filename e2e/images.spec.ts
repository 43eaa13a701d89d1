// Journey: a Claude Code transcript with a pasted image and an image returned by a tool. The
// request view folds both image blocks' base64 `source` objects (the data is never laid out as
// text in the page) while the request text keeps them as sent; the Messages tab labels each image
// with its media type and size.
import { appView, dropFiles, expect, openEmptyApp, test, waitForRequestTurn, waitForSession } from "./support";

const SESSION_ID = "1a6e0000-0000-4000-8000-000000000002";
const base = { sessionId: SESSION_ID, version: "2.1.30", cwd: "/p", userType: "external", isSidechain: false, timestamp: "2026-01-01T00:00:00.000Z" };
// 30,000 characters of base64: far more than one editor line shows.
const DATA = "QUJD".repeat(7500);
const image = { type: "image", source: { type: "base64", media_type: "image/png", data: DATA } };
const TEXT = [
  { type: "user", uuid: "u1", parentUuid: null, message: { role: "user", content: [{ type: "text", text: "what is on this screenshot?" }, image] } },
  {
    type: "assistant",
    uuid: "a1",
    parentUuid: "u1",
    requestId: "req_1",
    message: { id: "msg_1", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "b.png" } }] },
  },
  { type: "user", uuid: "r1", parentUuid: "a1", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: [image] }] } },
  { type: "assistant", uuid: "a2", parentUuid: "r1", requestId: "req_2", message: { id: "msg_2", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "two images" }] } },
]
  .map((line) => JSON.stringify({ ...base, ...line }))
  .join("\n");

test("images in a Claude Code request are image blocks with their base64 folded, labelled with their size", async ({ page }) => {
  // Tall enough that both image blocks are laid out in the editor at once (only lines in view exist).
  await page.setViewportSize({ width: 1440, height: 1200 });
  await openEmptyApp(page);
  await dropFiles(page, [{ name: `${SESSION_ID}.jsonl`, text: TEXT }]);
  await waitForSession(page, `${SESSION_ID}.jsonl`);
  await page.locator('[data-testid="timeline-row"][data-kind="turn"][data-turn="2"]').click();
  await waitForRequestTurn(page, 2);
  const editor = page.getByTestId("request-editor");
  expect((await appView(page)).requestText).toContain('"media_type": "image/png"');
  // Checked once both folds are in place: before them the editor lays out the unfolded lines.
  await expect(editor.locator(".codicon-folding-collapsed")).toHaveCount(2);
  const rendered = await editor.evaluate((element) => element.textContent ?? "");
  // The editor lays out spaces as no-break spaces.
  expect(rendered.replace(/\u00a0/g, " ")).toContain('"source": {');
  expect(rendered).not.toContain(DATA.slice(0, 200));

  await page.getByRole("tab", { name: "Messages" }).click();
  await expect(page.getByText("[image image/png, 22.0 KB]").first()).toBeVisible();
});
