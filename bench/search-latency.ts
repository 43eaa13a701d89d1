// Search on a large generated session in headless Chromium: how long the first result takes and
// whether the page keeps answering meanwhile. Serve a build first (`npx vite build && npx vite
// preview --port 4183 --strictPort`), then:
//   npx tsx bench/search-latency.ts <session.jsonl> [baseURL] [query …]
// (make a session with bench/generate-session.ts, e.g. 1 GB: generatePiSession({ minBytes: 2 ** 30 })).
// Prints how long the background search index took, then one JSON line per query: first-result ms
// (as the page measured it), all-done ms, hits, the longest main-thread stall while the search ran,
// and a key press's round trip. For a string only one tool result holds, generate the session with
// `markToolResults: true` (each tool result ends with `result-<prompt>-<step>.`).
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "../scripts/chromium.mjs";

const [file, baseURL = "http://127.0.0.1:4183/", ...queries] = process.argv.slice(2);
if (!file) throw new Error("usage: npx tsx bench/search-latency.ts <session.jsonl> [baseURL] [query …]");

const browser = await chromium.launch({ executablePath: findChromium() ?? undefined, args: CHROMIUM_ARGS });
const page = await browser.newPage();
page.setDefaultTimeout(30 * 60_000);
await page.goto(`${baseURL}?sample=none`);
const openStart = Date.now();
await page.getByTestId("open-file-input").setInputFiles(file);
await page.waitForFunction(() => Boolean((window as unknown as { __contextscope?: { ready: boolean } }).__contextscope?.ready), null, { polling: 500 });
const turns = await page.evaluate(() => (window as unknown as { __contextscope: { turnCount: number } }).__contextscope.turnCount);
console.log(JSON.stringify({ opened: true, turns, openMs: Date.now() - openStart }));
// The search index is built in the background once the session is open: how long until it is
// complete (from "ready"), and the worker time the build took (the panel's index line).
const indexStart = Date.now();
await page.locator("body").press("/");
await page.waitForFunction(() => document.querySelector('[data-testid="search-index"]')?.getAttribute("data-complete") === "true", null, { polling: 200 });
const indexLine = await page.getByTestId("search-index").textContent();
console.log(JSON.stringify({ indexReadyAfterOpenMs: Date.now() - indexStart, index: indexLine, indexBuildMs: Number(/built in (\d+) ms/.exec(indexLine ?? "")?.[1] ?? NaN) }));
await page.keyboard.press("Escape");
// The page keeps working after it opened (prefix passes, the composition pass): the longest stall
// of an idle window, so a stall during a search can be told apart from that background work.
const idleStallMs = await page.evaluate(
  (ms) =>
    new Promise<number>((resolve) => {
      let max = 0;
      let last = performance.now();
      const timer = window.setInterval(() => {
        const now = performance.now();
        max = Math.max(max, now - last);
        last = now;
      }, 10);
      window.setTimeout(() => {
        clearInterval(timer);
        resolve(Math.round(max));
      }, ms);
    }),
  Number(process.env.IDLE_MS ?? 20_000),
);
console.log(JSON.stringify({ idleWindowMs: Number(process.env.IDLE_MS ?? 20_000), idleStallMs }));

for (const query of queries.length ? queries : ["archive", "file-20-0.md"]) {
  await page.keyboard.press("Escape");
  await page.locator("body").press("/");
  const input = page.getByTestId("search-input");
  await input.waitFor();
  // Longest gap between 10 ms timer ticks on the page while the search runs.
  await page.evaluate(() => {
    const w = window as unknown as { __stall: { max: number; last: number; timer: number } };
    w.__stall = { max: 0, last: performance.now(), timer: 0 };
    w.__stall.timer = window.setInterval(() => {
      const now = performance.now();
      w.__stall.max = Math.max(w.__stall.max, now - w.__stall.last);
      w.__stall.last = now;
    }, 10);
  });
  const start = Date.now();
  await input.fill(query);
  // The first hit, or the end of a search that finds nothing.
  await page.waitForFunction(
    () => document.querySelector('[data-testid="search-hit"]') !== null || document.querySelector('[data-testid="search-status"]')?.getAttribute("data-done") === "true",
    null,
    { polling: 10 },
  );
  const firstSeenMs = Date.now() - start;
  const keyStart = Date.now();
  await input.press("ArrowDown");
  const keyMs = Date.now() - keyStart;
  const stillRunning = (await page.getByTestId("search-status").getAttribute("data-done")) !== "true";
  await page.waitForFunction(() => document.querySelector('[data-testid="search-status"]')?.getAttribute("data-done") === "true", null, { polling: 200 });
  const doneMs = Date.now() - start;
  const status = await page.getByTestId("search-status").textContent();
  const stallMs = await page.evaluate(() => {
    const w = window as unknown as { __stall: { max: number; timer: number } };
    clearInterval(w.__stall.timer);
    return Math.round(w.__stall.max);
  });
  const firstHitMs = Number(/first result in (\d+) ms/.exec(status ?? "")?.[1] ?? NaN);
  const hits = await page.getByTestId("search-hit").count();
  const firstTurn = hits > 0 ? await page.getByTestId("search-hit").first().getAttribute("data-turn") : null;
  console.log(JSON.stringify({ query, firstHitMs, firstSeenMs, firstTurn: Number(firstTurn), keyMs, stillRunningAtFirstHit: stillRunning, doneMs, hits, maxStallMs: stallMs }));
}
await browser.close();
