// Command-line entry for development (`npm run cli -- <command> …`, under tsx). The installed
// command is the compiled bin (bin.ts → dist-cli/contextscope.mjs, scripts/build-cli.mjs).
import { DEV_PROGRAM } from "./run";
import { runProcess } from "./process";

runProcess(DEV_PROGRAM);
