// Argument parsing for one command over its declared options (node:util parseArgs, strict), with
// errors phrased for the user.
import { parseArgs } from "node:util";
import { CliError } from "./io";
import type { CliCommand, CliOptionValues } from "./registry";

export interface ParsedCommandArgs {
  positionals: string[];
  options: CliOptionValues;
  help: boolean;
}

export function parseCommandArgs(command: CliCommand, argv: string[]): ParsedCommandArgs {
  const spec: Record<string, { type: "string" | "boolean"; multiple?: boolean }> = { help: { type: "boolean" } };
  for (const option of command.options) {
    spec[option.name] = { type: option.value ? "string" : "boolean", ...(option.multiple ? { multiple: true } : {}) };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options: spec, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(`${command.name}: ${(error as Error).message.split("\n")[0]}`);
  }
  const options = parsed.values as CliOptionValues;
  const help = options.help === true;
  if (!help) {
    for (const option of command.options) {
      const value = options[option.name];
      if (option.choices && typeof value === "string" && !option.choices.includes(value)) {
        throw new CliError(`${command.name}: --${option.name} must be one of ${option.choices.join(", ")} (got "${value}")`);
      }
    }
    // A last positional written "<…>…" takes one or more arguments (scan's files and folders).
    const variadic = command.positionals.at(-1)?.endsWith("…") ?? false;
    const count = parsed.positionals.length;
    if (variadic ? count < command.positionals.length : count !== command.positionals.length) {
      throw new CliError(
        `${command.name}: expected ${command.positionals.join(" ")}, got ${parsed.positionals.length === 0 ? "nothing" : parsed.positionals.map((p) => `"${p}"`).join(" ")}`,
      );
    }
  }
  return { positionals: parsed.positionals, options, help };
}

/** A positive integer option, or undefined when absent. */
export function integerOption(options: CliOptionValues, name: string, command: string, min = 1): number | undefined {
  const value = options[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !/^\d+$/.test(value) || Number(value) < min) {
    throw new CliError(`${command}: --${name} must be an integer ≥ ${min} (got "${String(value)}")`);
  }
  return Number(value);
}

/** The values of a repeatable string option. */
export function listOption(options: CliOptionValues, name: string): string[] {
  const value = options[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [String(value)];
}
