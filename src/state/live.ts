// Following the open session's file as its agent writes it. A file opened with a handle (the
// "Watch file" picker, a dropped file's handle, a row of the sessions library) is polled: the
// worker reads only the appended bytes (src/worker/liveFile.ts) and answers with the session as it
// is now and a notice per new cache break or compaction. The new turns join the timeline;
// "Follow" keeps the newest turn selected unless the user moved away from it (and resumes when
// they come back to it). A file rewritten rather than appended to is read again whole, keeping
// the selected turn.
import { create } from "zustand";
import type { LiveNotice } from "../app/viewTypes";
import { isStale } from "../worker/client";
import { analyze } from "./analysis";
import { reloadComposition } from "./composition";
import { loadPrefixReports } from "./views";
import { openSource } from "./open";
import { selectIndex } from "./selection";
import { getAppState, setAppState } from "./store";
import { errorMessage, pipeline, pipelineOptions } from "./workerBridge";
import { canFollowFiles, pickFileHandle } from "./fileSystemAccess";

/** How often the file is asked whether it grew. */
const POLL_MS = 500;
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
  /** The file dropped in a browser that cannot follow a file (the bar says so while it is the session shown). */
  cannotFollow: string | null;
}

export const useLiveStore = create<LiveState>(() => ({ fileName: null, follow: true, notices: [], lastGrowth: null, error: null, cannotFollow: null }));

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
  useLiveStore.setState({ fileName: null, notices: [], lastGrowth: null, error: null });
}

/** Opens `handle`'s file and follows it as it grows. */
export async function openLiveHandle(handle: FileSystemFileHandle): Promise<void> {
  stopFollowing();
  let file: File;
  try {
    file = await handle.getFile();
  } catch (error) {
    setAppState({ error: `Could not read "${handle.name}": ${errorMessage(error)}` });
    return;
  }
  await openSource({ kind: "file", file, handle }, file.name);
  const state = getAppState();
  if (state.loadStatus !== "ready" || state.session?.fileName !== file.name) return;
  followedSession = state.session;
  useLiveStore.setState({ fileName: file.name, cannotFollow: null, error: null });
  // A session being written is watched from its newest turn.
  if (useLiveStore.getState().follow) selectNewestTurn();
  schedule();
}

/** The "Watch file" button: the file picker, then the file opened and followed. */
export async function pickAndFollow(): Promise<void> {
  const handle = await pickFileHandle();
  if (handle) await openLiveHandle(handle);
}

/**
 * A dropped file: followed when the drop gave its handle and it is a session file (a `.json`
 * file may be a captured request, opened the usual way); true when it is. Where the browser
 * gives no handle, the bar says the file is shown as dropped and offers to open it again.
 */
export async function openDroppedLive(file: File, handlePromise: Promise<FileSystemHandle | null>): Promise<boolean> {
  const handle = await handlePromise;
  if (handle && handle.kind === "file" && !file.name.toLowerCase().endsWith(".json")) {
    void openLiveHandle(handle as FileSystemFileHandle);
    return true;
  }
  stopFollowing();
  useLiveStore.setState({ cannotFollow: !handle && !canFollowFiles() ? file.name : null });
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
    const result = await pipeline().call("livePoll", { options: pipelineOptions() }, "live-poll");
    if (getAppState().session !== followedSession) return stopFollowing();
    if (result.status === "not-followed") return stopFollowing();
    if (result.status === "appended" || result.status === "rewritten") {
      const status = result.status;
      const wasAtNewest = atNewestTurn();
      const before = getAppState().analysis?.turns.length ?? 0;
      setAppState({ session: result.summary });
      followedSession = result.summary;
      await analyze({ keepTurn: true });
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
