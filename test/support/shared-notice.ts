// Vitest global set-up: says once per test run that ../shared/fixtures is absent, so the suites
// over it (describeShared) are not run. Nothing is said when it is present: they all run.
import { existsSync } from "node:fs";
import { SHARED_DIR } from "./shared-dir";

export default function sharedFixturesNotice(): void {
  if (!existsSync(SHARED_DIR)) {
    console.warn(`../shared/fixtures is absent (${SHARED_DIR}): the suites over the original recordings (describeShared) are not run.`);
  }
}
