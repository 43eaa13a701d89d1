// Makes sure a Chromium is available for the browser tests: uses one that is already installed,
// otherwise installs Debian's `chromium` package when running as root on Debian, otherwise stops
// with a message that says exactly what to install.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { findChromium } from "./chromium.mjs";

const found = findChromium();
if (found) {
  console.log(`chromium: using ${found}`);
  process.exit(0);
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const isDebian = existsSync("/etc/debian_version");
if (isRoot && isDebian) {
  console.log("chromium: not found; installing Debian's chromium package with apt-get");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "chromium"], { stdio: "inherit", env });
  const installed = findChromium();
  if (installed) {
    console.log(`chromium: installed at ${installed}`);
    process.exit(0);
  }
}

console.error(
  [
    "chromium: no Chromium found for the browser tests.",
    "Install one and run the tests again:",
    "  Debian/Ubuntu:  sudo apt-get install chromium   (or chromium-browser)",
    "  elsewhere:      install Chromium or Chrome and set CHROMIUM_PATH=/path/to/chrome",
  ].join("\n"),
);
process.exit(1);
