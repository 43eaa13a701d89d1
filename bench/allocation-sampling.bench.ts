// Where a heap's allocations come from during the exact pass: opens a session in headless
// Chromium, waits until it is ready, then samples the allocations of the page or of one of its
// workers (the DevTools protocol's HeapProfiler.startSampling, objects collected since counted
// too) until the exact pass is done, and prints the bytes allocated by the deepest frames of each
// call path, largest first. It found the page pricing every turn three times and the tokenizer
// asking a regular expression about every character (docs/performance.md). Serve a build first
// (an unminified one names the functions: `npx vite build --outDir /tmp/dist-plain --minify false`
// and `npx vite preview --outDir /tmp/dist-plain --port 4204 --strictPort`), then:
//   npx tsx bench/allocation-sampling.bench.ts --file <session> [--target page|pipeline|count]
//     [--url http://127.0.0.1:4204/] [--top 25] [--depth 4]
import path from "node:path";
import { chromium, type CDPSession } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "../scripts/chromium.mjs";
import { workerCaller } from "./devtools-memory";

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1]!;
}

const file = option("file", "");
if (!file) {
  console.error("--file <session> is required");
  process.exit(1);
}
const target = option("target", "page");
const baseURL = option("url", "http://127.0.0.1:4204/");
const top = Number(option("top", "25"));
const depth = Number(option("depth", "4"));

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

/** Protocol calls to the page itself, or to a worker. */
type Call = <T>(method: string, params?: object) => Promise<T>;

/** Calls to the first worker whose script name holds `scriptName` (counting workers start with the exact pass). */
async function workerCall(cdp: CDPSession, scriptName: string): Promise<Call> {
  for (;;) {
    const { targetInfos } = await cdp.send("Target.getTargets");
    const found = targetInfos.find((info) => info.type === "worker" && info.url.includes(scriptName));
    if (found) {
      const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: found.targetId, flatten: false });
      return workerCaller(cdp, sessionId);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const browser = await chromium.launch({ executablePath: findChromium() ?? undefined, args: CHROMIUM_ARGS });
const page = await browser.newPage();
page.setDefaultTimeout(10 * 60_000);
await page.goto(`${baseURL}?sample=none&watchdog=600`);
await page.getByTestId("open-file-input").waitFor({ state: "attached" });
const cdp = await page.context().newCDPSession(page);
await page.getByTestId("open-file-input").setInputFiles(file);
await page.waitForFunction(() => (window as unknown as { __contextscope?: { ready?: boolean } }).__contextscope?.ready === true, null, { polling: 100 });
const call: Call =
  target === "page" ? <T>(method: string, params: object = {}) => cdp.send(method as "HeapProfiler.enable", params) as Promise<T> : await workerCall(cdp, `${target}.worker`);
await call("HeapProfiler.enable");
await call("HeapProfiler.startSampling", { samplingInterval: 32768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
await page.waitForFunction(() => (window as unknown as { __contextscope?: { prefixPass?: string | null } }).__contextscope?.prefixPass === "exact", null, {
  polling: 200,
});
const { profile } = await call<{ profile: { head: SamplingNode } }>("HeapProfiler.stopSampling");
await browser.close();

// Bytes by the last `depth` frames of each path (the allocating frame first).
const bytesByPath = new Map<string, number>();
const visit = (node: SamplingNode, frames: string[]) => {
  const frame = `${node.callFrame.functionName || "(anonymous)"} ${path.basename(node.callFrame.url)}:${node.callFrame.lineNumber}`;
  const stack = [...frames, frame];
  if (node.selfSize > 0) {
    const key = stack.slice(-depth).reverse().join(" < ");
    bytesByPath.set(key, (bytesByPath.get(key) ?? 0) + node.selfSize);
  }
  for (const child of node.children) visit(child, stack);
};
visit(profile.head, []);
const total = [...bytesByPath.values()].reduce((sum, bytes) => sum + bytes, 0);
console.log(`${target}: ${(total / 1e6).toFixed(1)} MB allocated from ready to the end of the exact pass (${path.basename(file)})`);
for (const [key, bytes] of [...bytesByPath].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(bytes / 1e6).toFixed(1).padStart(8)} MB  ${key}`);
