// The last session survives a reload: the files it was read from are kept in this page's own
// origin storage (IndexedDB, as Blobs: a file of hundreds of MB is stored as bytes on disk by the
// browser, never as a string in memory), with the view shown (thread, turn, tab, profile, provider
// shape, notes, branch). Nothing is sent anywhere. On a visit whose address names no sample and no share
// link, the page reopens it (src/main.tsx), the address's `?turn=…` winning over the kept view.
// Samples and share links are not kept (their address reopens them) and leave the kept session as
// it is. "Forget this session" deletes it. One session is kept: opening another file replaces it.
import { createStore, del, get, set, type UseStore } from "idb-keyval";
import { create } from "zustand";
import type { OpenSource, SessionSummary } from "./protocol";
import { selectedTurnNumber } from "../../page/selectors";
import { useAppStore, type AppState } from "../../page/store";
import { centerTab, type RequestedView } from "../../page/urlState";

/** A kept file: its bytes as a Blob (a dropped File is one), its name and date. */
interface KeptFile {
  name: string;
  blob: Blob;
  lastModified: number;
}

interface KeptSource {
  version: 1;
  /** Files read together (one session file, a database with its -wal, a transcript with its sub-agents), or a reproduction bundle. */
  kind: "files" | "share-bundle";
  files: KeptFile[];
  /** The database session shown, when the files are a database. */
  sessionId: string | null;
  /** What the loading bar said while it was read. */
  name: string;
  bytes: number;
  keptAt: string;
}

/** The view kept beside the files, written as the user moves (a small record of its own, so the files are written once). */
type KeptView = Pick<RequestedView, "turn" | "tab" | "profile" | "provider" | "notes" | "leafId" | "thread">;

const SOURCE_KEY = "session";
const VIEW_KEY = "view";

let store: UseStore | null = null;
/** The page's own IndexedDB database "contextscope", object store "kept-session"; null where the browser has none. */
function keptStore(): UseStore | null {
  if (typeof indexedDB === "undefined") return null;
  store ??= createStore("contextscope", "kept-session");
  return store;
}

export interface KeptSessionState {
  /** The session shown is the kept one. */
  shown: boolean;
  status: "idle" | "saving" | "kept" | "failed";
  bytes: number;
  /** Why the session could not be kept (storage full or unavailable). */
  error: string | null;
}

export const useKeptSessionStore = create<KeptSessionState>()(() => ({ shown: false, status: "idle", bytes: 0, error: null }));

/** The summary of the session shown when it is the kept one (its view is then written as it changes). */
let keptSummary: SessionSummary | null = null;
/** The source being reopened from storage: opening it writes nothing again. */
let restoring: OpenSource | null = null;

function keptFiles(source: OpenSource): { kind: KeptSource["kind"]; files: KeptFile[]; sessionId: string | null } | null {
  const now = Date.now();
  switch (source.kind) {
    case "file":
      return { kind: "files", files: [{ name: source.file.name, blob: source.file, lastModified: source.file.lastModified }], sessionId: null };
    case "files":
      return { kind: "files", files: source.files.map((file) => ({ name: file.name, blob: file, lastModified: file.lastModified })), sessionId: source.sessionId ?? null };
    case "text":
      return { kind: "files", files: [{ name: source.name, blob: new Blob([source.text], { type: "text/plain" }), lastModified: now }], sessionId: null };
    case "bytes":
      return { kind: "files", files: [{ name: source.name, blob: new Blob([source.bytes]), lastModified: now }], sessionId: null };
    case "share-bundle":
      return { kind: "share-bundle", files: [{ name: source.name, blob: typeof source.data === "string" ? new Blob([source.data]) : source.data, lastModified: now }], sessionId: null };
    default:
      // A sample or a share link: its address reopens it.
      return null;
  }
}

function viewOf(state: AppState): KeptView {
  const { profile, api, notes, leafId, thread } = state.options;
  return { turn: selectedTurnNumber(state), tab: state.activeTab, profile, provider: api, notes, leafId, thread };
}

/** Called once a source is open and shown as `summary`: keeps it when it came from the user's files. */
export async function keepOpenedSource(source: OpenSource, name: string, summary: SessionSummary): Promise<void> {
  if (source === restoring) {
    restoring = null;
    keptSummary = summary;
    useKeptSessionStore.setState({ shown: true, status: "kept", error: null });
    return;
  }
  const kept = keptFiles(source);
  const target = keptStore();
  if (!kept || !target) {
    keptSummary = null;
    useKeptSessionStore.setState({ shown: false, status: "idle", error: null });
    return;
  }
  const bytes = kept.files.reduce((sum, file) => sum + file.blob.size, 0);
  keptSummary = summary;
  useKeptSessionStore.setState({ shown: true, status: "saving", bytes, error: null });
  const record: KeptSource = { version: 1, ...kept, name, bytes, keptAt: new Date().toISOString() };
  try {
    await del(VIEW_KEY, target);
    await set(SOURCE_KEY, record, target);
    lastView = "";
    if (keptSummary === summary) useKeptSessionStore.setState({ status: "kept" });
  } catch (error) {
    // Storage full or refused (a private window): the session is shown, but will not survive a reload.
    keptSummary = null;
    await del(SOURCE_KEY, target).catch(() => undefined);
    useKeptSessionStore.setState({ shown: true, status: "failed", error: error instanceof Error ? error.message : String(error) });
  }
}

/** Deletes the kept session (files and view); the session shown stays on screen. */
export async function forgetKeptSession(): Promise<void> {
  keptSummary = null;
  const target = keptStore();
  if (target) await Promise.all([del(SOURCE_KEY, target), del(VIEW_KEY, target)]).catch(() => undefined);
  useKeptSessionStore.setState({ shown: false, status: "idle", bytes: 0, error: null });
}

/** The kept session as a source to open, with its view; null when none is kept (or storage is unavailable). */
export async function readKeptSession(): Promise<{ source: OpenSource; name: string; view: RequestedView; bytes: number } | null> {
  const target = keptStore();
  if (!target) return null;
  try {
    const [record, view] = await Promise.all([get<KeptSource>(SOURCE_KEY, target), get<KeptView>(VIEW_KEY, target)]);
    if (!record || record.version !== 1 || !Array.isArray(record.files) || record.files.length === 0) return null;
    const files = record.files.map((file) => new File([file.blob], file.name, { lastModified: file.lastModified }));
    const first = files[0] as File;
    const source: OpenSource =
      record.kind === "share-bundle"
        ? { kind: "share-bundle", name: first.name, data: first }
        : files.length === 1
          ? { kind: "file", file: first }
          : { kind: "files", files, sessionId: record.sessionId };
    restoring = source;
    useKeptSessionStore.setState({ bytes: record.bytes });
    return { source, name: record.name, view: checkedView(view), bytes: record.bytes };
  } catch {
    return null;
  }
}

/** The kept view with only values of the right kind (a record written by an older page may differ). */
function checkedView(view: KeptView | undefined): RequestedView {
  if (typeof view !== "object" || view === null) return {};
  const checked: RequestedView = {};
  if (typeof view.turn === "number" && Number.isInteger(view.turn) && view.turn > 0) checked.turn = view.turn;
  const tab = centerTab(view.tab);
  if (tab) checked.tab = tab;
  if (typeof view.profile === "string") checked.profile = view.profile;
  if (view.provider === null || typeof view.provider === "string") checked.provider = view.provider;
  if (typeof view.notes === "boolean") checked.notes = view.notes;
  if (view.leafId === null || typeof view.leafId === "string") checked.leafId = view.leafId;
  if (view.thread === null || typeof view.thread === "string") checked.thread = view.thread;
  return checked;
}

/** The kept session could not be opened again (the page has changed, the bytes are damaged): it is forgotten, so the next visit does not fail the same way. */
export function keptSourceFailed(source: OpenSource): void {
  if (source !== restoring) return;
  restoring = null;
  void forgetKeptSession();
}

let lastView = "";
let viewTimer: ReturnType<typeof setTimeout> | null = null;

/** Writes the kept session's view as the user moves (at most every half second). */
export function startKeptViewSync(): void {
  useAppStore.subscribe((state) => {
    if (keptSummary === null || state.session !== keptSummary || state.loadStatus === "loading" || state.selectedIndex === null) return;
    const view = viewOf(state);
    const text = JSON.stringify(view);
    if (text === lastView) return;
    lastView = text;
    if (viewTimer !== null) clearTimeout(viewTimer);
    viewTimer = setTimeout(() => {
      viewTimer = null;
      const target = keptStore();
      if (target && keptSummary !== null) void set(VIEW_KEY, view, target).catch(() => undefined);
    }, 500);
  });
}
