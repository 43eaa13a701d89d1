import { chromium } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { CHROMIUM_ARGS, findChromium } from "../scripts/chromium.mjs";
const file = process.argv[2]!;
const port = process.argv[3] ?? "4204";
const which = process.argv[4] ?? "pipeline";
const browser = await chromium.launch({ executablePath: findChromium() ?? undefined, args: CHROMIUM_ARGS });
const page = await browser.newPage();
await page.goto(`http://127.0.0.1:${port}/?sample=none&watchdog=600`);
await page.getByTestId("open-file-input").waitFor({ state: "attached" });
await new Promise((r) => setTimeout(r, 2000));
const cdp = await page.context().newCDPSession(page);
await page.getByTestId("open-file-input").setInputFiles(file);
await page.waitForFunction(() => (window as any).__contextscope?.prefixPass === "exact", null, { polling: 200, timeout: 600000 });
await new Promise((r) => setTimeout(r, 3000));
const { targetInfos } = await cdp.send("Target.getTargets");
const target = targetInfos.find((t) => t.type === "worker" && t.url.includes(which))!;
const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: target.targetId, flatten: false });
let nextId = 1;
const chunks: string[] = [];
cdp.on("Target.receivedMessageFromTarget", (event: any) => {
  if (event.sessionId !== sessionId) return;
  const m = JSON.parse(event.message);
  if (m.method === "HeapProfiler.addHeapSnapshotChunk") chunks.push(m.params.chunk);
});
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
await call("HeapProfiler.enable");
await call("HeapProfiler.collectGarbage");
await call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
writeFileSync("/tmp/worker.heapsnapshot", chunks.join(""));
console.log("snapshot bytes", chunks.join("").length);
await browser.close();
