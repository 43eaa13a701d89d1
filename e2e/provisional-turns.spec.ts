// Journey: a large session shows its first turns while the file is still being read. A generated
// pi session of 40 MB (bench/generate-session.ts) is dropped; the app shows the turns read so far
// with a "reading… N %" badge and a note under the progress bar, and the user can step through
// them; when the whole file is read, its analysis replaces them (all turns, no badge) and the
// selected turn stays. Neither a search index nor the session's composition is built while the
// file is read (they would take the worker's time from the read); both are once it is ready. The page's state changes
// and DOM are recorded as they happen, so the provisional view is seen however quickly the
// machine reads.
import { generatePiSession, type GeneratedSession } from "../bench/generate-session";
import { appView, expect, openEmptyApp, test } from "./support";

let generated: GeneratedSession;

test.beforeAll(async () => {
  generated = await generatePiSession({ minBytes: 40 * 1024 * 1024, seed: 1 });
});

/** Records every change of the published state, and whether the provisional badge was on screen. */
function recordViews(): void {
  const w = window as unknown as Record<string, unknown>;
  const seen: { provisional: boolean; ready: boolean; turnCount: number; selectedTurn: number | null; badge: boolean; rows: number; indexed: number | null; composition: boolean }[] = [];
  w.__seen = seen;
  let value: unknown;
  const note = (next: { provisional: boolean; ready: boolean; turnCount: number; selectedTurn: number | null; searchIndexedMessages: number | null; compositionAsked: boolean }) =>
    seen.push({
      provisional: next.provisional,
      ready: next.ready,
      turnCount: next.turnCount,
      selectedTurn: next.selectedTurn,
      badge: document.querySelector('[data-testid="timeline-provisional"]') !== null,
      rows: document.querySelectorAll('[data-testid="timeline-row"]').length,
      indexed: next.searchIndexedMessages,
      composition: next.compositionAsked,
    });
  Object.defineProperty(window, "__contextscope", {
    configurable: true,
    get: () => value,
    set: (next: { provisional: boolean; ready: boolean; turnCount: number; selectedTurn: number | null; searchIndexedMessages: number | null; compositionAsked: boolean }) => {
      value = next;
      note(next);
    },
  });
  // The DOM follows the state a moment later: note it again once rendered.
  new MutationObserver(() => {
    if (value) note(value as { provisional: boolean; ready: boolean; turnCount: number; selectedTurn: number | null; searchIndexedMessages: number | null; compositionAsked: boolean });
  }).observe(document, { childList: true, subtree: true });
}

test("the first turns show while the file is read, then the whole file replaces them", async ({ page }) => {
  test.setTimeout(180_000);
  await page.addInitScript(recordViews);
  await openEmptyApp(page);
  await page.waitForFunction(() => (window as unknown as { __contextscope?: { pipelineStarted: boolean } }).__contextscope?.pipelineStarted === true);
  await page.getByTestId("open-file-input").setInputFiles(generated.file);
  // Turns of the part read so far, with the badge, before the session is ready.
  await page.waitForFunction(() => (window as unknown as { __contextscope: { provisional: boolean } }).__contextscope.provisional, null, { timeout: 120_000 });
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const before = await appView(page);
  if (!before.ready) {
    // Step while reading: the turn chosen now is the one shown at the end.
    await page.keyboard.press("j");
  }
  await page.waitForFunction(() => (window as unknown as { __contextscope: { ready: boolean } }).__contextscope.ready, null, { timeout: 120_000 });
  const seen = await page.evaluate(
    () => (window as unknown as { __seen: { provisional: boolean; ready: boolean; turnCount: number; selectedTurn: number | null; badge: boolean; rows: number; indexed: number | null; composition: boolean }[] }).__seen,
  );
  const provisional = seen.filter((view) => view.provisional);
  expect(provisional.length).toBeGreaterThan(0);
  // Shown on screen: rows and the badge while provisional, never claimed ready meanwhile.
  expect(provisional.some((view) => view.badge && view.rows > 0)).toBe(true);
  expect(provisional.every((view) => !view.ready)).toBe(true);
  expect(Math.min(...provisional.map((view) => view.turnCount))).toBeLessThan(generated.turns);
  // No search index of a provisional session: the worker's time goes to the read.
  expect(provisional.map((view) => view.indexed).filter((indexed) => indexed !== null)).toEqual([]);
  expect(provisional.filter((view) => view.composition)).toEqual([]);
  // Replaced by the whole file's analysis: every turn, no badge.
  const final = await appView(page);
  expect(final.turnCount).toBe(generated.turns);
  expect(final.provisional).toBe(false);
  await expect(page.getByTestId("timeline-provisional")).toHaveCount(0);
  await expect(page.getByTestId("provisional-note")).toHaveCount(0);
  // The turn selected while reading stays selected when the whole file replaces the turns.
  const lastProvisional = provisional[provisional.length - 1]!;
  expect(seen.find((view) => view.ready)?.selectedTurn).toBe(lastProvisional.selectedTurn);
  await expect(page.getByTestId("turn-position")).toContainText(`of ${generated.turns}`);
  // Once ready, the composition and the index are built in the background.
  await page.waitForFunction((turns) => (window as unknown as { __contextscope: { compositionTurns: number | null } }).__contextscope.compositionTurns === turns, generated.turns, { timeout: 120_000 });
  await page.waitForFunction(() => ((window as unknown as { __contextscope: { searchIndexedMessages: number | null } }).__contextscope.searchIndexedMessages ?? 0) > 0, null, { timeout: 120_000 });
});
