// Runs a CLI command in-process for an MCP tool and keeps what it prints, so each tool answers
// with exactly what the command computes (the same options parsing, the same output lines, the
// same escaping of control characters as `runCli` applies on the way to a terminal).
import { readFileSync } from "node:fs";
import { parseCommandArgs } from "../args";
import { fileChunks } from "../fileChunks";
import { fileTextSource } from "../fileTextSource";
import type { CliIo } from "../io";
import type { CliCommand } from "../registry";
import { safeErrorText, safeOutputText } from "../terminalText";
import { loadTokenizerTables } from "../../core/tokens/tables";

export interface CommandOutput {
  stdout: string;
  stderr: string;
  /** stdout's JSON lines, parsed. */
  lines: Record<string, unknown>[];
}

/** The command's output for `argv` (its positionals and options); throws its error message when it fails. */
export async function commandOutput(command: CliCommand, argv: string[]): Promise<CommandOutput> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: (text) => void (stdout += safeOutputText(text)),
    stderr: (text) => void (stderr += safeErrorText(text)),
    readFile: (file) => {
      const buffer = readFileSync(file);
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    },
    readFileChunks: (file) => fileChunks(file),
    openTextSource: (file) => fileTextSource(file),
  };
  const parsed = parseCommandArgs(command, argv);
  await loadTokenizerTables(command.tokenTables ? command.tokenTables(parsed.options) : ["o200k", "claude"]);
  const code = await command.run(parsed.positionals, parsed.options, io);
  if (code !== 0) throw new Error(`${command.name} failed: ${stderr.trim() || `exit status ${code}`}`);
  const lines = stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { stdout, stderr, lines };
}
