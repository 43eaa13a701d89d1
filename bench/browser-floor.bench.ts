// The browser's own floor of reading a session, and reading it with its large texts kept as bytes,
// in a Web Worker of headless Chromium, each in a browser of its own (so the renderer's peak is
// its own):
// - floor: the file streamed through TextDecoder, each line JSON.parse'd, nothing kept (the
//   issue's "browser floor": what opening a session cannot go below);
// - strings: the same, every record kept (texts as strings, as the app's reader keeps them);
// - bytes: the file's bytes streamed into src/core/text's store, each line parsed with its large
//   texts kept as bytes (parseLineKeepingLargeTexts), every record kept.
// Reports the worker's time, its JS heap after a full collection, the store's bytes and the
// renderer's peak resident size. Run: `npx tsx bench/browser-floor.bench.ts [--mb 100,1024]
// [--file <session.jsonl>] [--modes floor,strings,bytes]` (sessions as bench/browser-open.bench.ts
// makes them: bench/generate-session.ts, seed 1; at 4096 MB the strings mode runs out of heap).
import { statSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { build } from "esbuild";
import { CHROMIUM_ARGS, findChromium } from "../scripts/chromium.mjs";
import { rendererPeakMb, workerHeapsMb } from "./devtools-memory";
import { cachedPiSession } from "./generate-session";

function argument(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? (process.argv[at + 1] as string) : fallback;
}

// The core text store, bundled for the worker (it defines self.CoreText).
const bundled = await build({
  stdin: {
    contents: `export { parseLineKeepingLargeTexts } from "./src/core/text/largeLiterals"; export { createTextStore, trimTextStore } from "./src/core/text/storedText";`,
    resolveDir: process.cwd(),
    loader: "ts",
  },
  bundle: true,
  format: "iife",
  globalName: "CoreText",
  write: false,
  platform: "browser",
});
const coreText = bundled.outputFiles[0]!.text;

// The worker's reading, by mode; it keeps what it read in self.kept so the heap shows it.
const workerSource = `${coreText}
self.onmessage = async ({ data: { file, mode } }) => {
  const started = performance.now();
  const reader = file.stream().getReader();
  let lines = 0;
  if (mode !== "bytes") {
    const decoder = new TextDecoder();
    const records = mode === "strings" ? [] : null;
    let rest = "";
    const line = (text) => { const value = JSON.parse(text); lines++; if (records) records.push(value); };
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const text = rest + decoder.decode(value, { stream: true });
      let start = 0;
      for (let newline = text.indexOf("\\n", start); newline !== -1; newline = text.indexOf("\\n", start)) {
        if (newline > start) line(text.slice(start, newline));
        start = newline + 1;
      }
      rest = text.slice(start);
    }
    if (rest.length > 0) line(rest);
    self.kept = records;
    postMessage({ ms: performance.now() - started, lines, storeBytes: 0 });
    return;
  }
  const store = CoreText.createTextStore();
  const records = [];
  let buffer = new Uint8Array(8 << 20);
  let filled = 0;
  let scanned = 0;
  let start = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (filled + value.length > buffer.length) {
      // Move the unfinished line to the front, growing the buffer when one line needs it.
      const rest = filled - start;
      const target = rest + value.length > buffer.length ? new Uint8Array(Math.max(buffer.length * 2, rest + value.length)) : buffer;
      target.set(buffer.subarray(start, filled));
      buffer = target;
      scanned -= start;
      filled = rest;
      start = 0;
    }
    buffer.set(value, filled);
    filled += value.length;
    for (let newline = buffer.indexOf(10, scanned); newline !== -1 && newline < filled; newline = buffer.indexOf(10, start)) {
      if (newline > start) { records.push(CoreText.parseLineKeepingLargeTexts(buffer, start, newline, store)); lines++; }
      start = newline + 1;
    }
    scanned = filled;
  }
  if (filled > start) { records.push(CoreText.parseLineKeepingLargeTexts(buffer, start, filled, store)); lines++; }
  CoreText.trimTextStore(store);
  self.kept = { records, store };
  postMessage({ ms: performance.now() - started, lines, storeBytes: store.chunks.reduce((sum, chunk) => sum + chunk.length, 0) });
};`;

const executablePath = findChromium() ?? undefined;
const sizes = argument("file", "") ? [0] : argument("mb", "100").split(",").map(Number);
for (const mb of sizes) {
  const file = argument("file", "") || (await cachedPiSession(mb));
  const fileMb = statSync(file).size / 1e6;
  console.log(`session ${path.basename(file)}: ${fileMb.toFixed(1)} MB`);
  for (const mode of argument("modes", "floor,strings,bytes").split(",")) {
    const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, "--js-flags=--max-old-space-size=8192"] });
    const page = await browser.newPage();
    page.setDefaultTimeout(20 * 60_000);
    await page.setContent(`<input type="file" id="session">`);
    await page.evaluate((source) => {
      const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
      (window as unknown as { worker: Worker }).worker = worker;
    }, workerSource);
    await page.locator("#session").setInputFiles(file);
    const result = await page.evaluate(
      (mode) =>
        new Promise<{ ms: number; lines: number; storeBytes: number }>((resolve, reject) => {
          const worker = (window as unknown as { worker: Worker }).worker;
          worker.onmessage = (event) => resolve(event.data as { ms: number; lines: number; storeBytes: number });
          worker.onerror = (event) => reject(new Error(event.message));
          worker.postMessage({ file: (document.querySelector("#session") as HTMLInputElement).files![0], mode });
        }),
      mode,
    );
    const heaps = await workerHeapsMb(await page.context().newCDPSession(page));
    const heapMb = Object.values(heaps).reduce((sum, value) => sum + value, 0);
    const rendererMb = rendererPeakMb();
    console.log(
      `${mode.padEnd(8)} ${(result.ms / 1000).toFixed(2)} s, ${result.lines} lines; worker heap ${heapMb} MiB = ${((heapMb * 1.048576) / fileMb).toFixed(2)} × file` +
        `${result.storeBytes ? `, store ${(result.storeBytes / 1e6).toFixed(0)} MB = ${(result.storeBytes / 1e6 / fileMb).toFixed(2)} × file` : ""}; renderer peak ${rendererMb} MiB = ${((rendererMb * 1.048576) / fileMb).toFixed(2)} × file`,
    );
    await browser.close();
  }
}
