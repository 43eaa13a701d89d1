// Build configuration of the browser app. Everything is bundled locally (Monaco included, never
// from a CDN) so the page runs under a strict same-origin Content-Security-Policy. `base: "./"`
// keeps asset URLs relative, so the built `dist/` works from any path (or a file server subdir).
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { claudeVocabularyAsJson } from "./scripts/claudeVocabularyPlugin.ts";
import { chunkModules } from "./scripts/chunkModulesPlugin.ts";

// Lists the modules of every chunk in dist/chunk-modules.json, the workers' too (e2e/entry-chunk.spec.ts).
const chunkListing = chunkModules();

export default defineConfig({
  base: "./",
  plugins: [react(), claudeVocabularyAsJson(), chunkListing.page],
  worker: {
    // Module workers: the pipeline worker imports the core as ES modules.
    format: "es",
    // The workers are where the tokenizer tables are loaded.
    plugins: () => [claudeVocabularyAsJson(), chunkListing.worker()],
  },
  build: {
    target: "es2022",
    sourcemap: false,
    // Monaco's editor chunk is large by nature; it is loaded lazily, after the first paint.
    chunkSizeWarningLimit: 4096,
  },
  optimizeDeps: {
    // The editor chunk is imported lazily; listing its Monaco entries lets the dev server
    // pre-bundle them at start instead of reloading the page when the editor first opens.
    include: [
      "monaco-editor/editor/editor.api",
      "monaco-editor/features/folding/register",
      "monaco-editor/features/find/register",
      "monaco-editor/features/hover/register",
      "monaco-editor/features/contextmenu/register",
      "monaco-editor/features/clipboard/register",
      "monaco-editor/features/gotoLine/register",
      "monaco-editor/features/bracketMatching/register",
    ],
  },
  server: {
    port: 4173,
    strictPort: true,
  },
  preview: {
    port: 4173,
    strictPort: true,
  },
});
