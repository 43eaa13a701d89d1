// Opening a large session in headless Chromium: how long after the drop the first turn is on
// screen, when the session is ready, how long a step to the next turn takes, and how long the
// page's main thread was blocked while the file loaded. Serve a build first:
//   npx vite build --outDir dist && npx vite preview --port 4203 --strictPort
// then: npx tsx bench/browser-open.bench.ts [--mb 100,1024] [--steps 50] [--runs 1] [--url http://127.0.0.1:4203/]
//   [--file <session.jsonl>] [--timeout <minutes>] [--no-exact] [--watch-heaps] [--screenshot <file.png>] (below)
// Sessions come from bench/generate-session.ts (seed 1), written once to a temporary folder
// (or pass --file <session.jsonl> to use one). Prints one JSON line per run.
//
// Everything is timed inside the page (performance.now()), from the file input's `change` event:
// - firstTurnMs: the first timeline row is in the DOM (a MutationObserver);
// - firstRequestMs: the first turn's request JSON is shown (window.__contextscope.requestTurn);
// - firstProvisionalMs: the first analysis of the part read so far is in the store (null when
//   the app showed none, e.g. before provisional turns existed);
// - readyMs: window.__contextscope.ready (whole file read and analysed);
// - maxStallMs: the longest gap between 10 ms timer ticks on the main thread until ready and the
//   first turn and its request are on screen;
// - steps: `j` pressed (a real key event) until the new turn's request is shown and a frame has
//   been painted, `--steps` times in a row; median and p95 (and until the worker's reply is in the
//   store, stepReply…, so the worker's part and the page's rendering can be told apart), and every
//   step's time in order (stepTimesMs: which step was slow tells a one-off wait from a trend);
// - stalls: [ms after the drop, length] of each main-thread stall over 250 ms until ready;
// - exactPassMs: the exact token pass is in the store (window.__contextscope.prefixPass), wall
//   time since the drop, measured after the steps (the pass runs beside them).
// Browser CPU time (all Chromium processes, from /proc) is reported beside the wall times, since
// the machine is shared. Memory, after the steps: what each Web Worker's JS heap retains (a full
// garbage collection, then Runtime.getHeapUsage, both sent to the worker's target over the Chrome
// DevTools Protocol; not before the steps, whose times a forced collection would change), and
// the renderer process's peak resident size (VmHWM in /proc, this bench's browser only, not another
// session's: the page and its workers together,
// garbage included; with --runs above 1 a later page may share the renderer and its high-water
// mark).
// `--watch-heaps` prints to stderr, every second from the end of the steps until the exact pass is
// done, each JS heap of the page and its workers (used / committed, and the array buffers each
// holds) and the renderer's resident size: which part a renderer peak comes from.
// `--profile-steps <file.cpuprofile>` records a CPU profile of the page's main thread over the
// steps (the DevTools protocol's Profiler), writes it (open it in Chrome's DevTools) and prints the
// functions with the most self time to stderr: where the page's part of a step goes (each run
// writes the same file: profile one run at a time).
// `--profile-open <prefix>` records CPU profiles of the page's main thread and of the pipeline
// worker from the drop until ready, writes them as <prefix>-page.cpuprofile and
// <prefix>-pipeline.cpuprofile, and prints each one's functions with the most self time: where
// the open's time goes on either side (one run at a time, as above).
// For a session too large for the defaults (16 GB): `--timeout <minutes>` bounds each wait of the
// page (ready, the exact pass; default 10), `--no-exact` measures the memory right after the steps
// instead of waiting for the exact pass (which takes hours there; exactPassMs is then null),
// `--watch-heaps` also samples the heaps every 5 s from the drop until ready (which part grows while
// reading), and `--screenshot <file.png>` opens the page at 1440×900 and writes what it shows at
// ready, or when a wait fails (what the user sees then).
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium, type CDPSession, type Page } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "../scripts/chromium.mjs";
import { cachedPiSession } from "./generate-session";
import { rendererPeakMb, sampleHeaps, workerCaller, workerHeapsMb } from "./devtools-memory";

function argument(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? (process.argv[at + 1] as string) : fallback;
}

const sizesMb = argument("mb", "100,1024").split(",").map(Number);
const steps = Number(argument("steps", "50"));
const runs = Number(argument("runs", "1"));
const baseURL = argument("url", "http://127.0.0.1:4203/");
const givenFile = argument("file", "");
const profileFile = argument("profile-steps", "");
const openProfilePrefix = argument("profile-open", "");
const watchHeaps = process.argv.includes("--watch-heaps");
const waitMinutes = Number(argument("timeout", "10"));
const waitExact = !process.argv.includes("--no-exact");
const screenshotFile = argument("screenshot", "");

/** What the summary reads of a DevTools CPU profile (Profiler.stop's `profile`). */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** The functions with the most self time in a CPU profile, as printable lines (ms and share). */
function topSelfTimes(profile: CpuProfile, count: number): string[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<string, number>();
  let totalMs = 0;
  (profile.samples ?? []).forEach((id, index) => {
    const node = byNode.get(id);
    const ms = (profile.timeDeltas?.[index] ?? 0) / 1000;
    totalMs += ms;
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || "(anonymous)"} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ""}`.trim();
    selfMs.set(key, (selfMs.get(key) ?? 0) + ms);
  });
  return [...selfMs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, ms]) => `${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / totalMs).toFixed(1).padStart(5)} %  ${key}`);
}

/** CPU seconds (user + system) of every descendant process of this one (the browser's). */
function browserCpuSeconds(): number {
  const parents = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(name), Number(fields[1]));
      cpu.set(Number(name), (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // The process ended meanwhile.
    }
  }
  let total = 0;
  for (const [pid, seconds] of cpu) {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) {
      if (at === process.pid) {
        total += seconds;
        break;
      }
    }
  }
  return total;
}


/** Installed before the page's own scripts: the timers and observers the figures come from. */
function instrument(): void {
  const w = window as unknown as Record<string, unknown> & { __bench: Record<string, number | null> };
  const bench: Record<string, number | null> = { drop: null, firstTurn: null, firstRequest: null, firstProvisional: null, ready: null, maxStall: 0 };
  w.__bench = bench;
  w.__stalls = [];
  let last = performance.now();
  const tick = () => {
    const now = performance.now();
    if (bench.drop !== null && (bench.ready === null || bench.firstRequest === null || bench.firstTurn === null)) {
      bench.maxStall = Math.max(bench.maxStall ?? 0, now - last);
      // Where the long ones were (ms after the drop), to tell them apart.
      if (now - last > 250) (w.__stalls as number[][]).push([Math.round(last - (bench.drop ?? 0)), Math.round(now - last)]);
    }
    last = now;
  };
  setInterval(tick, 10);
  document.addEventListener(
    "change",
    (event) => {
      if ((event.target as HTMLElement | null)?.getAttribute?.("data-testid") === "open-file-input") {
        bench.drop = performance.now();
        last = bench.drop;
      }
    },
    true,
  );
  new MutationObserver(() => {
    if (bench.drop !== null && bench.firstTurn === null && document.querySelector('[data-testid="timeline-row"]')) bench.firstTurn = performance.now();
  }).observe(document, { childList: true, subtree: true });
  // The app's test hook assigns window.__contextscope on every state change: note the moments.
  let value: unknown;
  Object.defineProperty(window, "__contextscope", {
    configurable: true,
    get: () => value,
    set: (next: { ready: boolean; provisional?: boolean; requestTurn: number | null }) => {
      value = next;
      const now = performance.now();
      if (bench.drop === null) return;
      if (bench.firstRequest === null && next.requestTurn !== null) bench.firstRequest = now;
      if (bench.firstProvisional === null && next.provisional) bench.firstProvisional = now;
      if (bench.ready === null && next.ready) bench.ready = now;
      (w.__onView as ((view: unknown) => void) | undefined)?.(next);
    },
  });
}

/** Presses `j` and times it until the next turn's request is shown and painted. */
async function step(page: Page): Promise<{ ms: number; replyMs: number; turn: number | null }> {
  await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown> & { __contextscope: { selectedTurn: number | null } };
    const from = w.__contextscope.selectedTurn;
    w.__stepDone = new Promise<{ ms: number; replyMs: number; turn: number | null }>((resolve) => {
      let start = 0;
      window.addEventListener("keydown", () => (start = performance.now()), { capture: true, once: true });
      w.__onView = (view: { selectedTurn: number | null; requestTurn: number | null }) => {
        // A compaction row is a step too (its view has no request: the selected turn is null).
        if (start === 0 || view.selectedTurn === from || (view.selectedTurn !== null && view.requestTurn !== view.selectedTurn)) return;
        w.__onView = undefined;
        const replyMs = performance.now() - start;
        requestAnimationFrame(() => setTimeout(() => resolve({ ms: performance.now() - start, replyMs, turn: view.selectedTurn })));
      };
    });
  });
  await page.keyboard.press("j");
  // A step that never ends (the page stopped answering keys, or the view never came) is reported
  // with the page's state instead of waiting for ever.
  const done = page.evaluate(() => (window as unknown as { __stepDone: Promise<{ ms: number; replyMs: number; turn: number | null }> }).__stepDone);
  const late = new Promise<null>((resolve) => setTimeout(() => resolve(null), 60_000));
  const result = await Promise.race([done, late]);
  if (result === null) {
    const state = await page.evaluate(() => JSON.stringify((window as unknown as { __contextscope: unknown }).__contextscope));
    throw new Error(`a step did not end within 60 s; the page's state: ${state.slice(0, 2000)}`);
  }
  return result;
}

/** The page's and the pipeline worker's profilers, started before the drop (`--profile-open`). */
async function startOpenProfiles(page: Page): Promise<{ page: CDPSession; pipeline: ReturnType<typeof workerCaller> | null }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.start");
  const { targetInfos } = await cdp.send("Target.getTargets");
  const target = targetInfos.find((info) => info.type === "worker" && info.url.includes("pipeline"));
  if (!target) return { page: cdp, pipeline: null };
  const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: target.targetId, flatten: false });
  const pipeline = workerCaller(cdp, sessionId);
  await pipeline("Profiler.enable");
  await pipeline("Profiler.start");
  return { page: cdp, pipeline };
}

/** Stops the open's profilers, writes both profiles and prints each one's top self times. */
async function stopOpenProfiles(profilers: { page: CDPSession; pipeline: ReturnType<typeof workerCaller> | null }, prefix: string): Promise<void> {
  const sides: [string, CpuProfile][] = [["page", (await profilers.page.send("Profiler.stop")).profile]];
  if (profilers.pipeline) sides.push(["pipeline", (await profilers.pipeline<{ profile: CpuProfile }>("Profiler.stop")).profile]);
  else process.stderr.write("no pipeline worker to profile\n");
  for (const [side, profile] of sides) {
    const out = `${prefix}-${side}.cpuprofile`;
    writeFileSync(out, JSON.stringify(profile));
    process.stderr.write(`${side} profile of the open: ${out}\n${topSelfTimes(profile, 25).join("\n")}\n`);
  }
  await profilers.page.detach();
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
}

const browser = await chromium.launch({ executablePath: findChromium() ?? undefined, args: CHROMIUM_ARGS });
for (const mb of givenFile ? [0] : sizesMb) {
  const file = givenFile || (await cachedPiSession(mb));
  for (let run = 1; run <= runs; run++) {
    const page = await browser.newPage(screenshotFile ? { viewport: { width: 1440, height: 900 } } : {});
    page.setDefaultTimeout(waitMinutes * 60_000);
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("crash", () => process.stderr.write("the page crashed\n"));
    page.on("pageerror", (error) => errors.push(error.message));
    // tsx compiles the functions handed to the page with esbuild's `__name` helper: define it there.
    await page.addInitScript({ content: "window.__name = (target) => target;" });
    await page.addInitScript(instrument);
    await page.goto(`${baseURL}?sample=none&watchdog=600`);
    await page.getByTestId("open-file-input").waitFor({ state: "attached" });
    // A user drops a file some time after the page loaded: the worker (started at page load) is up.
    // Pages from before it was started early never say so; wait for the first 20 s at most.
    await page
      .waitForFunction(() => (window as unknown as { __contextscope?: { pipelineStarted?: boolean } }).__contextscope?.pipelineStarted === true, null, { timeout: 20_000 })
      .catch(() => undefined);
    const openProfilers = openProfilePrefix ? await startOpenProfiles(page) : null;
    const cpuBefore = browserCpuSeconds();
    const wallStart = Date.now();
    await page.getByTestId("open-file-input").setInputFiles(file);
    const opened = () =>
      page.evaluate(() => {
        const marks = (window as unknown as { __bench: Record<string, number | null> }).__bench;
        return marks.ready !== null && marks.firstTurn !== null && marks.firstRequest !== null;
      });
    const openWatch = watchHeaps ? await page.context().newCDPSession(page) : null;
    const watchingOpen = openWatch ? sampleHeaps(openWatch, wallStart, opened, (line) => process.stderr.write(`open: ${line}\n`), 5000).catch(() => undefined) : null;
    try {
      await page.waitForFunction(
        () => {
          const marks = (window as unknown as { __bench: Record<string, number | null> }).__bench;
          return marks.ready !== null && marks.firstTurn !== null && marks.firstRequest !== null;
        },
        null,
        { polling: 100 },
      );
    } catch (error) {
      process.stderr.write(`not ready after ${Date.now() - wallStart} ms (peak renderer ${rendererPeakMb()} MiB, ${errors.length} console errors: ${errors.slice(0, 5).join(" | ")})\n`);
      if (screenshotFile) await page.screenshot({ path: screenshotFile, timeout: 30_000 }).catch((reason: Error) => process.stderr.write(`no screenshot: ${reason.message}\n`));
      throw error;
    }
    const openWallMs = Date.now() - wallStart;
    const openCpuSeconds = browserCpuSeconds() - cpuBefore;
    if (openProfilers) await stopOpenProfiles(openProfilers, openProfilePrefix);
    await watchingOpen;
    await openWatch?.detach();
    const marks = await page.evaluate(() => (window as unknown as { __bench: Record<string, number> }).__bench);
    const stalls = await page.evaluate(() => (window as unknown as { __stalls: number[][] }).__stalls);
    const turns = await page.evaluate(() => (window as unknown as { __contextscope: { turnCount: number } }).__contextscope.turnCount);
    process.stderr.write(`ready after ${openWallMs} ms (${turns} turns); stepping\n`);
    if (screenshotFile) await page.screenshot({ path: screenshotFile });
    // The file input keeps the focus after the pick; the shortcuts ignore keys typed into inputs.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // Steps from the first turn, right after ready (the background prefix passes still run).
    const times: number[] = [];
    const replies: number[] = [];
    const stepCpuBefore = browserCpuSeconds();
    const profiler = profileFile ? await page.context().newCDPSession(page) : null;
    if (profiler) {
      await profiler.send("Profiler.enable");
      await profiler.send("Profiler.start");
    }
    let lastTurn: number | null = null;
    for (let i = 0; i < steps; i++) {
      const result = await step(page);
      times.push(result.ms);
      replies.push(result.replyMs);
      lastTurn = result.turn;
    }
    const stepCpuSeconds = browserCpuSeconds() - stepCpuBefore;
    if (profiler) {
      const { profile } = await profiler.send("Profiler.stop");
      writeFileSync(profileFile, JSON.stringify(profile));
      process.stderr.write(`main-thread profile of the steps: ${profileFile}\n${topSelfTimes(profile, 25).join("\n")}\n`);
      await profiler.detach();
    }
    // The exact pass (o200k counts for every turn) runs in the background from ready on, during
    // the steps too; its end is when the timeline's figures are final.
    const exactDone = () => page.evaluate(() => (window as unknown as { __contextscope: { prefixPass: string | null } }).__contextscope.prefixPass === "exact");
    if (watchHeaps && waitExact) {
      const sampler = await page.context().newCDPSession(page);
      await sampleHeaps(sampler, wallStart, exactDone, (line) => process.stderr.write(`${line}\n`));
      await sampler.detach();
    }
    if (waitExact) await page.waitForFunction(() => (window as unknown as { __contextscope: { prefixPass: string | null } }).__contextscope.prefixPass === "exact", null, { polling: 100 });
    const exactPassMs = waitExact ? Date.now() - wallStart : null;
    const heapsMb = await workerHeapsMb(await page.context().newCDPSession(page));
    const fileMb = statSync(file).size / 1024 / 1024;
    const peakMb = rendererPeakMb();
    const since = (at: number | null) => (at === null ? null : Math.round(at - marks.drop!));
    console.log(
      JSON.stringify({
        file: path.basename(file),
        mb,
        run,
        turns,
        firstTurnMs: since(marks.firstTurn!),
        firstRequestMs: since(marks.firstRequest!),
        firstProvisionalMs: since(marks.firstProvisional!),
        readyMs: since(marks.ready!),
        maxStallMs: Math.round(marks.maxStall!),
        openWallMs,
        openCpuSeconds: Number(openCpuSeconds.toFixed(2)),
        steps: times.length,
        lastTurn,
        stepMedianMs: Math.round(quantile(times, 0.5)),
        stepP95Ms: Math.round(quantile(times, 0.95)),
        stepMaxMs: Math.round(Math.max(...times)),
        stepTimesMs: times.map(Math.round),
        stepReplyMedianMs: Math.round(quantile(replies, 0.5)),
        stepReplyP95Ms: Math.round(quantile(replies, 0.95)),
        stepReplyTimesMs: replies.map(Math.round),
        stalls,
        stepCpuSeconds: Number(stepCpuSeconds.toFixed(2)),
        exactPassMs,
        fileMb: Math.round(fileMb),
        workerHeapsMb: heapsMb,
        rendererPeakMb: peakMb,
        rendererPeakOverFile: Number((peakMb / fileMb).toFixed(2)),
        consoleErrors: errors.length,
      }),
    );
    await page.close();
  }
}
await browser.close();
