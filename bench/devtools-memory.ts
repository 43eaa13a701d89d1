// Memory of a headless Chromium page, for the browser benches: the renderer processes' peak
// resident size (/proc) and what each Web Worker's JS heap retains after a full collection (over
// the Chrome DevTools Protocol).
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import type { CDPSession } from "@playwright/test";

/** Whether process `pid` descends from this one (another session's browser is not ours). */
function isOurs(pid: number): boolean {
  for (let at = pid, hops = 0; at > 1 && hops < 64; hops++) {
    if (at === process.pid) return true;
    const stat = readFileSync(`/proc/${at}/stat`, "utf8");
    at = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  }
  return false;
}

/** Peak resident size (MB) of this process's browser's renderer processes (the largest: the page's). */
export function rendererPeakMb(): number {
  let peak = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, "utf8").includes("--type=renderer") || !isOurs(Number(name))) continue;
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${name}/status`, "utf8"));
      if (match) peak = Math.max(peak, Number(match[1]) / 1024);
    } catch {
      // The process ended meanwhile.
    }
  }
  return Math.round(peak);
}

/**
 * JS heap (MB) each of the page's Web Workers retains after a full garbage collection, by script
 * name. A worker is reached by attaching to its target and sending it protocol messages, since
 * Playwright's own session for a worker exposes no protocol calls.
 */
export async function workerHeapsMb(cdp: CDPSession): Promise<Record<string, number>> {
  const { targetInfos } = await cdp.send("Target.getTargets");
  const heaps: Record<string, number> = {};
  let nextId = 1;
  for (const target of targetInfos.filter((info) => info.type === "worker")) {
    const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: target.targetId, flatten: false });
    const call = <T>(method: string) => {
      const id = nextId++;
      return new Promise<T>((resolve) => {
        const onMessage = (event: { sessionId?: string; message: string }) => {
          const reply = JSON.parse(event.message) as { id?: number; result?: T };
          if (event.sessionId !== sessionId || reply.id !== id || !reply.result) return;
          cdp.off("Target.receivedMessageFromTarget", onMessage);
          resolve(reply.result);
        };
        cdp.on("Target.receivedMessageFromTarget", onMessage);
        void cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method }) });
      });
    };
    await call("HeapProfiler.collectGarbage");
    const usage = await call<{ usedSize: number }>("Runtime.getHeapUsage");
    await cdp.send("Target.detachFromTarget", { sessionId });
    const name = path.basename(new URL(target.url).pathname).replace(/-[\w-]{8}\.js$/, "");
    heaps[name in heaps ? `${name}#${nextId}` : name] = Math.round(usage.usedSize / 1024 / 1024);
  }
  return heaps;
}
