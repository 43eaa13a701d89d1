// The page's one bridge to the pipeline worker, started at page load, and the pipeline options
// every call names. The other state modules talk to the worker through it; components never do.
import type { PipelineOptions } from "../core/model";
import { DEFAULT_WATCHDOG_MS, PipelineClient } from "../worker/client";
import type { RuleDoc } from "../core/session/index";
import type { MadeFor } from "../worker/madeFor";
import { getAppState, setAppState } from "./store";

let client: PipelineClient | null = null;

/** The watchdog bound: `?watchdog=<seconds>` in the page address (slow machines, tests), else the default. */
function watchdogBound(): number | undefined {
  const value = typeof location === "undefined" ? null : new URLSearchParams(location.search).get("watchdog");
  const seconds = value === null ? NaN : Number(value);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/** The worker bridge. */
export function pipeline(): PipelineClient {
  client ??= new PipelineClient({
    // Read at each stage, so a changed address applies to the next one.
    watchdogMs: () => watchdogBound() ?? DEFAULT_WATCHDOG_MS,
    // The restarted worker holds no session: the view is closed, the banner says why.
    onRestart: (error) =>
      setAppState({ session: null, analysis: null, analysisError: null, loadStatus: "error", loadingName: null, progress: null, error: error.message }),
    onStarted: () => setAppState({ pipelineStarted: true }),
  });
  return client;
}

/**
 * Starts the worker at page load, so that loading its code (several MB, with the tokenizer's
 * tables) is not paid when the first file is dropped.
 */
export function startPipeline(): void {
  pipeline();
  void loadReadableFiles();
}

/** Where each family of rule ids is documented, asked once of the worker and handed to `apply` (the tooltips that name a rule). */
export async function loadRuleDocs(apply: (rows: RuleDoc[]) => void): Promise<void> {
  try {
    apply(await pipeline().call("ruleDocs", {}));
  } catch {
    // The tooltips then name rules without their pages; the worker's failure has its own banner.
  }
}

/** The agents and files the readers know, asked once of the worker for the page shown before a session is open. */
async function loadReadableFiles(): Promise<void> {
  try {
    setAppState({ readableFiles: await pipeline().call("readableFiles", {}) });
  } catch {
    // The empty page then only says how to open a file; the worker's failure has its own banner.
  }
}

/** The text of a failed call's error, for the banner or the view that asked. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function pipelineOptions(): PipelineOptions {
  const { profile, api, header, leafId, notes, modelOverrides, thread, captures } = getAppState().options;
  const options: PipelineOptions = { api, header, leafId, notes };
  // Only when named, so the worker picks the session's agent's first profile otherwise.
  if (profile !== undefined) options.profile = profile;
  // Only when there are further captures, so the worker's caches keep their keys otherwise.
  if (captures.length > 0) options.captures = captures;
  // Only when a sub-agent thread is shown, so the main thread's cache keys stay as they were.
  if (thread !== null) options.thread = thread;
  // Only when there are edits, so the worker's caches keep their keys otherwise.
  if (Object.keys(modelOverrides).length > 0) options.modelOverrides = modelOverrides;
  return options;
}

/**
 * The key of what the page shows: the session on screen (the open run that read it) and `options`.
 * A view kept under this key belongs to that session only: another session with the same options
 * has another key, so its views are asked for afresh.
 */
export function shownKey(options: PipelineOptions = pipelineOptions()): string {
  return `${getAppState().session?.runId ?? 0}|${JSON.stringify(options)}`;
}

/** Whether a result made for `made` is of the session on screen and the options in force (else it is dropped). */
export function isForShown(made: MadeFor): boolean {
  return getAppState().session?.runId === made.runId && JSON.stringify(pipelineOptions()) === made.options;
}
