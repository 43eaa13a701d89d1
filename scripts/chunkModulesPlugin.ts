// A Vite plugin that writes `dist/chunk-modules.json`: for every JavaScript chunk of the build,
// the page's and each worker's, its file name, whether it is the page's entry or built for a
// worker, its size and the chunks it imports, and the source modules it holds. A browser check
// reads it (e2e/entry-chunk.spec.ts): the code the page loads before its first paint must hold
// none of the agents' code, which belongs in the pipeline worker. Workers are bundled by builds
// of their own, before the page's bundle is written, so one collector serves both plugins.
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

/** The file's name inside the output folder. */
export const CHUNK_MODULES_FILE = "chunk-modules.json";

/** One chunk, as the file lists it. */
export interface ChunkRecord {
  /** Path inside the output folder, e.g. `assets/index-abc123.js`. */
  fileName: string;
  /** The entry of its build: the page's (the script index.html loads) or a worker's. */
  entry: boolean;
  /** Built by a worker's build (its entry or one of its chunks); else by the page's. */
  worker: boolean;
  /** Loaded with a dynamic `import()` only. */
  dynamicEntry: boolean;
  /** Bytes written (the generated code's length when the file is not on disk). */
  size: number;
  /** Chunks this one imports statically (loaded with it), and dynamically (loaded later). */
  imports: string[];
  dynamicImports: string[];
  /** Ids of the modules it holds: paths from the project's root (`src/…`, `node_modules/…`), `virtual:…` for generated ones. */
  modules: string[];
}

/** The part of Rolldown's OutputChunk the plugin reads. */
interface ChunkInfo {
  type: "chunk";
  fileName: string;
  isEntry: boolean;
  isDynamicEntry: boolean;
  code: string;
  imports: string[];
  dynamicImports: string[];
  moduleIds: string[];
}

/** A module id as listed: relative to `root` with forward slashes; generated ids marked `virtual:`. */
function listedId(id: string, root: string): string {
  if (id.startsWith("\0")) return `virtual:${id.slice(1)}`;
  const withoutQuery = id.replace(/\?.*$/, "");
  if (!path.isAbsolute(withoutQuery)) return id;
  return path.relative(root, id).split(path.sep).join("/");
}

/**
 * The two plugins: `page` for the page's build (`plugins`), `worker()` for each worker's build
 * (`worker.plugins`); the page's writes the file once its bundle is written.
 */
export function chunkModules(): { page: Plugin; worker: () => Plugin } {
  let root = process.cwd();
  const records = new Map<string, ChunkRecord>();

  const collect = (bundle: Record<string, { type: string }>, worker: boolean) => {
    for (const output of Object.values(bundle)) {
      if (output.type !== "chunk") continue;
      const chunk = output as ChunkInfo;
      records.set(chunk.fileName, {
        fileName: chunk.fileName,
        entry: chunk.isEntry,
        worker,
        dynamicEntry: chunk.isDynamicEntry,
        size: Buffer.byteLength(chunk.code),
        imports: [...chunk.imports],
        dynamicImports: [...chunk.dynamicImports],
        modules: chunk.moduleIds.map((id) => listedId(id, root)).sort(),
      });
    }
  };

  const page: Plugin = {
    name: "contextscope:chunk-modules",
    apply: "build",
    configResolved(config) {
      root = config.root;
    },
    buildStart() {
      records.clear();
    },
    generateBundle(_options, bundle) {
      collect(bundle, false);
    },
    writeBundle(options) {
      const dir = options.dir ?? path.join(root, "dist");
      const chunks = [...records.values()].sort((a, b) => a.fileName.localeCompare(b.fileName));
      for (const chunk of chunks) {
        try {
          chunk.size = statSync(path.join(dir, chunk.fileName)).size;
        } catch {
          // Not written under that name: the generated code's length stands.
        }
      }
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, CHUNK_MODULES_FILE), `${JSON.stringify({ chunks }, null, 1)}\n`);
    },
  };

  const worker = (): Plugin => ({
    name: "contextscope:chunk-modules-worker",
    apply: "build",
    generateBundle(_options, bundle) {
      collect(bundle, true);
    },
  });

  return { page, worker };
}
