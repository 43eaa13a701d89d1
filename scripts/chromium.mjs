// Finds the Chromium the browser tests drive. Playwright cannot download its own browser on our
// machines, so we use a system Chromium: $CHROMIUM_PATH, else the usual Debian/Ubuntu locations.
import { existsSync } from "node:fs";

const CHROMIUM_CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

/** Path of a usable Chromium, or null when none is installed. */
export function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  return CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate)) ?? null;
}

/**
 * Flags for headless runs on locked-down machines: no sandbox when running as root, and no
 * background networking, so the browser itself never talks to any host during tests.
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
];
