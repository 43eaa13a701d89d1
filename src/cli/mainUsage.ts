// The main usage text: every command with its one-line summary. Kept apart from run.ts because it
// loads every command's module (commands/index.ts), which a command that runs does not need.
import { COMMANDS } from "./commands";

/** `program`: how the text names the program (run.ts DEV_PROGRAM, or the bin's name). */
export function mainUsage(program: string): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `Usage: ${program} <command> <session-file> [options]`,
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    `Run "${program} <command> --help" for the options of a command.`,
    "Exit status: 0 on success, 1 on bad arguments or unreadable/unsupported input.",
    "",
  ].join("\n");
}

