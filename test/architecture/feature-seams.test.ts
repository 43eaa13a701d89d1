// The seams between the page's features (docs/architecture.md, "The page: frame, mount and
// features"). Three rules, read from the import statements of src/ (type-only imports included
// where a rule says so):
// (a) the simulator, the live file, the sessions library and sharing are imported from outside
//     their folder only by the page's mount (src/page/App.tsx) and the worker's composition
//     (src/worker/features.ts): no other feature, nor the frame, knows them;
// (b) a file of a feature reaches another feature only through that feature's public surface:
//     `features/<g>/index` (its page side), `features/<g>/worker` (its worker side) or
//     `features/<g>/protocol` (the types of its calls);
// (c) the page's frame (src/page/) imports no src/core/session/ at run time (types are fine).
// "Page-side" is what the page's entry, src/main.tsx, loads at run time.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(__dirname, "../../src");
const FEATURES = path.join(SRC, "features");
const PAGE = path.join(SRC, "page");
const SESSION = path.join(SRC, "core/session");
const ENTRY = path.join(SRC, "main.tsx");

/** Features only the mount and the worker's composition may import. */
const MOUNTED_ONLY = ["simulator", "live", "library", "share"];
const MAY_IMPORT_MOUNTED = ["page/App.tsx", "worker/features.ts"];

interface Import {
  /** The imported file (resolved, with its extension when it exists), or the specifier resolved as is. */
  target: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((item) => {
    const full = path.join(dir, item.name);
    if (item.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(item.name) ? [full] : [];
  });
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** A relative specifier as the bundler resolves it: the file, with .ts/.tsx, or the folder's index. */
function resolveSpecifier(from: string, specifier: string): string {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")];
  return candidates.find(isFile) ?? base;
}

/** The relative imports of a file: static imports and re-exports (type-only ones marked) and dynamic imports. */
function importsOf(file: string, text: string): Import[] {
  const found: Import[] = [];
  const statements = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?["'](\.{1,2}\/[^"']+)["']/gm;
  for (const match of text.matchAll(statements)) found.push({ target: resolveSpecifier(file, match[2] as string), typeOnly: match[1] !== undefined });
  for (const match of text.matchAll(/\bimport\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g)) found.push({ target: resolveSpecifier(file, match[1] as string), typeOnly: false });
  return found;
}

/** The feature folder a file is in, or null. */
function featureOf(file: string): string | null {
  const relative = path.relative(FEATURES, file);
  if (relative.startsWith("..") || !relative.includes(path.sep)) return null;
  return relative.split(path.sep)[0] as string;
}

/** The files `entry` loads at run time (type-only imports left out), itself included. */
function runtimeClosure(entry: string, importsByFile: ReadonlyMap<string, Import[]>): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const item of importsByFile.get(file) ?? []) if (!item.typeOnly && importsByFile.has(item.target)) queue.push(item.target);
  }
  return seen;
}

/** (a) Where a file outside a mounted-only feature imports it, as "file → import". */
function mountedOnlyBreaks(file: string, imports: readonly Import[]): string[] {
  const own = featureOf(file);
  const allowed = MAY_IMPORT_MOUNTED.includes(path.relative(SRC, file).split(path.sep).join("/"));
  return imports.flatMap(({ target }) => {
    const feature = featureOf(target);
    const broken = feature !== null && feature !== own && MOUNTED_ONLY.includes(feature) && !allowed;
    return broken ? [`${path.relative(SRC, file)} → ${path.relative(SRC, target)}`] : [];
  });
}

/** The modules of a feature other features may import. */
const PUBLIC_MODULES = ["index", "worker", "protocol"];

/** (b) Where a feature's file reaches into another feature past its public modules. */
function surfaceBreaks(file: string, imports: readonly Import[]): string[] {
  const own = featureOf(file);
  if (own === null) return [];
  return imports.flatMap(({ target }) => {
    const feature = featureOf(target);
    if (feature === null || feature === own) return [];
    const module = path.relative(path.join(FEATURES, feature), target).replace(/\.tsx?$/, "");
    return PUBLIC_MODULES.includes(module) ? [] : [`${path.relative(SRC, file)} → ${path.relative(SRC, target)}`];
  });
}

/** (c) Where a file of the page's frame loads src/core/session/ at run time. */
function sessionBreaks(file: string, imports: readonly Import[]): string[] {
  if (!file.startsWith(PAGE + path.sep)) return [];
  return imports.flatMap(({ target, typeOnly }) => (!typeOnly && target.startsWith(SESSION + path.sep) ? [`${path.relative(SRC, file)} → ${path.relative(SRC, target)}`] : []));
}

const files = sourceFiles(SRC);
const importsByFile = new Map(files.map((file) => [file, importsOf(file, readFileSync(file, "utf8"))]));
const pageSide = runtimeClosure(ENTRY, importsByFile);

describe("the seams between the page's features", () => {
  it("the checks find the imports they forbid, and pass the ones they allow", () => {
    const timeline = path.join(FEATURES, "timeline/Timeline.tsx");
    const frame = path.join(PAGE, "TopBar.tsx");
    const mount = path.join(PAGE, "App.tsx");
    const runtime = (text: string, from: string) => importsOf(from, text);
    expect(mountedOnlyBreaks(timeline, runtime(`import { useSimulatorStore } from "../simulator/simulatorState";`, timeline))).toHaveLength(1);
    expect(mountedOnlyBreaks(frame, runtime(`import type { LiveState } from "../features/live/liveState";`, frame))).toHaveLength(1);
    expect(mountedOnlyBreaks(frame, runtime(`import {\n  ShareButton,\n} from "../features/share/index";`, frame))).toHaveLength(1);
    expect(mountedOnlyBreaks(mount, runtime(`import { LibraryView } from "../features/library/index";`, mount))).toHaveLength(0);
    expect(mountedOnlyBreaks(timeline, runtime(`import { ThreadList } from "../threads/index";`, timeline))).toHaveLength(0);
    expect(surfaceBreaks(timeline, runtime(`import { ThreadList } from "../threads/ThreadList";`, timeline))).toHaveLength(1);
    expect(surfaceBreaks(timeline, runtime(`const lazy = () => import("../prices/PricesPanel");`, timeline))).toHaveLength(1);
    expect(surfaceBreaks(timeline, runtime(`import { ThreadList } from "../threads/index";`, timeline))).toHaveLength(0);
    expect(surfaceBreaks(timeline, runtime(`import { ContextChart } from "./ContextChart";`, timeline))).toHaveLength(0);
    expect(surfaceBreaks(timeline, runtime(`import type { PrefixRow } from "../prefix/protocol";`, timeline))).toHaveLength(0);
    expect(surfaceBreaks(timeline, runtime(`import { PrefixService } from "../prefix/prefixService";`, timeline))).toHaveLength(1);
    expect(sessionBreaks(frame, runtime(`import { AGENTS } from "../core/session/index";`, frame))).toHaveLength(1);
    expect(sessionBreaks(frame, runtime(`import type { SessionAnalysis } from "../core/session/pipeline";`, frame))).toHaveLength(0);
  });

  it("the page's run-time closure is the page: its frame and features, not the worker's modules", () => {
    expect(files.length).toBeGreaterThan(300);
    expect(pageSide.has(path.join(PAGE, "App.tsx"))).toBe(true);
    expect(pageSide.has(path.join(FEATURES, "timeline/Timeline.tsx"))).toBe(true);
    expect(pageSide.has(path.join(FEATURES, "simulator/simulatorService.ts"))).toBe(false);
    expect(pageSide.has(path.join(SRC, "worker/pipeline.worker.ts"))).toBe(false);
  });

  it("the simulator, the live file, the sessions library and sharing are imported from outside only by the page's mount and the worker's composition", () => {
    expect(files.flatMap((file) => mountedOnlyBreaks(file, importsByFile.get(file)!))).toEqual([]);
  });

  it("a feature's file, page side or worker side, reaches another feature only through its index, worker or protocol module", () => {
    const featureFiles = files.filter((file) => featureOf(file) !== null);
    expect([...pageSide].filter((file) => featureOf(file) !== null).length).toBeGreaterThan(50);
    expect(featureFiles.flatMap((file) => surfaceBreaks(file, importsByFile.get(file)!))).toEqual([]);
  });

  it("every feature has an index module, its page-side surface", () => {
    const features = readdirSync(FEATURES, { withFileTypes: true }).filter((item) => item.isDirectory());
    expect(features.length).toBeGreaterThan(10);
    expect(features.filter((item) => !isFile(path.join(FEATURES, item.name, "index.ts"))).map((item) => item.name)).toEqual([]);
  });

  it("the page's frame loads no src/core/session/ at run time", () => {
    const frameFiles = files.filter((file) => file.startsWith(PAGE + path.sep));
    expect(frameFiles.length).toBeGreaterThan(20);
    expect(frameFiles.flatMap((file) => sessionBreaks(file, importsByFile.get(file)!))).toEqual([]);
  });

  it("nothing the page's main thread loads at run time (its features' page sides included) is in src/core/session/", () => {
    expect([...pageSide].filter((file) => file.startsWith(SESSION + path.sep)).map((file) => path.relative(SRC, file))).toEqual([]);
    // The closure does reach the core: the check is not vacuous.
    expect([...pageSide].some((file) => file.startsWith(path.join(SRC, "core") + path.sep))).toBe(true);
  });
});
