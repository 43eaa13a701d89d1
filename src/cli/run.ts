// The CLI over injected IO: `runCli(argv, io)` dispatches to a command from the registry and
// returns the exit status (0 success, 1 bad arguments or unreadable/unsupported input). Only the
// command that runs is loaded (commands/load.ts): a process pays for its own command's modules.
import { parseCommandArgs } from "./args";
import { COMMAND_NAMES, loadCommand } from "./commands/load";
import { CliError, type CliIo } from "./io";
import type { CliCommand } from "./registry";
import { loadTokenizerTables } from "../core/tokens/tables";
import { safeErrorText, safeOutputText } from "./terminalText";

/** How the usage texts name the program: the development form; the compiled bin passes "contextscope". */
export const DEV_PROGRAM = "npm run cli --";

export function commandUsage(command: CliCommand, program = DEV_PROGRAM): string {
  const lines = [`Usage: ${program} ${command.name} ${command.positionals.join(" ")} [options]`, "", command.summary, "", "Options:"];
  const labels = command.options.map((o) => `--${o.name}${o.value ? ` <${o.value}>` : ""}`);
  // Labels longer than the column get their description on the next line.
  const width = 30;
  command.options.forEach((option, i) => {
    const label = labels[i]!;
    if (label.length <= width) lines.push(`  ${label.padEnd(width)}  ${option.description}`);
    else lines.push(`  ${label}`, `  ${" ".repeat(width)}  ${option.description}`);
  });
  lines.push(`  ${"--help".padEnd(width)}  show this help`);
  if (command.details) lines.push("", command.details);
  return `${lines.join("\n")}\n`;
}

export async function runCli(argv: string[], rawIo: CliIo, program = DEV_PROGRAM): Promise<number> {
  // Every line any command writes passes here: no control sequence from a session reaches a terminal.
  const io: CliIo = { ...rawIo, stdout: (text) => rawIo.stdout(safeOutputText(text)), stderr: (text) => rawIo.stderr(safeErrorText(text)) };
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    // The command list with every summary: the only path that loads every command.
    const { mainUsage } = await import("./mainUsage");
    (name === undefined ? io.stderr : io.stdout)(mainUsage(program));
    return name === undefined ? 1 : 0;
  }
  const command = await loadCommand(name);
  if (!command) {
    io.stderr(`error: unknown command "${name}" (commands: ${COMMAND_NAMES.join(", ")}; see --help)\n`);
    return 1;
  }
  try {
    const parsed = parseCommandArgs(command, rest);
    if (parsed.help) {
      io.stdout(commandUsage(command, program));
      return 0;
    }
    await loadTokenizerTables(command.tokenTables ? command.tokenTables(parsed.options) : ["o200k", "claude"]);
    return await command.run(parsed.positionals, parsed.options, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`error: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr(`error: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  }
}
