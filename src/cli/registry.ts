// The CLI's command registry: each command names its options once (used for parsing and for
// `--help`) and runs against injected IO. New commands (prefix, compact, lint, export, share,
// open) are added to COMMANDS in commands/index.ts.
import type { CliIo } from "./io";
import type { TokenizerTable } from "../core/tokens/tables";

export interface CliOptionSpec {
  name: string;
  /** Placeholder shown in the usage text; absent for a boolean flag. */
  value?: string;
  description: string;
  /** The option may be given several times. */
  multiple?: boolean;
  /** Allowed values, checked before the command runs. */
  choices?: readonly string[];
}

export type CliOptionValues = Record<string, string | string[] | boolean | undefined>;

export interface CliCommand {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Positional arguments, as shown in the usage line (e.g. "<session-file>"). */
  positionals: string[];
  options: CliOptionSpec[];
  /** Longer help text after the options (output shape, examples). */
  details?: string;
  /**
   * The tokenizer tables loaded before run() (they cost start-up time, so a command that only
   * estimates names none); absent: all of them. A command may also load tables itself once it
   * knows which it needs (prefix, per session).
   */
  tokenTables?(options: CliOptionValues): TokenizerTable[];
  run(positionals: string[], options: CliOptionValues, io: CliIo): Promise<number> | number;
}

/**
 * A command that loads no tokenizer table before it runs: its token figures are chars/4 estimates,
 * or it loads the tables it needs itself once it knows which (they cost start-up time).
 */
export function withoutTokenTables(command: Omit<CliCommand, "tokenTables">): CliCommand {
  return { ...command, tokenTables: () => [] };
}
