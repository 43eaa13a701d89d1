import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "../scripts/chromium.mjs";
const browser = await chromium.launch({ executablePath: findChromium() ?? undefined, args: CHROMIUM_ARGS });
const page = await browser.newPage();
await page.addInitScript({ content: "window.__name = (t) => t;" });
await page.goto("http://127.0.0.1:4203/?sample=none&watchdog=600");
await page.waitForFunction(() => (window as any).__contextscope?.pipelineStarted, null, { timeout: 60000 });
await page.getByTestId("open-file-input").setInputFiles(process.argv[2]!);
await page.waitForFunction(() => (window as any).__contextscope?.ready && (window as any).__contextscope?.requestTurn, null, { polling: 200, timeout: 300000 });
await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
await page.waitForTimeout(2000);
const cdp = await page.context().newCDPSession(page);
await cdp.send("Profiler.enable");
await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
await cdp.send("Profiler.start");
for (let i = 0; i < 10; i++) {
  const from = await page.evaluate(() => (window as any).__contextscope.selectedTurn);
  await page.keyboard.press("j");
  await page.waitForFunction((f) => { const v = (window as any).__contextscope; return v.selectedTurn !== f && v.requestTurn === v.selectedTurn; }, from, { polling: 10 });
  await page.waitForTimeout(50);
}
const { profile } = await cdp.send("Profiler.stop");
const self = new Map<string, number>();
const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
const dt = profile.timeDeltas; const counts = new Map<number, number>();
profile.samples.forEach((id: number, i: number) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
for (const [id, us] of counts) { const n: any = byId.get(id); const f = n.callFrame; const key = `${f.functionName || "(anon)"} ${f.url.split("/").pop()}:${f.lineNumber}`; self.set(key, (self.get(key) ?? 0) + us); }
const total = [...self.values()].reduce((a, b) => a + b, 0);
console.log("total ms", Math.round(total / 1000));
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(Math.round(v / 1000), k);
await browser.close();
