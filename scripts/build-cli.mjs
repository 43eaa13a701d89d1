// Builds the compiled CLI from the same TypeScript as `npm run cli`: esbuild bundles src/cli/bin.ts
// (and the worker-thread entries) into plain ES modules in dist-cli/ (or `--outdir <dir>`), split
// into chunks so the bin loads the core only when a command runs; npm packages stay imports
// (they are the package's dependencies, installed beside it). Then it writes dist-cli/usage.json,
// every usage text of the command registry, which the bin prints for `--help` without the core.
// Part of `npm run build`; the bin is package.json's `contextscope`.
import { build } from "esbuild";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const argIndex = process.argv.indexOf("--outdir");
const outdir = path.resolve(root, argIndex === -1 ? "dist-cli" : process.argv[argIndex + 1]);

/** Entry points: output name → source. Worker entries must keep their names (they are loaded by URL). */
export const CLI_ENTRIES = {
  contextscope: "src/cli/bin.ts",
  "usage-texts": "src/cli/usageTexts.ts",
};

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries(Object.entries(CLI_ENTRIES).map(([name, source]) => [name, source])),
  outdir,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  chunkNames: "chunks/[name]-[hash]",
  logLevel: "warning",
  legalComments: "none",
});
const bin = path.join(outdir, "contextscope.mjs");
const { readFileSync } = await import("node:fs");
writeFileSync(bin, `#!/usr/bin/env node\n${readFileSync(bin, "utf8")}`);
chmodSync(bin, 0o755);

const { usageTexts } = await import(pathToFileURL(path.join(outdir, "usage-texts.mjs")).href);
writeFileSync(path.join(outdir, "usage.json"), `${JSON.stringify(usageTexts())}\n`);
console.log(`CLI built: ${path.relative(root, bin) || bin}`);
