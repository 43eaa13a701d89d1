// Every usage text of the compiled CLI, computed from the command registry at build time
// (scripts/build-cli.mjs writes them to dist-cli/usage.json). The bin answers `--help` from that
// file without loading the core, which is what keeps its start-up short.
import { COMMANDS } from "./commands";
import { BIN_PROGRAM } from "./binProgram";
import { mainUsage } from "./mainUsage";
import { commandUsage } from "./run";

interface UsageTexts {
  main: string;
  commands: Record<string, string>;
}

/**
 * Called by scripts/build-cli.mjs from the built chunk (dist-cli/usage-texts.mjs), which knip
 * cannot follow.
 * @public
 */
export function usageTexts(program = BIN_PROGRAM): UsageTexts {
  const commands: Record<string, string> = {};
  for (const command of COMMANDS) commands[command.name] = commandUsage(command, program);
  return { main: mainUsage(program), commands };
}
