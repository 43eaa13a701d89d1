// A followed session in headless Chromium: one turn appended to a large session file, and the time
// from the end of the write to the new turn's row on screen (the app asks the file whether it
// changed every 200 ms, so up to that much of it is the wait for the next poll). Serve a build first:
//   npx vite build && npx vite preview --port 4208 --strictPort
// then: npx tsx bench/live-browser.bench.ts [--mb 100,1024] [--appends 5] [--url http://127.0.0.1:4208/]
// The session (bench/generate-session.ts, seed 1) is cut before its last few turns; the part
// before is copied into the origin private file system (the same file handle interface a picker
// gives) and opened as a followed file; then each remaining turn is appended in one write, and
// timed inside the page (performance.now()) from the write's close to the timeline row of the new
// turn being in the DOM. Prints one JSON line per size: each append's time, and the open's.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "../scripts/chromium.mjs";
import { cachedPiSession } from "./generate-session";

function argument(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? (process.argv[at + 1] as string) : fallback;
}

const sizesMb = argument("mb", "100,1024").split(",").map(Number);
const appends = Number(argument("appends", "5"));
const baseURL = argument("url", "http://127.0.0.1:4208/");

/** Byte offsets where each of the last `count` turns' answers start (lines holding an assistant message). */
function lastTurnStarts(bytes: Buffer, count: number): number[] {
  const starts: number[] = [];
  let from = bytes.length;
  while (starts.length < count) {
    const at = bytes.lastIndexOf('"role":"assistant"', from - 1);
    if (at < 0) break;
    const start = bytes.lastIndexOf(0x0a, at) + 1;
    starts.unshift(start);
    from = start - 1;
  }
  return starts;
}

// A profile on disk: the origin private file system of a throw-away context is held in memory,
// with a quota too small for a 1 GB file.
const profile = mkdtempSync(path.join(tmpdir(), "contextscope-live-profile-"));
const browser = await chromium.launchPersistentContext(profile, { executablePath: findChromium() ?? undefined, args: CHROMIUM_ARGS });
try {
  for (const mb of sizesMb) {
    const file = await cachedPiSession(mb);
    const bytes = readFileSync(file);
    const starts = lastTurnStarts(bytes, appends);
    // The session without its last turns, as a file the page's input can take.
    const head = path.join(tmpdir(), `contextscope-live-head-${mb}mb.jsonl`);
    const fd = openSync(head, "w");
    writeSync(fd, bytes, 0, starts[0]!);
    closeSync(fd);
    const page = await browser.newPage();
    await page.goto(`${baseURL}?sample=none&watchdog=600`);
    await page.waitForFunction(() => (window as unknown as { __contextscope?: { status: string } }).__contextscope?.status === "idle");
    await page.evaluate(() => {
      const input = document.createElement("input");
      input.type = "file";
      input.id = "bench-input";
      document.body.append(input);
    });
    await page.setInputFiles("#bench-input", head);
    const openMs = await page.evaluate(async () => {
      const input = document.getElementById("bench-input") as HTMLInputElement;
      const root = await navigator.storage.getDirectory();
      await root.removeEntry("bench.jsonl").catch(() => undefined);
      const handle = await root.getFileHandle("bench.jsonl", { create: true });
      const writable = await handle.createWritable();
      await input.files![0]!.stream().pipeTo(writable);
      const start = performance.now();
      await (window as unknown as { __contextscopeLive: { openLiveHandle(h: FileSystemFileHandle): Promise<void> } }).__contextscopeLive.openLiveHandle(handle);
      return performance.now() - start;
    });
    const times: number[] = [];
    for (let index = 0; index < starts.length; index++) {
      const part = bytes.subarray(starts[index]!, starts[index + 1] ?? bytes.length).toString("utf8");
      const turnsBefore = await page.evaluate(() => (window as unknown as { __contextscope: { turnCount: number } }).__contextscope.turnCount);
      const ms = await page.evaluate(
        async ({ part, turn }) => {
          const root = await navigator.storage.getDirectory();
          const handle = await root.getFileHandle("bench.jsonl");
          const size = (await handle.getFile()).size;
          const writable = await handle.createWritable({ keepExistingData: true });
          await writable.seek(size);
          await writable.write(part);
          await writable.close();
          const start = performance.now();
          // (No named functions inside: the bench runs under tsx, whose helpers the page lacks.)
          while (!document.querySelector(`[data-testid="timeline-row"][data-kind="turn"][data-turn="${turn}"]`)) {
            await new Promise((resolve) => requestAnimationFrame(resolve));
          }
          return performance.now() - start;
        },
        { part, turn: turnsBefore + 1 },
      );
      times.push(Math.round(ms));
      // The next write comes a moment later, as an agent's would.
      await page.waitForTimeout(700);
    }
    const sorted = [...times].sort((a, b) => a - b);
    console.log(JSON.stringify({ mb, bytes: bytes.length, openMs: Math.round(openMs), appendToRowMs: times, medianMs: sorted[Math.floor(sorted.length / 2)], maxMs: sorted[sorted.length - 1] }));
    await page.close();
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
