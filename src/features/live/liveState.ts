// Following the open session's file as its agent writes it. A file opened with a handle (the
// "Watch file" picker, a dropped file's handle, a row of the sessions library) is polled: the
// page asks its handle whether it changed, and when it did the worker reads only the appended
// bytes (src/features/live/liveFile.ts) and answers with the session as it is now, what changed in the
// analysis (the new rows, appended to the one shown) and a notice per new cache break or
// compaction. The new turns join the timeline;
// "Follow" keeps the newest turn selected unless the user moved away from it (and resumes when
// they come back to it). A file rewritten rather than appended to is read again whole, keeping
// the selected turn.
import { create } from "zustand";
import type { LiveNotice } from "./protocol";
import { isStale } from "../../worker/client";
import { analyze, applyAnalysisGrowth } from "../../page/analysis";
import { reloadComposition } from "../prefix/compositionState";
import { loadPrefixReports } from "../../page/views";
import { openDatabaseSession, openSource } from "../open/openSession";
import { selectIndex } from "../../page/selection";
import { getAppState, setAppState } from "../../page/store";
import { errorMessage, pipeline, pipelineOptions } from "../../page/workerBridge";
import { canFollowFiles, pickFileHandle } from "./fileSystemAccess";

/**
 * How often the followed files are asked whether they changed. The page asks their handles itself
 * (a millisecond or two) and calls the worker only when one did: a worker busy with the open's
 * background passes answers a call in about 80 ms at 1 GB, so asking it every time would cost
 * more than the check.
 */
const POLL_MS = 200;
/** Notices kept on screen at most (the newest). */
const MAX_NOTICES = 5;

export interface LiveNoticeShown extends LiveNotice {
  id: number;
  fileName: string;
}

export interface LiveState {
  /** The file followed (the open session's), null when the open session is not followed. */
  fileName: string | null;
  /** Keep the newest turn selected as turns arrive. */
  follow: boolean;
  notices: LiveNoticeShown[];
  /** When the file last grew, and how many turns came then. */
  lastGrowth: { at: number; turns: number; kind: "appended" | "rewritten" } | null;
  /** The last poll failed (the file was removed, permission withdrawn): why. */
  error: string | null;
  /** The files dropped in a browser that cannot follow files (the bar says so while one of them is the session shown), and whether they came in a folder. */
  cannotFollow: { names: string[]; folder: boolean } | null;
}

export const useLiveStore = create<LiveState>(() => ({ fileName: null, follow: true, notices: [], lastGrowth: null, error: null, cannotFollow: null }));

/** How the page took the followed session's growths: the new rows appended to the analysis shown, or the whole analysis again (for the tests' hook). */
const growthCounts = { appended: 0, whole: 0 };

export function liveGrowthCounts(): { appended: number; whole: number } {
  return { ...growthCounts };
}

let timer: ReturnType<typeof setTimeout> | null = null;
let followedSession: unknown = null;
let nextNoticeId = 1;

export function setFollow(follow: boolean): void {
  useLiveStore.setState({ follow });
  if (follow) selectNewestTurn();
}

export function dismissNotice(id: number): void {
  useLiveStore.setState((state) => ({ notices: state.notices.filter((notice) => notice.id !== id) }));
}

/** Stops following (another session was opened). */
function stopFollowing(): void {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  followedSession = null;
  followedHandles = [];
  followedStamps = [];
  useLiveStore.setState({ fileName: null, notices: [], lastGrowth: null, error: null });
}

/** Opens `handle`'s file and follows it as it grows. */
export function openLiveHandle(handle: FileSystemFileHandle): Promise<void> {
  return openLiveHandles([handle]);
}

/** The handles of the followed files (to open another session of a followed database). */
let followedHandles: FileSystemFileHandle[] = [];
/** Each followed file's size and last change when the worker was last asked about it (none before the first poll). */
let followedStamps: string[] = [];

function stampOf(file: File): string {
  return `${file.size}:${file.lastModified}`;
}

/** The followed files' stamps now, and whether any changed since the worker last read them (a file that cannot be asked counts as changed: the worker's poll says why). */
async function followedChanges(): Promise<{ changed: boolean; stamps: string[] }> {
  try {
    const stamps = await Promise.all(followedHandles.map(async (handle) => stampOf(await handle.getFile())));
    return { changed: stamps.some((stamp, index) => stamp !== followedStamps[index]), stamps };
  } catch {
    return { changed: true, stamps: [] };
  }
}

/**
 * Opens files read together and follows them: a database with its -wal (read again whole when
 * either changes, session `sessionId` or the default kept), a session with its sub-agent files.
 * One file without a session choice is followed by its appended bytes.
 */
export async function openLiveHandles(handles: FileSystemFileHandle[], sessionId: string | null = null): Promise<void> {
  stopFollowing();
  let files: File[];
  try {
    files = await Promise.all(handles.map((handle) => handle.getFile()));
  } catch (error) {
    setAppState({ error: `Could not read "${handles[0]?.name ?? "the file"}": ${errorMessage(error)}` });
    return;
  }
  const main = files[0];
  if (!main) return;
  const before = getAppState().session;
  if (files.length === 1 && sessionId === null) await openSource({ kind: "file", file: main, handle: handles[0]! }, main.name);
  else await openSource({ kind: "files", files, handles, sessionId }, main.name);
  const state = getAppState();
  if (state.loadStatus !== "ready" || !state.session || state.session === before) return;
  followedSession = state.session;
  followedHandles = handles;
  // None yet: the first poll asks the worker, which gets ready for the first append meanwhile.
  followedStamps = [];
  // Linked files are named by their main session (the agent picks it, whatever the order given).
  const fileName = files.length > 1 && !state.session.database ? state.session.fileName : main.name;
  useLiveStore.setState({ fileName, cannotFollow: null, error: null });
  // A session being written is watched from its newest turn.
  if (useLiveStore.getState().follow) selectNewestTurn();
  schedule();
}

/** The session picker of a database: another of its sessions, still followed when the database is. */
export function openFollowedDatabaseSession(sessionId: string): Promise<void> {
  if (useLiveStore.getState().fileName !== null && followedHandles.length > 0) return openLiveHandles(followedHandles, sessionId);
  return openDatabaseSession(sessionId);
}

/** The "Watch file" button: the file picker, then the file opened and followed. */
export async function pickAndFollow(): Promise<void> {
  const handle = await pickFileHandle();
  if (handle) await openLiveHandle(handle);
}

/** SQLite's side files beside a database (`opencode.db-wal`, `state.db-shm`). */
const DATABASE_SIDE_FILE = /-(wal|shm)$/i;

/**
 * The order in which dropped files are followed together, or null when they are not a set this
 * page follows: a database with its -wal (and -shm), the database first; session files (`.jsonl`:
 * a session with its sub-agent files).
 */
function followedSet(names: readonly string[]): number[] | null {
  const databases = names.flatMap((name, index) => (DATABASE_SIDE_FILE.test(name) ? [] : [index]));
  if (databases.length === 1 && names.some((name) => DATABASE_SIDE_FILE.test(name))) {
    const db = names[databases[0]!]!;
    if (!names.every((name) => name === db || name === `${db}-wal` || name === `${db}-shm`)) return null;
    return [databases[0]!, ...names.flatMap((name, index) => (name === `${db}-wal` ? [index] : []))];
  }
  if (names.every((name) => name.toLowerCase().endsWith(".jsonl"))) return names.map((_, index) => index);
  return null;
}

/**
 * Dropped files: followed when the drop gave their handles and they are a session file (a `.json`
 * file may be a captured request, opened the usual way), a database with its -wal, or session
 * files read together; true when they are. Where the browser gives no handle, the bar says the
 * files are shown as dropped and how to see them grow. `folder`: they are a dropped folder's files
 * (its handle, if any, was the drop's; a folder the browser gave a handle for opens before this).
 */
export async function openDroppedLive(files: readonly File[], handlePromises: readonly Promise<FileSystemHandle | null>[], folder = false): Promise<boolean> {
  const handles = !folder && files.length === handlePromises.length ? await Promise.all(handlePromises) : [];
  const fileHandles = handles.every((handle) => handle?.kind === "file") ? (handles as FileSystemFileHandle[]) : [];
  if (fileHandles.length === 1 && !files[0]!.name.toLowerCase().endsWith(".json")) {
    void openLiveHandle(fileHandles[0]!);
    return true;
  }
  const order = fileHandles.length > 1 ? followedSet(files.map((file) => file.name)) : null;
  if (order) {
    void openLiveHandles(order.map((index) => fileHandles[index]!));
    return true;
  }
  stopFollowing();
  const withoutHandles = handles.length === 0 || handles.some((handle) => handle === null);
  useLiveStore.setState({ cannotFollow: withoutHandles && !canFollowFiles() ? { names: files.map((file) => file.name), folder } : null });
  return false;
}

function schedule(): void {
  if (timer !== null) clearTimeout(timer);
  timer = setTimeout(() => void poll(), POLL_MS);
}

/** True when the selected item is the timeline's last turn (or nothing is selected). */
function atNewestTurn(): boolean {
  const state = getAppState();
  const timeline = state.analysis?.timeline ?? [];
  if (state.selectedIndex === null) return true;
  let last = -1;
  timeline.forEach((item, index) => {
    if (item.kind === "turn") last = index;
  });
  return state.selectedIndex >= last;
}

function selectNewestTurn(): void {
  const timeline = getAppState().analysis?.timeline ?? [];
  let last = -1;
  timeline.forEach((item, index) => {
    if (item.kind === "turn") last = index;
  });
  if (last >= 0) selectIndex(last);
}

async function poll(): Promise<void> {
  timer = null;
  // Another session replaced the followed one: stop.
  if (getAppState().session !== followedSession) return stopFollowing();
  // While the user reads a request being built, or a pass runs, the poll waits its turn like any call.
  try {
    const { changed, stamps } = await followedChanges();
    if (getAppState().session !== followedSession) return stopFollowing();
    if (!changed) return schedule();
    const options = pipelineOptions();
    const result = await pipeline().call("livePoll", { options }, "live-poll");
    if (getAppState().session !== followedSession) return stopFollowing();
    // Read up to these stamps at least (a change made meanwhile is seen on the next poll, and the worker reads only what it has not).
    if (stamps.length === followedHandles.length) followedStamps = stamps;
    if (result.status === "not-followed") return stopFollowing();
    if (result.status === "appended" || result.status === "rewritten") {
      const status = result.status;
      const wasAtNewest = atNewestTurn();
      const before = getAppState().analysis?.turns.length ?? 0;
      setAppState({ session: result.summary });
      followedSession = result.summary;
      // The new rows are appended to the analysis shown; the whole analysis only when they cannot be.
      if (result.delta && applyAnalysisGrowth(result.delta, JSON.stringify(options))) growthCounts.appended++;
      else {
        growthCounts.whole++;
        await analyze({ keepTurn: true });
      }
      // The passes over every turn (prefix rows, exact counts, the chart) go on with the new turns.
      void loadPrefixReports({ again: true });
      reloadComposition();
      const after = getAppState().analysis?.turns.length ?? 0;
      if (useLiveStore.getState().follow && wasAtNewest) selectNewestTurn();
      const fileName = result.summary.fileName;
      const notices = result.notices.map((notice) => ({ ...notice, id: nextNoticeId++, fileName }));
      useLiveStore.setState((state) => ({
        error: null,
        lastGrowth: { at: Date.now(), turns: Math.max(0, after - before), kind: status },
        notices: [...state.notices, ...notices].slice(-MAX_NOTICES),
      }));
    }
  } catch (error) {
    if (!isStale(error)) useLiveStore.setState({ error: errorMessage(error) });
    if (getAppState().session !== followedSession) return stopFollowing();
  }
  schedule();
}
