import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "../scripts/chromium.mjs";
const file = process.argv[2]!;
const port = process.argv[3] ?? "4204";
const browser = await chromium.launch({ executablePath: findChromium() ?? undefined, args: CHROMIUM_ARGS });
const page = await browser.newPage();
await page.goto(`http://127.0.0.1:${port}/?sample=none&watchdog=600`);
await page.getByTestId("open-file-input").waitFor({ state: "attached" });
await new Promise((r) => setTimeout(r, 2000));
const cdp = await page.context().newCDPSession(page);
let sessionId = "";
async function attach() {
  for (;;) {
    const { targetInfos } = await cdp.send("Target.getTargets");
    const target = targetInfos.find((t) => t.type === "worker" && t.url.includes(process.argv[4] ?? "pipeline"));
    if (target) { sessionId = (await cdp.send("Target.attachToTarget", { targetId: target.targetId, flatten: false })).sessionId; return; }
    await new Promise((r) => setTimeout(r, 20));
  }
}
let nextId = 1;
const call = <T>(method: string, params: object = {}) => {
  const id = nextId++;
  return new Promise<T>((resolve) => {
    const onMessage = (event: { sessionId?: string; message: string }) => {
      const reply = JSON.parse(event.message) as { id?: number; result?: T };
      if (event.sessionId !== sessionId || reply.id !== id) return;
      cdp.off("Target.receivedMessageFromTarget", onMessage);
      resolve(reply.result as T);
    };
    cdp.on("Target.receivedMessageFromTarget", onMessage);
    void cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) });
  });
};
await page.getByTestId("open-file-input").setInputFiles(file);
await page.waitForFunction(() => (window as any).__contextscope?.ready === true, null, { polling: 100, timeout: 600000 });
await attach();
await call("HeapProfiler.enable");
await call("HeapProfiler.startSampling", { samplingInterval: 32768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
await page.waitForFunction(() => (window as any).__contextscope?.prefixPass === "exact", null, { polling: 200, timeout: 600000 });
const { profile } = await call<any>("HeapProfiler.stopSampling");
const self = new Map<string, number>();
const walk = (node: any, stack: string[]) => {
  const name = `${node.callFrame.functionName || "(anon)"}:${node.callFrame.lineNumber}`;
  const s = [...stack, name];
  if (node.selfSize > 0) { const key = s.slice(-5).join(" < "); self.set(key, (self.get(key) ?? 0) + node.selfSize); }
  for (const c of node.children) walk(c, s);
};
walk(profile.head, []);
let total = 0; for (const v of self.values()) total += v;
console.log("total MB", (total / 1e6).toFixed(1));
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log((v / 1e6).toFixed(1).padStart(7), k.split(" < ").reverse().join(" < "));
await browser.close();
