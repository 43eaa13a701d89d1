// Journey (issue 8 item 3): the Details panel shows the model facts with their source; editing
// the model's max output tokens writes a user override (saved in localStorage) and the rebuilt
// request's output cap follows; reset returns to the catalogue.
import {
  baseName,
  dropFiles,
  expect,
  expectEditorToShow,
  fixtureText,
  openEmptyApp,
  PI_OPENAI_SESSION,
  test,
  waitForRequestTurn,
  waitForSession,
} from "./support";

const SESSION_NAME = baseName(PI_OPENAI_SESSION);

test("editing the model's max output tokens changes the request's max tokens field", async ({ page }) => {
  await openEmptyApp(page);
  await page.evaluate(() => localStorage.removeItem("contextscope.modelOverrides"));
  await dropFiles(page, [{ name: SESSION_NAME, text: fixtureText(PI_OPENAI_SESSION) }]);
  await waitForSession(page, SESSION_NAME);
  await waitForRequestTurn(page, 1);

  // "fake-model" is not in the catalogue: its facts are the catalogue defaults.
  const maxFact = page.getByTestId("model-fact-maxTokens");
  await expect(maxFact).toContainText("16,384");
  await expect(page.getByTestId("model-facts-source")).toHaveText("default: model not in our list");
  await expect(maxFact).toHaveAttribute("data-source", "default: model not in our list");
  await expectEditorToShow(page, ['"max_completion_tokens": 16384']);

  await page.getByTestId("model-edit").click();
  await page.getByTestId("model-edit-max-tokens").fill("12345");
  await page.getByTestId("model-edit-save").click();

  await expect(maxFact).toContainText("12,345");
  await expect(maxFact).toContainText("your edit");
  await expect(page.getByTestId("model-fact-contextWindow")).toHaveAttribute("data-source", "default: model not in our list");
  await expectEditorToShow(page, ['"max_completion_tokens": 12345']);
  const saved = await page.evaluate(() => localStorage.getItem("contextscope.modelOverrides"));
  expect(JSON.parse(saved ?? "{}")).toEqual({ "fake/fake-model": { maxTokens: 12345 } });

  await page.getByTestId("model-edit-reset").click();
  await expect(maxFact).toContainText("16,384");
  await expectEditorToShow(page, ['"max_completion_tokens": 16384']);
  expect(await page.evaluate(() => localStorage.getItem("contextscope.modelOverrides"))).toBeNull();
});

test("a model our list lacks takes its context window from the price dataset, and says so", async ({ page }) => {
  const claude = "claude/print-autocompact-manualcompact/session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl";
  await openEmptyApp(page);
  await dropFiles(page, [{ name: baseName(claude), text: fixtureText(claude) }]);
  await waitForSession(page, baseName(claude));
  // claude-opus-5-5 is not in our list; @pydantic/genai-prices records a 1,000,000-token window for it.
  const windowFact = page.getByTestId("model-fact-contextWindow");
  await expect(windowFact).toContainText("1,000,000");
  await expect(page.getByTestId("model-facts-source")).toHaveText("context window from the price dataset; the rest defaults");
  await expect(page.getByTestId("model-fact-maxTokens")).toContainText("16,384");
  for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 700 }]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `/tmp/model-window-dataset-${size.width}.png` });
  }
});
