// `npm test`: every check on a fresh machine. Installs dependencies and a Chromium when missing,
// type-checks (including the purity gate of src/core), looks for unused code (knip), runs the unit
// tests (Vitest) and the browser journeys (Playwright against the production build), then prints
// one line `N passed, N failed` totalling unit and browser tests. Exits non-zero when anything
// failed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { ensureDependencies } from "./ensure-deps.mjs";

const reportDir = "test-results/reports";
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label}: ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

ensureDependencies();
let passed = 0;
let failed = 0;
const problems = [];

if (!run("typecheck", "npm", ["run", "--silent", "typecheck"])) {
  failed += 1;
  problems.push("typecheck failed (counted as one failure)");
}

// Unused files, exports, exported types and dependencies (knip.ts): one failure, whatever the count.
if (!run("unused code", "npm", ["run", "--silent", "knip"])) {
  failed += 1;
  problems.push("knip failed: unused code (or a knip error) listed above, counted as one failure; allow-list in knip.ts");
}

const unitReport = `${reportDir}/unit.json`;
const unitOk = run("unit tests", "npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${unitReport}`]);
const unit = readJson(unitReport);
if (unit) {
  passed += unit.numPassedTests;
  failed += unit.numFailedTests;
} else {
  failed += 1;
  problems.push("unit tests produced no report");
}
if (!unitOk && unit && unit.numFailedTests === 0) {
  failed += 1;
  problems.push("vitest exited non-zero (a suite failed to load)");
}

const chromiumOk = run("browser", "node", ["scripts/ensure-chromium.mjs"]);
if (!chromiumOk) {
  failed += 1;
  problems.push("no Chromium: browser tests not run");
} else if (!run("build", "npx", ["vite", "build", "--logLevel", "warn"])) {
  failed += 1;
  problems.push("production build failed: browser tests not run");
} else {
  const e2eReport = `${reportDir}/e2e.json`;
  const e2eOk = run("browser tests", "npx", ["playwright", "test"], { PLAYWRIGHT_JSON_OUTPUT_FILE: e2eReport });
  const e2e = existsSync(e2eReport) ? readJson(e2eReport) : null;
  if (e2e?.stats) {
    passed += e2e.stats.expected + (e2e.stats.flaky ?? 0);
    failed += e2e.stats.unexpected;
    if (!e2eOk && e2e.stats.unexpected === 0) {
      failed += 1;
      problems.push("playwright exited non-zero");
    }
  } else {
    failed += 1;
    problems.push("browser tests produced no report");
  }
}

console.log("");
for (const problem of problems) console.log(`note: ${problem}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
