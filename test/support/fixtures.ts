// The one place tests find fixture files.
//
// Committed fixtures live in test/fixtures/<agent>/<case>/ (session/, requests/NNN.json with
// NNN.meta.json, README.md). They are part of the repository, so a missing one is an error: every
// lookup here throws, and the test that asked for it fails — nothing is ever skipped because a
// path moved.
//
// The original recordings live outside the repository in ../shared/fixtures (CI has them, a fresh
// clone may not). Suites over them are registered with describeShared(); when the folder is absent
// they are not registered, and the run's global set-up (shared-notice.ts) says so once.
// CONTEXTSCOPE_SHARED_FIXTURES overrides where that folder is looked for (shared-dir.ts).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe } from "vitest";
import type { Session } from "../../src/core/model";
import { readSessionText } from "../../src/core/session/index";
import { SHARED_DIR } from "./shared-dir";

type Json = Record<string, unknown>;

/** The repository root (this file is test/support/fixtures.ts). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** A path inside the repository that must exist (for committed files that are not fixture cases). */
export function repoPath(...parts: string[]): string {
  return mustExist(path.join(REPO_ROOT, ...parts), "committed file");
}

/** One recorded request of a case: requests/NNN.json and its NNN.meta.json. */
interface RecordedRequest {
  /** 1, 2, … */
  number: number;
  /** "001" */
  id: string;
  /** "001.json" */
  file: string;
  path: string;
  /** The body exactly as recorded. */
  text: string;
  body: Json;
  meta: Json;
  /** meta.kind: "main", "summary", "title", … */
  kind: string;
}

/** The agent folders of test/fixtures. */
export type FixtureAgent = "pi" | "senpi" | "claude" | "codex" | "opencode";

/** One fixture case folder, e.g. test/fixtures/pi/print-openai-autocompact. */
export interface FixtureCase {
  /** "pi/print-openai-autocompact" */
  id: string;
  dir: string;
  /** A path inside the case folder; throws when it does not exist. */
  path(relative: string): string;
  /** The session file: the first `.jsonl` under session/, or session/export.json (opencode). */
  readonly sessionPath: string;
  /** The session file read with the app's reader (parsed once, on first use). */
  readonly session: Session;
  readonly requestsDir: string;
  requestPath(n: number): string;
  requestText(n: number): string;
  request(n: number): Json;
  meta(n: number): Json;
  /** Numbers of every requests/NNN.json, ascending. */
  requestNumbers(): number[];
  /** Every recorded request in sequence order (read afresh on each call), or only those of one `kind`. */
  requests(kind?: string): RecordedRequest[];
}

/** A folder of fixture cases: the committed test/fixtures or ../shared/fixtures. */
export interface FixtureRoot {
  /** "test/fixtures" or "../shared/fixtures" */
  label: string;
  dir: string;
  /** The case folder `agent/name`; throws when it does not exist. */
  case(id: string): FixtureCase;
  /** Names of the case folders of one agent, sorted; throws when the agent folder does not exist. */
  caseNames(agent: string): string[];
  /** A path inside the root; throws when it does not exist. */
  path(relative: string): string;
}

function mustExist(file: string, what: string): string {
  if (!existsSync(file)) throw new Error(`${what} ${path.relative(REPO_ROOT, file) || file} is missing`);
  return file;
}

/** The first file under `dir` whose name ends with `suffix` (depth first), or null. */
function findFile(dir: string, suffix: string): string | null {
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, item.name);
    if (item.isDirectory()) {
      const found = findFile(full, suffix);
      if (found) return found;
    } else if (item.name.endsWith(suffix)) return full;
  }
  return null;
}

/** The session file of a `session/` folder (the recorder keeps the agent's own layout); throws when there is none. */
export function findSessionFile(sessionDir: string, suffix = ".jsonl"): string {
  const found = findFile(mustExist(sessionDir, "fixture folder"), suffix);
  if (!found) throw new Error(`no ${suffix} file under ${path.relative(REPO_ROOT, sessionDir)}`);
  return found;
}

function openCase(root: string, id: string): FixtureCase {
  const dir = mustExist(path.join(root, id), "fixture case");
  const inCase = (relative: string) => mustExist(path.join(dir, relative), "fixture file");
  const requestPath = (n: number) => inCase(`requests/${String(n).padStart(3, "0")}.json`);
  const metaPath = (n: number) => inCase(`requests/${String(n).padStart(3, "0")}.meta.json`);
  const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Json;
  let sessionPath: string | undefined;
  let session: Session | undefined;

  const requestNumbers = () =>
    readdirSync(inCase("requests"))
      .filter((name) => /^\d{3}\.json$/.test(name))
      .map((name) => Number(name.slice(0, 3)))
      .sort((a, b) => a - b);

  return {
    id,
    dir,
    path: inCase,
    get sessionPath() {
      if (sessionPath === undefined) {
        const sessionDir = inCase("session");
        const exportJson = path.join(sessionDir, "export.json");
        const found = findFile(sessionDir, ".jsonl") ?? (existsSync(exportJson) ? exportJson : null);
        if (!found) throw new Error(`no session file under ${path.relative(REPO_ROOT, sessionDir)}`);
        sessionPath = found;
      }
      return sessionPath;
    },
    get session() {
      session ??= readSessionText(readFileSync(this.sessionPath, "utf8"), path.basename(this.sessionPath));
      return session;
    },
    get requestsDir() {
      return inCase("requests");
    },
    requestPath,
    requestText: (n) => readFileSync(requestPath(n), "utf8"),
    request: (n) => readJson(requestPath(n)),
    meta: (n) => readJson(metaPath(n)),
    requestNumbers,
    requests(kind) {
      const all = requestNumbers().map((number): RecordedRequest => {
        const file = requestPath(number);
        const text = readFileSync(file, "utf8");
        const meta = readJson(metaPath(number));
        const id = String(number).padStart(3, "0");
        return { number, id, file: `${id}.json`, path: file, text, body: JSON.parse(text) as Json, meta, kind: String(meta.kind) };
      });
      return kind === undefined ? all : all.filter((request) => request.kind === kind);
    },
  };
}

function fixtureRoot(label: string, dir: string): FixtureRoot {
  return {
    label,
    dir,
    case: (id) => openCase(dir, id),
    caseNames: (agent) =>
      readdirSync(mustExist(path.join(dir, agent), "fixture folder"), { withFileTypes: true })
        .filter((item) => item.isDirectory())
        .map((item) => item.name)
        .sort(),
    path: (relative) => mustExist(path.join(dir, relative), "fixture file"),
  };
}

// ---------------------------------------------------------------------------------------------
// Committed fixtures (test/fixtures): always present, or the test fails.

export const committedFixtures: FixtureRoot = fixtureRoot("test/fixtures", path.join(REPO_ROOT, "test/fixtures"));

/** A committed case, `agent/name` (e.g. "pi/print-openai-autocompact"); throws when it is missing. */
export function fixtureCase(id: string): FixtureCase {
  return committedFixtures.case(id);
}

/** A path under test/fixtures (e.g. "opencode/wal-synthetic/opencode.db"); throws when it is missing. */
export function fixturePath(relative: string): string {
  return committedFixtures.path(relative);
}

// ---------------------------------------------------------------------------------------------
// Shared fixtures (../shared/fixtures): run when present, one notice when absent.


/** ../shared/fixtures when the folder exists, otherwise null (no notice: for tests that fall back). */
export function sharedFixtures(): FixtureRoot | null {
  return existsSync(SHARED_DIR) ? fixtureRoot("../shared/fixtures", SHARED_DIR) : null;
}

/**
 * A suite over ../shared/fixtures: registered like `describe` when the folder exists (and then
 * its fixtures are required like committed ones). When it is absent nothing is registered; the
 * test run's global set-up (shared-notice.ts) has said so once.
 */
export function describeShared(name: string, suite: (shared: FixtureRoot) => void): void {
  const shared = sharedFixtures();
  if (shared) describe(name, () => suite(shared));
}

/** A recorded request as `verify` takes it: its file name, its body and the recorder's kind. */
export interface RecordedCapture {
  source: string;
  body: unknown;
  kind: string;
}

/** Every recorded request of a `requests/` folder (NNN.json with its NNN.meta.json), in order. */
export function recordedCaptures(requestsDir: string): RecordedCapture[] {
  return readdirSync(mustExist(requestsDir, "requests folder"))
    .filter((name) => /^\d{3}\.json$/.test(name))
    .sort()
    .map((name) => {
      const meta = JSON.parse(readFileSync(path.join(requestsDir, name.replace(".json", ".meta.json")), "utf8")) as { kind: string };
      return { source: name, body: JSON.parse(readFileSync(path.join(requestsDir, name), "utf8")) as unknown, kind: meta.kind };
    });
}
