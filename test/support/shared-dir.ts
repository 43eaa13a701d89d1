// Where the original recordings are looked for: ../shared/fixtures beside the repository (CI has
// it, a fresh clone may not), or CONTEXTSCOPE_SHARED_FIXTURES.
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export const SHARED_DIR = process.env.CONTEXTSCOPE_SHARED_FIXTURES
  ? path.resolve(process.env.CONTEXTSCOPE_SHARED_FIXTURES)
  : path.resolve(REPO_ROOT, "../shared/fixtures");
