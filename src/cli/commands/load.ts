// Each command's module by name, loaded when that command runs: running `prefix` evaluates the
// prefix command and what it imports, not `watch`, `capture` or `check` and theirs (in the
// compiled bin each is a chunk of its own). The names are in the order `--help` shows them;
// commands/index.ts holds the same commands loaded at once, for the usage texts (a test holds the
// two lists equal).
import type { CliCommand } from "../registry";

const LOADERS: Readonly<Record<string, () => Promise<CliCommand>>> = {
  requests: async () => (await import("./requests")).requestsCommand,
  compact: async () => (await import("./compact")).compactCommand,
  prefix: async () => (await import("./prefix")).prefixCommand,
  export: async () => (await import("./export")).exportCommand,
  share: async () => (await import("./share")).shareCommand,
  open: async () => (await import("./open")).openCommand,
  check: async () => (await import("./check")).checkCommand,
  compare: async () => (await import("./compare")).compareCommand,
  threads: async () => (await import("./threads")).threadsCommand,
  captures: async () => (await import("./captures")).capturesCommand,
  capture: async () => (await import("./capture")).captureCommand,
  verify: async () => (await import("./verify")).verifyCommand,
  scan: async () => (await import("./scan")).scanCommand,
  watch: async () => (await import("./watch")).watchCommand,
  mcp: async () => (await import("./mcp")).mcpCommand,
};

/** Every command's name, in the order of the usage text. */
export const COMMAND_NAMES: readonly string[] = Object.keys(LOADERS);

/** The command of that name, its module loaded now; null for an unknown name. */
export async function loadCommand(name: string): Promise<CliCommand | null> {
  const load = Object.hasOwn(LOADERS, name) ? LOADERS[name] : undefined;
  return load ? await load() : null;
}
