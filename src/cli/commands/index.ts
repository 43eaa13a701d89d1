// The list of CLI commands, in the order `--help` shows them.
import type { CliCommand } from "../registry";
import { prefixCommand } from "./prefix";
import { requestsCommand } from "./requests";
import { compactCommand } from "./compact";

export const COMMANDS: readonly CliCommand[] = [requestsCommand, compactCommand, prefixCommand];

export function findCommand(name: string): CliCommand | undefined {
  return COMMANDS.find((command) => command.name === name);
}
