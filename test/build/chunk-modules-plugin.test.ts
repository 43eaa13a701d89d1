// The build's chunk listing (scripts/chunkModulesPlugin.ts): the page's and the workers' chunks
// in one file, with module ids from the project's root, the entry and worker flags, and the size
// of the file as written.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CHUNK_MODULES_FILE, chunkModules, type ChunkRecord } from "../../scripts/chunkModulesPlugin";

const root = mkdtempSync(path.join(tmpdir(), "chunk-modules-"));
const dist = path.join(root, "dist");
afterAll(() => rmSync(root, { recursive: true, force: true }));

function chunk(fileName: string, moduleIds: string[], more: { isEntry?: boolean; imports?: string[] } = {}) {
  return {
    type: "chunk",
    fileName,
    isEntry: more.isEntry ?? false,
    isDynamicEntry: false,
    code: "x".repeat(10),
    imports: more.imports ?? [],
    dynamicImports: [],
    moduleIds,
  };
}

/** Calls a plugin hook given as a function or as `{ handler }`, the way Vite does. */
function call(hook: unknown, ...args: unknown[]): void {
  const fn = typeof hook === "function" ? hook : (hook as { handler: (...a: unknown[]) => void }).handler;
  fn.call({}, ...args);
}

describe("the chunk listing plugin", () => {
  it("lists the worker's and the page's chunks with their modules, flags and written size", () => {
    const { page, worker } = chunkModules();
    call(page.configResolved, { root });
    call(page.buildStart, {});
    const workerBundle = { w: chunk("assets/pipeline.worker-1.js", [path.join(root, "src/worker/pipeline.worker.ts"), "\0claude-vocabulary"], { isEntry: true }) };
    call(worker().generateBundle, {}, workerBundle);
    const pageBundle = {
      i: chunk("assets/index-2.js", [path.join(root, "src/main.tsx")], { isEntry: true, imports: ["assets/shared-3.js"] }),
      s: chunk("assets/shared-3.js", [path.join(root, "node_modules/react/index.js")]),
      css: { type: "asset", fileName: "assets/index.css" },
    };
    call(page.generateBundle, {}, pageBundle);
    mkdirSync(path.join(dist, "assets"), { recursive: true });
    writeFileSync(path.join(dist, "assets/index-2.js"), "y".repeat(42));
    call(page.writeBundle, { dir: dist }, pageBundle);

    const { chunks } = JSON.parse(readFileSync(path.join(dist, CHUNK_MODULES_FILE), "utf8")) as { chunks: ChunkRecord[] };
    expect(chunks.map((item) => [item.fileName, item.entry, item.worker])).toEqual([
      ["assets/index-2.js", true, false],
      ["assets/pipeline.worker-1.js", true, true],
      ["assets/shared-3.js", false, false],
    ]);
    expect(chunks[0]).toMatchObject({ modules: ["src/main.tsx"], imports: ["assets/shared-3.js"], size: 42 });
    expect(chunks[1]!.modules).toEqual(["src/worker/pipeline.worker.ts", "virtual:claude-vocabulary"]);
    // Not on disk under its name: the generated code's length.
    expect(chunks[2]).toMatchObject({ modules: ["node_modules/react/index.js"], size: 10 });
  });
});
