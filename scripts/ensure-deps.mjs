// Installs the npm dependencies from the lock file when they are missing or older than the lock,
// so `npm start` and `npm test` work as the first commands on a fresh clone.
import { execSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";

export function ensureDependencies() {
  const marker = "node_modules/.package-lock.json";
  const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync("package-lock.json").mtimeMs;
  if (stale) {
    console.log("dependencies: running npm ci");
    execSync("npm ci --no-audit --no-fund", { stdio: "inherit" });
  }
}
