// Command-line entry for development (`npm run cli -- <command> …`, under tsx). The installed
// command is the compiled bin (bin.ts → dist-cli/contextscope.mjs, scripts/build-cli.mjs).
import { isMainThread } from "node:worker_threads";
import { DEV_PROGRAM } from "./run";
import { runProcess } from "./process";
import { setThreadEntry } from "./threads/entry";
import { runWorkerThread } from "./threads/worker";

if (isMainThread) {
  // Worker threads (token counting, scan) start from this same file, through a shim that gives
  // them tsx's TypeScript loader.
  setThreadEntry(new URL("./threads/dev-entry.mjs", import.meta.url));
  runProcess(DEV_PROGRAM);
} else void runWorkerThread();
