// Memory of a headless Chromium page, for the browser benches: the renderer processes' peak
// resident size (/proc) and what each Web Worker's JS heap retains after a full collection (over
// the Chrome DevTools Protocol), and a sampler of every heap over time, to see which part of the
// page a peak comes from.
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
  return rendererStatusMb("VmHWM");
}

/** Resident size now (MB) of this process's browser's largest renderer process. */
function rendererResidentMb(): number {
  return rendererStatusMb("VmRSS");
}

function rendererStatusMb(field: "VmHWM" | "VmRSS"): number {
  let peak = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, "utf8").includes("--type=renderer") || !isOurs(Number(name))) continue;
      const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${name}/status`, "utf8"));
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
  for (const target of targetInfos.filter((info) => info.type === "worker")) {
    const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: target.targetId, flatten: false });
    const call = workerCaller(cdp, sessionId);
    await call("HeapProfiler.collectGarbage");
    const usage = await call<{ usedSize: number }>("Runtime.getHeapUsage");
    await cdp.send("Target.detachFromTarget", { sessionId });
    const name = workerName(target.url);
    heaps[name in heaps ? `${name}#${Object.keys(heaps).filter((key) => key.startsWith(name)).length + 1}` : name] = Math.round(usage.usedSize / 1024 / 1024);
  }
  return heaps;
}

/** A worker's script name, without the build's hash. */
function workerName(url: string): string {
  return path.basename(new URL(url).pathname).replace(/-[\w-]{8}\.js$/, "");
}

/** Protocol message ids, for every worker session of this process. */
let nextMessageId = 1;

/**
 * Protocol calls to a worker attached with `Target.attachToTarget` (flatten: false): a worker is
 * reached by sending it protocol messages, since Playwright's own session for a worker exposes no
 * protocol calls. Each call resolves with the worker's result.
 */
export function workerCaller(cdp: CDPSession, sessionId: string): <T>(method: string, params?: object) => Promise<T> {
  return <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve) => {
      const id = nextMessageId++;
      const onMessage = (event: { sessionId?: string; message: string }) => {
        const reply = JSON.parse(event.message) as { id?: number; result?: T };
        if (event.sessionId !== sessionId || reply.id !== id || !reply.result) return;
        cdp.off("Target.receivedMessageFromTarget", onMessage);
        resolve(reply.result);
      };
      cdp.on("Target.receivedMessageFromTarget", onMessage);
      void cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) });
    });
}

/**
 * Every `intervalMs` until `done()` says so, one line to `log`: seconds since `startedAt`, then
 * for the page and each worker (attached as they appear) its JS heap used / committed and the
 * array buffers it holds (`Runtime.getHeapUsage`, no collection forced), then the renderer's
 * resident size now and its peak, in MiB.
 */
export async function sampleHeaps(cdp: CDPSession, startedAt: number, done: () => Promise<boolean>, log: (line: string) => void, intervalMs = 1000): Promise<void> {
  type Usage = { usedSize: number; totalSize: number; backingStorageSize?: number };
  const mb = (bytes: number | undefined) => (bytes === undefined ? "?" : String(Math.round(bytes / 1024 / 1024)));
  const show = (usage: Usage) => `${mb(usage.usedSize)}/${mb(usage.totalSize)} buffers ${mb(usage.backingStorageSize)}`;
  const workers: { name: string; sessionId: string; call: ReturnType<typeof workerCaller> }[] = [];
  const attached = new Set<string>();
  for (;;) {
    const { targetInfos } = await cdp.send("Target.getTargets");
    // A worker just started may not have its script's address yet: it is attached on a later tick.
    for (const target of targetInfos.filter((info) => info.type === "worker" && info.url !== "" && !attached.has(info.targetId))) {
      attached.add(target.targetId);
      const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: target.targetId, flatten: false });
      workers.push({ name: workerName(target.url), sessionId, call: workerCaller(cdp, sessionId) });
    }
    const finished = await done();
    const parts = [`${Math.round((Date.now() - startedAt) / 1000)} s`, `page ${show((await cdp.send("Runtime.getHeapUsage")) as Usage)}`];
    for (const worker of workers) parts.push(`${worker.name} ${show(await worker.call<Usage>("Runtime.getHeapUsage"))}`);
    parts.push(`renderer ${rendererResidentMb()} (peak ${rendererPeakMb()})`);
    log(parts.join(" · "));
    if (finished) break;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  for (const worker of workers) await cdp.send("Target.detachFromTarget", { sessionId: worker.sessionId });
}
