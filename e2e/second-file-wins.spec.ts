// Journey: drop a large session (~40 MB, built in the page so it never crosses the test
// protocol), and while it is still being read drop the small recorded fixture: the second file
// wins. It is shown with its 15 turns and the large one, whose read was cancelled, never
// replaces it afterwards. When the second file arrives the large one may already show its first
// turns (a provisional view of the part read so far), or nothing yet: either is right.
import type { Page } from "@playwright/test";
import { appView, baseName, expect, fixtureText, openEmptyApp, PI_OPENAI_SESSION, test, waitForRequestTurn, waitForSession } from "./support";

const SESSION_NAME = baseName(PI_OPENAI_SESSION);
const LARGE_NAME = "large-session.jsonl";
const LARGE_BYTES = 40 * 1024 * 1024;

interface SecondDropObservation {
  largeBytes: number;
  /** App state when the second file was dropped. */
  status: string;
  /** null, or the large file's name when its first turns (read so far) were already shown. */
  fileName: string | null;
  loadingText: string;
  percent: number;
}

/**
 * In the page: builds a valid pi session of about `largeBytes` (header, then rounds of user →
 * assistant tool call → tool result → assistant answer), drops it, waits until the worker has
 * reported reading part of it, then drops `small`. Returns what the page showed at that moment.
 */
function dropLargeThenSmall(page: Page, small: { name: string; text: string }): Promise<SecondDropObservation> {
  return page.evaluate(
    async ({ largeName, largeBytes, small }) => {
      const lines: string[] = [
        JSON.stringify({ type: "session", version: 3, id: "0190a000-0000-7000-8000-000000000001", timestamp: "2026-01-05T09:00:00.000Z", cwd: "/home/dev/big" }),
        JSON.stringify({ type: "model_change", id: "m0000000", parentId: null, timestamp: "2026-01-05T09:00:00.001Z", provider: "openai", modelId: "gpt-4.1" }),
      ];
      const filler = "2026-01-05 09:00:00 INFO worker heartbeat ok; queue depth 3; latency 12 ms\n".repeat(24);
      let size = lines[0]!.length + lines[1]!.length;
      let parent = "m0000000";
      let clock = Date.parse("2026-01-05T09:00:01.000Z");
      for (let round = 0; size < largeBytes; round += 1) {
        const entry = (kind: string, message: Record<string, unknown>) => {
          const id = `${kind}${round.toString(16).padStart(7, "0")}`;
          clock += 1000;
          const line = JSON.stringify({ type: "message", id, parentId: parent, timestamp: new Date(clock).toISOString(), message: { ...message, timestamp: clock } });
          parent = id;
          size += line.length + 1;
          lines.push(line);
        };
        const call = `call_${round}`;
        const usage = { input: 1000 + round, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 1020 + round, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
        const assistant = { api: "openai-completions", provider: "openai", model: "gpt-4.1", usage };
        entry("u", { role: "user", content: [{ type: "text", text: `Check the worker log, part ${round}.` }] });
        entry("a", { role: "assistant", content: [{ type: "toolCall", id: call, name: "bash", arguments: { command: `tail -n 24 log.${round}` } }], ...assistant, stopReason: "toolUse" });
        entry("t", { role: "toolResult", toolCallId: call, toolName: "bash", content: [{ type: "text", text: filler }], isError: false });
        entry("b", { role: "assistant", content: [{ type: "text", text: `Part ${round} looks healthy.` }], ...assistant, stopReason: "stop" });
      }
      const large = new File([lines.join("\n") + "\n"], largeName);
      lines.length = 0;

      const drop = (file: File) => {
        const transfer = new DataTransfer();
        transfer.items.add(file);
        for (const type of ["dragenter", "dragover", "drop"]) {
          document.body.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
        }
      };
      drop(large);
      // Wait (in the page, no round trip) until the worker has reported progress on the file.
      const progress = () => document.querySelector<HTMLElement>('[data-testid="load-progress"]');
      const percent = () => Number(progress()?.getAttribute("aria-valuenow") ?? "0");
      const deadline = performance.now() + 20_000;
      while (!(percent() > 0) && performance.now() < deadline) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
      const state = (window as unknown as { __contextscope: { status: string; fileName: string | null } }).__contextscope;
      const observation = {
        largeBytes: large.size,
        status: state.status,
        fileName: state.fileName,
        loadingText: progress()?.textContent ?? "",
        percent: percent(),
      };
      drop(new File([small.text], small.name));
      return observation;
    },
    { largeName: LARGE_NAME, largeBytes: LARGE_BYTES, small },
  );
}

/** In the page: samples the published state every animation frame for `ms`, returns what changed. */
function watchState(page: Page, ms: number): Promise<{ fileNames: string[]; statuses: string[]; errors: string[] }> {
  return page.evaluate(async (duration) => {
    const seen = { fileNames: new Set<string>(), statuses: new Set<string>(), errors: new Set<string>() };
    const end = performance.now() + duration;
    while (performance.now() < end) {
      const state = (window as unknown as { __contextscope: { status: string; fileName: string | null; error: string | null } }).__contextscope;
      seen.fileNames.add(String(state.fileName));
      seen.statuses.add(state.status);
      if (state.error) seen.errors.add(state.error);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    return { fileNames: [...seen.fileNames], statuses: [...seen.statuses], errors: [...seen.errors] };
  }, ms);
}

test("a second file dropped while the first is loading wins", async ({ page }) => {
  await openEmptyApp(page);
  const seen = await dropLargeThenSmall(page, { name: SESSION_NAME, text: fixtureText(PI_OPENAI_SESSION) });

  // The large file was really being read when the second one arrived.
  expect(seen.largeBytes).toBeGreaterThanOrEqual(LARGE_BYTES);
  expect(seen.status).toBe("loading");
  // Nothing shown yet, or only the large file's first turns: still loading, so never its whole file.
  expect([null, LARGE_NAME]).toContain(seen.fileName);
  expect(seen.loadingText).toContain(`Reading ${LARGE_NAME}`);
  expect(seen.percent).toBeGreaterThan(0);
  expect(seen.percent).toBeLessThan(100);

  // The second file is the one shown.
  await waitForSession(page, SESSION_NAME);
  expect(await appView(page)).toMatchObject({ ready: true, status: "ready", fileName: SESSION_NAME, turnCount: 15, error: null });
  await expect(page.getByTestId("file-name")).toHaveText(SESSION_NAME);
  await expect(page.getByTestId("load-progress")).toHaveCount(0);
  await expect(page.getByTestId("timeline-row")).toHaveCount(17);
  await waitForRequestTurn(page, 1);

  // And it stays shown: the large file's cancelled read never lands (watched long enough for it
  // to have finished reading had it not been cancelled: alone, it reads in about 4 s here).
  const after = await watchState(page, 5_000);
  expect(after).toEqual({ fileNames: [SESSION_NAME], statuses: ["ready"], errors: [] });
  await expect(page.getByTestId("error-banner")).toHaveCount(0);
  expect((await appView(page)).turnCount).toBe(15);
});
