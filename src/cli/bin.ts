// The compiled `contextscope` command (dist-cli/contextscope.mjs). Help requests are answered from
// dist-cli/usage.json, written by the build from the command registry, so `contextscope --help`
// starts without parsing the core; every other invocation loads the CLI on demand. Only the exact
// help forms take the short path (`contextscope`, `--help`/`-h`/`help`, `<command> --help`/`-h`);
// anything else goes through runCli, which prints the same texts for them.
import { readFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

interface UsageTexts {
  main: string;
  commands: Record<string, string>;
}

function readUsage(): UsageTexts | null {
  try {
    return JSON.parse(readFileSync(new URL("./usage.json", import.meta.url), "utf8")) as UsageTexts;
  } catch {
    return null;
  }
}

/** Answers a help request from the usage file; false when the CLI itself must run. */
function answerHelp(argv: string[]): boolean {
  const isHelp = (arg: string | undefined) => arg === "--help" || arg === "-h";
  const wantsMain = argv.length === 0 || (argv.length === 1 && (isHelp(argv[0]) || argv[0] === "help"));
  const wantsCommand = argv.length === 2 && isHelp(argv[1]);
  if (!wantsMain && !wantsCommand) return false;
  const usage = readUsage();
  if (!usage) return false;
  if (wantsMain) {
    if (argv.length === 0) {
      process.stderr.write(usage.main);
      process.exitCode = 1;
    } else process.stdout.write(usage.main);
    return true;
  }
  const text = usage.commands[argv[0]!];
  if (text === undefined) return false;
  process.stdout.write(text);
  return true;
}

if (!isMainThread) {
  // Worker threads (token counting, scan) start from this same file.
  const { runWorkerThread } = await import("./threads/worker");
  await runWorkerThread();
} else if (!answerHelp(process.argv.slice(2))) {
  const [{ runProcess }, { BIN_PROGRAM }, { setThreadEntry }] = await Promise.all([
    import("./process"),
    import("./binProgram"),
    import("./threads/entry"),
  ]);
  setThreadEntry(new URL(import.meta.url));
  runProcess(BIN_PROGRAM);
}
