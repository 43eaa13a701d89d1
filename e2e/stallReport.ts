// When a journey times out, what the page's main thread was running: the debugger interrupts it
// and the call stack (function, script position, and the source around each position, since the
// production bundle is minified) is printed and attached to the test's report. A timed-out click
// otherwise says only "performing click action", which cannot tell a busy page from a stuck one.
import type { CDPSession, Page, TestInfo } from "@playwright/test";

interface PausedFrame {
  functionName: string;
  url: string;
  location: { scriptId: string; lineNumber: number; columnNumber?: number };
}

const FRAMES = 25;
const EXCERPT = 80;

/**
 * Attaches the debugger before the journey runs: enabling it is handled by the page's main thread,
 * so it would wait behind a stuck task, while a pause sent later interrupts one.
 */
export async function watchForStall(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Debugger.enable");
  return cdp;
}

export async function reportStall(page: Page, cdp: CDPSession, testInfo: TestInfo): Promise<void> {
  if (page.isClosed()) return;
  try {
    const paused = new Promise<PausedFrame[] | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), 5_000);
      cdp.once("Debugger.paused", (event) => {
        clearTimeout(timer);
        resolve((event as { callFrames: PausedFrame[] }).callFrames);
      });
    });
    await cdp.send("Debugger.pause");
    const frames = await paused;
    const lines: string[] = [];
    if (frames === null) lines.push("the page's main thread did not pause within 5 s");
    else if (frames.length === 0) lines.push("the page's main thread was idle");
    const sources = new Map<string, string>();
    for (const frame of (frames ?? []).slice(0, FRAMES)) {
      const { scriptId, lineNumber, columnNumber = 0 } = frame.location;
      if (!sources.has(scriptId)) {
        const { scriptSource } = (await cdp.send("Debugger.getScriptSource", { scriptId })) as { scriptSource: string };
        sources.set(scriptId, scriptSource);
      }
      const sourceLine = (sources.get(scriptId) ?? "").split("\n")[lineNumber] ?? "";
      const excerpt = sourceLine.slice(Math.max(0, columnNumber - EXCERPT / 2), columnNumber + EXCERPT / 2);
      lines.push(`${frame.functionName || "(anonymous)"} ${frame.url.split("/").pop()}:${lineNumber + 1}:${columnNumber + 1}  ${JSON.stringify(excerpt)}`);
    }
    if (frames !== null) await cdp.send("Debugger.resume");
    const report = lines.join("\n");
    console.log(`The page's main thread when the journey timed out:\n${report}`);
    await testInfo.attach("main-thread-stack", { body: report, contentType: "text/plain" });
  } catch (error) {
    console.log(`No stack of the page's main thread: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
