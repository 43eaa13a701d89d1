// The sessions library over a large folder in headless Chromium: a folder of --sessions sessions
// of mixed agents (about --total-mb in all) is copied into the origin private file system (the
// same directory handle interface the picker gives), then opened as the library. Timed inside
// the page from the open: the first rows on screen (the walk, each file a row at once) and all
// rows read (the workers' facts for every session). Serve a build first:
//   npx vite build && npx vite preview --port 4208 --strictPort
// then: npx tsx bench/library-browser.bench.ts [--sessions 1000] [--total-mb 2048] [--url http://127.0.0.1:4208/]
// [--folder <dir>] (an existing folder instead, e.g. the one `bench/scan-vs-ccusage.ts --keep`
// leaves, to time the library against `scan` on the same files). Besides the page's own times it
// prints the CPU time (user + system) the browser's processes spent from the open to the last row
// (in all and per process kind), read from /proc, since wall times on a shared machine are shares of it.
// --profile <dir>: also records CPU profiles (Chrome DevTools format, .cpuprofile) of the page's
// main thread and of each of its dedicated workers, from the open to the last row, into <dir>.
// The folder is written once to the temporary folder and reused: copies of the committed
// fixtures of every agent that keeps sessions as files (Claude Code, Codex, pi, an opencode
// export), and generated pi sessions (bench/generate-session.ts) of a few sizes making up the bulk.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type CDPSession, type Page } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "../scripts/chromium.mjs";
import { generatePiSession } from "./generate-session";

function argument(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? (process.argv[at + 1] as string) : fallback;
}

const sessions = Number(argument("sessions", "1000"));
const totalMb = Number(argument("total-mb", "2048"));
const baseURL = argument("url", "http://127.0.0.1:4208/");
const givenFolder = argument("folder", "");
const profileDir = argument("profile", "");
const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

const FIXTURES = [
  "test/fixtures/claude/print-autocompact-manualcompact/session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl",
  "test/fixtures/codex/exec-autocompact/session/sessions/2026/11/29/rollout-2026-11-29T19-25-29-01a228c5-0111-7641-8ea4-161c4b3a44d5.jsonl",
  "test/fixtures/codex/spawn-agents/sessions/2026/03/01/rollout-2026-03-01T10-00-00-0199a000-0000-7000-8000-00000000a001.jsonl",
  "test/fixtures/pi/print-openai-autocompact/session/--home-dev-pi-print-openai-autocompact-lighthouse-notes--/2026-11-29T19-24-40-505Z_01a228c4-42b7-7303-bb87-25da37b563c2.jsonl",
  "test/fixtures/opencode/run-autocompact/session/export.json",
];

/** The corpus folder: fixture copies, and generated pi sessions making up the rest of the bytes. */
async function corpus(): Promise<{ dir: string; files: number; bytes: number }> {
  const dir = path.join(tmpdir(), `contextscope-library-${sessions}-${totalMb}mb`);
  if (!existsSync(dir)) {
    const building = `${dir}.building`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    const generatedCount = Math.max(1, Math.round(sessions / 10));
    const fixtureCount = sessions - generatedCount;
    for (let i = 0; i < fixtureCount; i++) {
      const source = path.join(repo, FIXTURES[i % FIXTURES.length]!);
      const folder = path.join(building, `project-${i % 37}`);
      mkdirSync(folder, { recursive: true });
      copyFileSync(source, path.join(folder, `s${i}-${path.basename(source)}`));
    }
    let fixtureBytes = 0;
    for (const folder of readdirSync(building)) for (const file of readdirSync(path.join(building, folder))) fixtureBytes += statSync(path.join(building, folder, file)).size;
    // A few distinct generated sizes around the mean the total asks for, each copied.
    const mean = Math.max(1, (totalMb * 1024 * 1024 - fixtureBytes) / generatedCount);
    const variants = await Promise.all(
      [0.4, 0.8, 1.2, 1.6].map(async (factor, seed) => {
        const generated = await generatePiSession({ minBytes: Math.round(mean * factor), minTurns: 0, seed: seed + 1 });
        return generated.file;
      }),
    );
    for (let i = 0; i < generatedCount; i++) {
      const folder = path.join(building, `generated-${i % 11}`);
      mkdirSync(folder, { recursive: true });
      copyFileSync(variants[i % variants.length]!, path.join(folder, `g${i}.jsonl`));
    }
    for (const file of variants) rmSync(path.dirname(file), { recursive: true, force: true });
    renameSync(building, dir);
  }
  let files = 0;
  let bytes = 0;
  for (const folder of readdirSync(dir)) {
    for (const file of readdirSync(path.join(dir, folder))) {
      files++;
      bytes += statSync(path.join(dir, folder, file)).size;
    }
  }
  return { dir, files, bytes };
}

/** Files and bytes under a folder, walked to any depth. */
function sizeOf(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = sizeOf(full);
      files += inner.files;
      bytes += inner.bytes;
    } else if (entry.isFile()) {
      files++;
      bytes += statSync(full).size;
    }
  }
  return { files, bytes };
}

/** CPU seconds (user + system) of this process's descendants now alive (the browser's processes), by Chromium's process kind (`--type=`), from /proc; null off Linux. */
function browserCpuSeconds(): Record<string, number> | null {
  if (!existsSync("/proc/self/stat")) return null;
  const parents = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // Fields after the command's closing parenthesis: state ppid … utime (14th) stime (15th).
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(name), Number(fields[1]));
      ticks.set(Number(name), Number(fields[11]) + Number(fields[12]));
    } catch {
      // A process that ended while the list was read.
    }
  }
  const byKind: Record<string, number> = {};
  for (const [pid, own] of ticks) {
    for (let at: number | undefined = pid; at !== undefined && at > 1; at = parents.get(at)) {
      if (at === process.pid && pid !== process.pid) {
        let kind = "browser";
        try {
          kind = /--type=([a-z-]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, "utf8"))?.[1] ?? "browser";
        } catch {
          // Ended meanwhile: counted as the browser's.
        }
        // Clock ticks: 100 per second on Linux.
        byKind[kind] = (byKind[kind] ?? 0) + own / 100;
        break;
      }
    }
  }
  return byKind;
}

/** Profiles the page and each dedicated worker it starts: the workers are attached to through the page's session (non-flattened, so their messages travel inside the page's). */
async function startProfiles(page: Page): Promise<() => Promise<void>> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const workers: string[] = [];
  const pending = new Map<number, (result: unknown) => void>();
  let nextId = 1;
  const toWorker = (sessionId: string, method: string, params: object = {}): Promise<unknown> => {
    const id = nextId++;
    const answered = new Promise<unknown>((resolve) => pending.set(id, resolve));
    void cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) });
    return answered;
  };
  cdp.on("Target.receivedMessageFromTarget", (event: { sessionId: string; message: string }) => {
    const message = JSON.parse(event.message) as { id?: number; result?: unknown; error?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result ?? message.error);
  });
  cdp.on("Target.attachedToTarget", (event: { sessionId: string; targetInfo: { type: string } }) => {
    if (event.targetInfo.type !== "worker") return;
    workers.push(event.sessionId);
    void (async () => {
      await toWorker(event.sessionId, "Profiler.enable");
      await toWorker(event.sessionId, "Profiler.setSamplingInterval", { interval: 200 });
      await toWorker(event.sessionId, "Profiler.start");
      await toWorker(event.sessionId, "Runtime.runIfWaitingForDebugger");
    })();
  });
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await cdp.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
  await cdp.send("Profiler.start");
  return async () => {
    mkdirSync(profileDir, { recursive: true });
    const { profile } = await cdp.send("Profiler.stop");
    writeFileSync(path.join(profileDir, "page.cpuprofile"), JSON.stringify(profile));
    for (const [index, sessionId] of workers.entries()) {
      const stopped = (await toWorker(sessionId, "Profiler.stop")) as { profile?: unknown };
      if (stopped.profile) writeFileSync(path.join(profileDir, `worker-${index}.cpuprofile`), JSON.stringify(stopped.profile));
    }
    console.error(`profiles: page and ${workers.length} workers in ${profileDir}`);
  };
}

const { dir, files, bytes } = givenFolder ? { dir: givenFolder, ...sizeOf(givenFolder) } : await corpus();
// A profile on disk: the origin private file system of a throw-away context is held in memory,
// with a quota too small for a 1 GB file.
const profile = mkdtempSync(path.join(tmpdir(), "contextscope-live-profile-"));
const browser = await chromium.launchPersistentContext(profile, { executablePath: findChromium() ?? undefined, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  await page.goto(`${baseURL}?sample=none`);
  await page.waitForFunction(() => (window as unknown as { __contextscope?: { status: string } }).__contextscope?.status === "idle");
  await page.evaluate(() => {
    const input = document.createElement("input");
    input.type = "file";
    input.id = "bench-folder";
    input.webkitdirectory = true;
    document.body.append(input);
  });
  await page.setInputFiles("#bench-folder", dir);
  const copyMs = await page.evaluate(async () => {
    const start = performance.now();
    const input = document.getElementById("bench-folder") as HTMLInputElement;
    const root = await navigator.storage.getDirectory();
    await root.removeEntry("corpus", { recursive: true }).catch(() => undefined);
    const corpus = await root.getDirectoryHandle("corpus", { create: true });
    for (const file of Array.from(input.files ?? [])) {
      const parts = file.webkitRelativePath.split("/").slice(1);
      let folder = corpus;
      for (const part of parts.slice(0, -1)) folder = await folder.getDirectoryHandle(part, { create: true });
      const handle = await folder.getFileHandle(parts[parts.length - 1]!, { create: true });
      await file.stream().pipeTo(await handle.createWritable());
    }
    return performance.now() - start;
  });
  const stopProfiles = profileDir ? await startProfiles(page) : null;
  const cpuBefore = browserCpuSeconds();
  const result = await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    const corpus = await root.getDirectoryHandle("corpus");
    const hook = (window as unknown as { __contextscopeLive: { openLibraryFolder(h: FileSystemDirectoryHandle): Promise<void>; library(): { rows: number; read: number; toRead: number; firstRowsMs: number | null; allRowsMs: number | null } } }).__contextscopeLive;
    const start = performance.now();
    void hook.openLibraryFolder(corpus);
    // The first rows in the DOM, timed here too (the store's figure counts from the same moment).
    let firstRowDomMs: number | null = null;
    // (No named functions inside: the bench runs under tsx, whose helpers the page lacks.)
    while (hook.library().allRowsMs === null) {
      if (firstRowDomMs === null && document.querySelector('[data-testid="library-row"]')) firstRowDomMs = performance.now() - start;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { firstRowDomMs, ...hook.library(), cores: navigator.hardwareConcurrency };
  });
  const cpuAfter = browserCpuSeconds();
  await stopProfiles?.();
  const round = (value: number) => Math.round(value * 100) / 100;
  const cpuByKind = cpuBefore === null || cpuAfter === null ? null : Object.fromEntries(Object.entries(cpuAfter).map(([kind, seconds]) => [kind, round(seconds - (cpuBefore[kind] ?? 0))]));
  const browserCpuS = cpuByKind === null ? null : round(Object.values(cpuByKind).reduce((sum, seconds) => sum + seconds, 0));
  console.log(JSON.stringify({ files, bytes, copyIntoBrowserMs: Math.round(copyMs), ...result, browserCpuS, cpuByKind }));
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
