// The list of CLI commands, in the order `--help` shows them, all loaded at once: for the usage
// texts. Running a command loads only its own module (load.ts).
import type { CliCommand } from "../registry";
import { prefixCommand } from "./prefix";
import { requestsCommand } from "./requests";
import { compactCommand } from "./compact";
import { exportCommand } from "./export";
import { openCommand } from "./open";
import { shareCommand } from "./share";
import { checkCommand } from "./check";
import { compareCommand } from "./compare";
import { threadsCommand } from "./threads";
import { capturesCommand } from "./captures";
import { captureCommand } from "./capture";
import { verifyCommand } from "./verify";
import { scanCommand } from "./scan";
import { watchCommand } from "./watch";
import { mcpCommand } from "./mcp";

export const COMMANDS: readonly CliCommand[] = [
  requestsCommand,
  compactCommand,
  prefixCommand,
  exportCommand,
  shareCommand,
  openCommand,
  checkCommand,
  compareCommand,
  threadsCommand,
  capturesCommand,
  captureCommand,
  verifyCommand,
  scanCommand,
  watchCommand,
  mcpCommand,
];
