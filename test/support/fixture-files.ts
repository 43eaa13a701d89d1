// Locating fixture files in tests: the session file of a fixture lies somewhere under its
// `session/` directory (the recorder keeps the agent's own folder layout).
import { readdirSync } from "node:fs";
import path from "node:path";

/** The first `.jsonl` file under `dir` (depth first), or "" when there is none. */
export function findJsonl(dir: string): string {
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, item.name);
    if (item.isDirectory()) {
      const found = findJsonl(full);
      if (found) return found;
    } else if (item.name.endsWith(".jsonl")) return full;
  }
  return "";
}
