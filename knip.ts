// Configuration of knip (`npm run knip`, a step of `npm test`): finds unused files, exports,
// exported types and dependencies. Entries knip finds by itself are not repeated here: its Vite
// plugin reads index.html (→ src/main.tsx), the Vitest plugin vitest.config.ts (test/**/*.test.ts
// and the setup files), the Playwright plugin playwright.config.ts (e2e/*.spec.ts), package.json's
// scripts name scripts/start.mjs, test-all.mjs, build-cli.mjs, ensure-chromium.mjs, src/cli/main.ts
// and bench/fuzz/main.mjs, and `new Worker(new URL("…", import.meta.url))` brings in the workers.
// Entry files' own exports are checked too (includeEntryExports), so an export nobody imports
// fails wherever in src/ it is added. Exports only tests import count as used. Allow-list: the
// ignore* options below, and exports tagged `@public` in their JSDoc (knip skips those); each
// entry says beside it why it must stay.
import type { KnipConfig } from "knip";

const config: KnipConfig = {
  entry: [
    // Web Workers of the page (also reached through new URL(), listed so they stay entries).
    "src/worker/pipeline.worker.ts",
    "src/worker/count.worker.ts",
    // The compiled CLI's entries: scripts/build-cli.mjs (CLI_ENTRIES) hands them to esbuild.
    "src/cli/bin.ts",
    "src/cli/usageTexts.ts",
    // Worker threads of the development CLI start here (src/cli/main.ts names it by URL).
    "src/cli/threads/dev-entry.mjs",
    // Scripts run by hand (their header says how).
    "scripts/make-samples.ts",
    "scripts/gitleaks-rules.mjs",
    "scripts/model-windows.mjs",
    "bench/*.bench.ts",
    "bench/generate-session.ts",
    "bench/search-latency.ts",
    "bench/ccusage-parity.ts",
    "bench/scan-vs-ccusage.ts",
    "bench/line-floor.mjs",
    "bench/byte-reader-floor.mjs",
    "bench/fuzz/replay-input.ts",
    "bench/fuzz/worker-entry.mjs",
  ],
  project: ["src/**/*.{ts,tsx,mjs}", "scripts/**/*.{ts,mjs}", "bench/**/*.{ts,mjs}", "test/**/*.ts", "e2e/**/*.ts"],
  includeEntryExports: true,
  ignoreBinaries: [
    // Debian's package manager (scripts/ensure-chromium.mjs installs Chromium with it), not npm's.
    "apt-get",
  ],
};

export default config;
