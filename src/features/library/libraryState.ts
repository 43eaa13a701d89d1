// The sessions library: a folder opened with the directory picker (or remembered from an earlier
// visit) listed as a table of its sessions. The folder is walked at once and every candidate file
// becomes a row with what its metadata says (name, size, last change); workers sized to the
// machine then read the sessions, most recently changed first, and fill in the rest (agent,
// project, turns, compactions, breaks, sub-agents, cost). A database's -wal, a Claude Code
// session's sub-agent files (`<session>/subagents/`) and a Codex rollout's child rollouts (found
// once read: a child names its parent thread) belong to their session's row: read and opened
// with it, never rows of their own. The folder is walked again every few seconds while
// the library is open, so new and grown sessions update their rows. Nothing is uploaded: the files
// are read by the page's own workers.
import { create } from "zustand";
import { isDatabaseFileName, isFollowedName, SUBAGENT_FOLDER } from "../../core/intake/folder";
import type { LibraryRowFacts } from "../../app/libraryRow";
import type { LibraryJob, LibraryReply } from "./libraryProtocol";
import { ensureReadPermission, folderEntries, pickFolderHandle } from "../../page/fileSystemAccess";
import { forgetFolder, rememberFolder, rememberedFolder } from "./libraryFolderMemory";
import { setAppState } from "../../page/store";
import { errorMessage } from "../../page/workerBridge";

export interface LibraryRow {
  id: number;
  /** Path inside the folder, with "/" between parts. */
  path: string;
  size: number;
  /** Last change of the file (ms since 1970), from its metadata (the latest of the files read with it). */
  modified: number;
  /** Files of its sub-agent threads read with it (Claude Code's `<session>/subagents/`). */
  subAgentFiles: number;
  status: "waiting" | "reading" | "done" | "failed";
  facts: LibraryRowFacts | null;
  error: string | null;
}

export interface LibraryState {
  /** The table is on screen. */
  open: boolean;
  folderName: string | null;
  rows: LibraryRow[];
  /** Files read so far and to read (the progress line). */
  read: number;
  toRead: number;
  /** Files that turned out not to be sessions (left out of the table). */
  skipped: number;
  /** Files that are an agent's files beside its sessions (Gemini CLI's projects.json), read with the sessions near them. */
  companions: number;
  /** A folder from an earlier visit that can be opened again (its name), once the user allows it. */
  remembered: string | null;
  /** Milliseconds from opening the folder to the first rows, and to the last row read (for the benchmark). */
  firstRowsMs: number | null;
  allRowsMs: number | null;
  error: string | null;
}

export const useLibraryStore = create<LibraryState>(() => ({
  open: false,
  folderName: null,
  rows: [],
  read: 0,
  toRead: 0,
  skipped: 0,
  companions: 0,
  remembered: null,
  firstRowsMs: null,
  allRowsMs: null,
  error: null,
}));

/** How often the open folder is walked again for new and changed sessions. */
const WATCH_MS = 3000;
/** Row changes are shown together, at most this often (a large folder answers fast). */
const FLUSH_MS = 120;

interface FileRecord {
  row: LibraryRow;
  /** Its own files: the session file, with its -wal or its sub-agent files. */
  handles: FileSystemFileHandle[];
  /** Sub-agent files found beside it in the folder (Claude Code's `subagents/`). */
  ownSubAgentFiles: number;
  /** Other rows' sessions that are its sub-agents (Codex child rollouts): read and opened with it, not rows of their own. */
  children: FileRecord[];
  /** The row this one's session belongs to as a sub-agent; null for a row of its own. */
  parent: FileRecord | null;
  /** The file is an agent's file beside its sessions, not a session (Gemini CLI's projects.json): no row of its own. */
  companion: boolean;
  /** Companion files in its folder or above, read with it (they may say its project folder). */
  companions: FileRecord[];
}

/** Every file read with a row: its own, its children's session files, the companion files near it. */
function handlesOf(record: FileRecord): FileSystemFileHandle[] {
  return [...record.handles, ...record.children.map((child) => child.handles[0]!), ...record.companions.map((companion) => companion.handles[0]!)];
}

/** The folder part of a path inside the library ("" at its top). */
const folderOf = (path: string) => path.slice(0, path.lastIndexOf("/") + 1);

/**
 * Gives each session file (not a database) the companion files of its folder and the folders
 * above it; a row whose companions changed is read again with them.
 */
function attachCompanions(): void {
  const companions = [...records.values()].filter((record) => record.companion);
  for (const record of records.values()) {
    // A database reads no text file with it but its own side files.
    if (record.companion || (record.handles.length > 1 && isDatabaseFileName(record.handles[1]!.name))) continue;
    const near = companions.filter((companion) => record.row.path.startsWith(folderOf(companion.row.path))).sort((a, b) => a.row.path.localeCompare(b.row.path));
    if (near.length === record.companions.length && near.every((companion, index) => record.companions[index] === companion)) continue;
    record.companions = near;
    if (record.row.status !== "waiting") enqueue(record);
  }
}

let folder: FileSystemDirectoryHandle | null = null;
let generation = 0;
const records = new Map<string, FileRecord>();
const byId = new Map<number, FileRecord>();
let nextId = 1;
let openedAt = 0;
let watchTimer: ReturnType<typeof setTimeout> | null = null;

// ---- the worker pool -----------------------------------------------------------------------

/** One worker per core, at most four: each reads one session at a time. */
function poolSize(): number {
  const cores = typeof navigator === "undefined" ? 2 : navigator.hardwareConcurrency || 2;
  return Math.max(1, Math.min(4, cores));
}

interface PoolWorker {
  worker: Worker;
  busy: FileRecord | null;
}

let pool: PoolWorker[] = [];
const queue: FileRecord[] = [];

function startPool(): void {
  if (pool.length > 0) return;
  pool = Array.from({ length: poolSize() }, () => {
    const entry: PoolWorker = {
      worker: new Worker(new URL("./library.worker.ts", import.meta.url), { type: "module", name: "contextscope-library" }),
      busy: null,
    };
    entry.worker.onmessage = (event: MessageEvent<LibraryReply>) => finished(entry, event.data);
    entry.worker.onerror = () => finished(entry, { id: entry.busy?.row.id ?? 0, ok: false, error: "the reading worker stopped" });
    return entry;
  });
}

function stopPool(): void {
  for (const entry of pool) entry.worker.terminate();
  pool = [];
  queue.length = 0;
}

function enqueue(record: FileRecord): void {
  record.row = { ...record.row, status: "waiting" };
  if (!queue.includes(record)) queue.push(record);
  changed(record);
}

function dispatch(): void {
  // Most recently changed first: the sessions a user is likely to look for.
  queue.sort((a, b) => b.row.modified - a.row.modified);
  for (const entry of pool) {
    if (entry.busy) continue;
    // A file being read already is read again once that read answers (never two reads of one row at once).
    const next = queue.findIndex((candidate) => !pool.some((other) => other.busy === candidate));
    if (next < 0) return;
    const record = queue.splice(next, 1)[0]!;
    entry.busy = record;
    record.row = { ...record.row, status: "reading" };
    changed(record);
    const job: LibraryJob = { id: record.row.id, handles: handlesOf(record), sessionFiles: record.handles.length + record.children.length };
    entry.worker.postMessage(job);
  }
}

function finished(entry: PoolWorker, reply: LibraryReply): void {
  const record = entry.busy;
  entry.busy = null;
  if (record && record.row.id === reply.id && byId.get(reply.id) === record) {
    // Still queued (its files changed meanwhile): it stays "waiting" for the next read.
    const again = queue.includes(record);
    record.row = reply.ok
      ? { ...record.row, status: again ? "waiting" : "done", facts: reply.facts, error: null }
      : { ...record.row, status: again ? "waiting" : "failed", facts: null, error: reply.error };
    const wasCompanion = record.companion;
    record.companion = !reply.ok && reply.companion === true;
    changed(record);
    regroup();
    if (record.companion !== wasCompanion) attachCompanions();
  }
  dispatch();
}

/** The row a record belongs to: the first of its ancestors (by the sessions' own lineage) with no parent among the rows. */
function rootOf(record: FileRecord, bySession: ReadonlyMap<string, FileRecord>): FileRecord {
  const seen = new Set<FileRecord>([record]);
  let current = record;
  for (;;) {
    const parentId = current.row.facts?.parentSessionId;
    const parent = parentId ? bySession.get(parentId) : undefined;
    if (!parent || seen.has(parent)) return current;
    seen.add(parent);
    current = parent;
  }
}

/**
 * Puts each sub-agent's own session file (a Codex child rollout names its parent thread) with the
 * row of the session that started it; a row whose children changed is read again with them.
 */
function regroup(): void {
  const bySession = new Map<string, FileRecord>();
  for (const record of records.values()) {
    const id = record.row.facts?.sessionId;
    if (id && !bySession.has(id)) bySession.set(id, record);
  }
  const wanted = new Map<FileRecord, FileRecord[]>();
  for (const record of records.values()) {
    const root = rootOf(record, bySession);
    record.parent = root === record ? null : root;
    if (record.parent) wanted.set(root, [...(wanted.get(root) ?? []), record]);
  }
  for (const record of records.values()) {
    const children = (wanted.get(record) ?? []).sort((a, b) => a.row.path.localeCompare(b.row.path));
    if (children.length === record.children.length && children.every((child, index) => record.children[index] === child)) continue;
    record.children = children;
    record.row = { ...record.row, subAgentFiles: record.ownSubAgentFiles + children.length };
    enqueue(record);
  }
}

// ---- rows on screen --------------------------------------------------------------------------

let flushTimer: ReturnType<typeof setTimeout> | null = null;

function changed(_record: FileRecord): void {
  flushTimer ??= setTimeout(flush, FLUSH_MS);
}

/** A file that is no session (an unsupported format) is left out of the table and counted. */
function notASession(row: LibraryRow): boolean {
  return row.status === "failed" && /unsupported format|not a session|empty: there is no line|binary file/i.test(row.error ?? "");
}

function flush(): void {
  flushTimer = null;
  const all = [...records.values()].map((record) => record.row);
  // A sub-agent's own file is part of its parent's row (its size and last change count there).
  const rows = [...records.values()]
    .filter((record) => record.parent === null && !record.companion && !notASession(record.row))
    .map((record) =>
      record.children.length === 0
        ? record.row
        : {
            ...record.row,
            size: record.children.reduce((sum, child) => sum + child.row.size, record.row.size),
            modified: Math.max(record.row.modified, ...record.children.map((child) => child.row.modified)),
          },
    );
  const read = all.filter((row) => row.status === "done" || row.status === "failed").length;
  const now = performance.now();
  useLibraryStore.setState((state) => ({
    rows,
    read,
    toRead: all.length,
    skipped: all.filter(notASession).length,
    companions: [...records.values()].filter((record) => record.companion).length,
    firstRowsMs: state.firstRowsMs ?? (rows.length > 0 ? now - openedAt : null),
    allRowsMs: state.allRowsMs ?? (all.length > 0 && read === all.length ? now - openedAt : null),
  }));
}

// ---- walking the folder ----------------------------------------------------------------------

interface FoundFile {
  path: string;
  handle: FileSystemFileHandle;
  /** The database's -wal beside it. */
  wal: FileSystemFileHandle | null;
  /** The session's sub-agent files (`<session>/subagents/*.jsonl` beside `<session>.jsonl`), read with it. */
  subAgents: FileSystemFileHandle[];
}

/** The `.jsonl` files of `<folder>/subagents/`, none when it has no such folder. */
async function subAgentFiles(folder: FileSystemDirectoryHandle): Promise<FileSystemFileHandle[]> {
  let subagents: FileSystemDirectoryHandle;
  try {
    subagents = await folder.getDirectoryHandle(SUBAGENT_FOLDER);
  } catch {
    return [];
  }
  const out: FileSystemFileHandle[] = [];
  for await (const entry of folderEntries(subagents)) if (entry.kind === "file" && entry.name.toLowerCase().endsWith(".jsonl")) out.push(entry as FileSystemFileHandle);
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Walks `dir`. `ownedSubAgents`: the folder is a session's own (`<id>/` beside `<id>.jsonl`), so
 * its `subagents/` files were given to that session and are not rows of their own; elsewhere a
 * `subagents/` folder's files are rows, so none is left out unseen.
 */
async function walk(dir: FileSystemDirectoryHandle, prefix: string, out: FoundFile[], onBatch: () => Promise<void>, ownedSubAgents = false): Promise<void> {
  const files = new Map<string, FileSystemFileHandle>();
  const folders: FileSystemDirectoryHandle[] = [];
  for await (const entry of folderEntries(dir)) {
    if (entry.kind === "file") files.set(entry.name, entry as FileSystemFileHandle);
    else if (!(ownedSubAgents && entry.name === SUBAGENT_FOLDER) && !entry.name.startsWith(".")) folders.push(entry as FileSystemDirectoryHandle);
  }
  // A session's own folder (Claude Code: `<id>/subagents/agent-<id>.jsonl` beside `<id>.jsonl`).
  const sessionFolders = new Set(folders.filter((child) => files.has(`${child.name}.jsonl`)).map((child) => child.name));
  for (const [name, handle] of files) {
    if (!isFollowedName(name)) continue;
    const ownFolder = name.toLowerCase().endsWith(".jsonl") ? folders.find((child) => `${child.name}.jsonl` === name) : undefined;
    out.push({ path: `${prefix}${name}`, handle, wal: files.get(`${name}-wal`) ?? null, subAgents: ownFolder ? await subAgentFiles(ownFolder) : [] });
  }
  await onBatch();
  for (const child of folders.sort((a, b) => a.name.localeCompare(b.name))) await walk(child, `${prefix}${child.name}/`, out, onBatch, sessionFolders.has(child.name));
}

/** Walks the folder; new files become rows, changed ones are read again, gone ones leave. */
async function scan(current: number): Promise<void> {
  if (!folder) return;
  const found: FoundFile[] = [];
  const seen = new Set<string>();
  // Rows appear folder by folder, so a large tree shows its first rows at once.
  const addBatch = async () => {
    for (const file of found.splice(0)) {
      if (current !== generation) return;
      seen.add(file.path);
      let metadata: File;
      try {
        metadata = await file.handle.getFile();
      } catch {
        continue;
      }
      // The files read with it (its -wal, its sub-agent files) count in its size and last change.
      const companions = file.wal ? [file.wal] : file.subAgents;
      const others = (await Promise.all(companions.map((handle) => handle.getFile().catch(() => null)))).filter((other) => other !== null);
      const modified = Math.max(metadata.lastModified, ...others.map((other) => other.lastModified));
      const size = others.reduce((sum, other) => sum + other.size, metadata.size);
      const handles = [file.handle, ...companions];
      const subAgentFiles = file.subAgents.length;
      const known = records.get(file.path);
      if (known && known.row.size === size && known.row.modified === modified && known.handles.length === handles.length) continue;
      if (known) {
        known.row = { ...known.row, size, modified, subAgentFiles: subAgentFiles + known.children.length };
        known.handles = handles;
        known.ownSubAgentFiles = subAgentFiles;
        enqueue(known);
        // A sub-agent's file grew: the row it belongs to is read again too.
        if (known.parent) enqueue(known.parent);
        continue;
      }
      const record: FileRecord = {
        row: { id: nextId++, path: file.path, size, modified, subAgentFiles, status: "waiting", facts: null, error: null },
        handles,
        ownSubAgentFiles: subAgentFiles,
        children: [],
        parent: null,
        companion: false,
        companions: [],
      };
      records.set(file.path, record);
      byId.set(record.row.id, record);
      enqueue(record);
    }
    dispatch();
  };
  await walk(folder, "", found, addBatch);
  if (current !== generation) return;
  for (const [path, record] of records) {
    if (seen.has(path)) continue;
    records.delete(path);
    byId.delete(record.row.id);
    changed(record);
  }
  regroup();
  attachCompanions();
  flush();
}

function watch(current: number): void {
  if (watchTimer !== null) clearTimeout(watchTimer);
  watchTimer = setTimeout(() => {
    if (current !== generation) return;
    void scan(current)
      .catch((error: unknown) => useLibraryStore.setState({ error: `The folder could not be read again: ${errorMessage(error)}` }))
      .finally(() => {
        if (current === generation) watch(current);
      });
  }, WATCH_MS);
}

// ---- actions -----------------------------------------------------------------------------------

/** Opens `handle` as the library (already permitted), remembering it for the next visit. */
export async function openLibraryFolder(handle: FileSystemDirectoryHandle): Promise<void> {
  const current = ++generation;
  folder = handle;
  records.clear();
  byId.clear();
  stopPool();
  startPool();
  openedAt = performance.now();
  useLibraryStore.setState({ open: true, folderName: handle.name, rows: [], read: 0, toRead: 0, skipped: 0, companions: 0, remembered: null, firstRowsMs: null, allRowsMs: null, error: null });
  void rememberFolder(handle).catch(() => undefined);
  try {
    await scan(current);
  } catch (error) {
    useLibraryStore.setState({ error: `The folder could not be read: ${errorMessage(error)}` });
  }
  if (current === generation) watch(current);
}

/** The "Sessions folder" button: the directory picker, then the library. */
export async function pickLibraryFolder(): Promise<void> {
  try {
    const handle = await pickFolderHandle();
    if (handle) await openLibraryFolder(handle);
  } catch (error) {
    setAppState({ error: `The folder could not be opened: ${errorMessage(error)}` });
  }
}

let rememberedHandle: FileSystemDirectoryHandle | null = null;

/** Looks for the folder of an earlier visit (called at page load). */
export async function loadRememberedFolder(): Promise<void> {
  rememberedHandle = await rememberedFolder();
  if (rememberedHandle && !useLibraryStore.getState().folderName) useLibraryStore.setState({ remembered: rememberedHandle.name });
}

/** Opens the folder of an earlier visit: the browser asks the user to allow reading it again. */
export async function reopenRememberedFolder(): Promise<void> {
  const handle = rememberedHandle;
  if (!handle) return;
  try {
    if (await ensureReadPermission(handle, true)) await openLibraryFolder(handle);
    else useLibraryStore.setState({ error: `Reading "${handle.name}" was not allowed. Open the folder again to list its sessions.` });
  } catch (error) {
    useLibraryStore.setState({ error: `"${handle.name}" could not be opened again: ${errorMessage(error)}` });
  }
}

export async function forgetRememberedFolder(): Promise<void> {
  rememberedHandle = null;
  useLibraryStore.setState({ remembered: null });
  await forgetFolder().catch(() => undefined);
}

export function showLibrary(open: boolean): void {
  useLibraryStore.setState({ open });
}

/**
 * How a row's files are opened: followed as they change, by the live feature (the page's mount,
 * src/page/App.tsx, gives its action); null until then.
 */
let followRowFiles: ((handles: FileSystemFileHandle[]) => Promise<void>) | null = null;

export function provideRowOpener(follow: (handles: FileSystemFileHandle[]) => Promise<void>): void {
  followRowFiles = follow;
}

/**
 * Opens the session of a row, followed as it changes (a database with its -wal read together,
 * a session with its sub-agent files linked); the table stays a click away.
 */
export async function openLibraryRow(id: number): Promise<void> {
  const record = byId.get(id);
  if (!record || !followRowFiles) return;
  useLibraryStore.setState({ open: false });
  await followRowFiles(handlesOf(record));
}

/** The library's state as the end-to-end tests read it (src/features/live/liveTestHook.ts). */
export function libraryTestState(): { rows: number; read: number; toRead: number; firstRowsMs: number | null; allRowsMs: number | null } {
  const state = useLibraryStore.getState();
  return { rows: state.rows.length, read: state.read, toRead: state.toRead, firstRowsMs: state.firstRowsMs, allRowsMs: state.allRowsMs };
}
