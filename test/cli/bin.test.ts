// The compiled CLI (scripts/build-cli.mjs → package.json `bin`): built once into
// test-results/cli-bin, then run as a real process. Its help texts name `contextscope` and equal
// what the command registry says; `requests` and `prefix` print the same bytes as the in-process
// CLI (the code `npm run cli` runs); a bad command exits 1; a command loads its own modules, not
// every command's (read from the chunks' static imports). On worker threads, `prefix` (exact
// tokens counted by the pool) and `scan` print what one thread prints.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePiSession } from "../../bench/generate-session";
import { COMMANDS } from "../../src/cli/commands";
import { mainUsage } from "../../src/cli/mainUsage";
import { commandUsage } from "../../src/cli/run";
import { fixtureCase } from "../support/fixtures";
import { runCliCaptured } from "./cli-helpers";
import { makeScanFolder } from "./scan-helpers";

const outdir = path.resolve("test-results/cli-bin");
const bin = path.join(outdir, "contextscope.mjs");

function runBin(args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * What loading these chunks of the build evaluates: the chunk files reached through static
 * imports (not `import()`), and the packages and Node modules they import statically.
 */
function staticClosure(chunks: string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/^(?:import|export)\s[^;]*?\bfrom\s*"([^"]+)"|^import\s*"([^"]+)"/gm)) {
      const specifier = (match[1] ?? match[2])!;
      if (specifier.startsWith(".")) visit(path.resolve(path.dirname(file), specifier));
      else packages.add(specifier);
    }
  };
  for (const chunk of chunks) visit(chunk);
  return { files, packages };
}

/** The chunk esbuild made for a dynamically imported module (`<name>-<hash>.mjs`). */
function chunkOf(name: string): string {
  const found = readdirSync(path.join(outdir, "chunks")).filter((file) => new RegExp(`^${name}-[A-Z0-9]+\\.mjs$`).test(file));
  expect(found, `one chunk named ${name}`).toHaveLength(1);
  return path.join(outdir, "chunks", found[0]!);
}

beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build-cli.mjs", "--outdir", outdir], { stdio: "pipe" });
}, 120_000);

describe("compiled CLI", () => {
  it("is built as an executable ES module with its usage file", () => {
    expect(existsSync(bin)).toBe(true);
    expect(existsSync(path.join(outdir, "usage.json"))).toBe(true);
  });

  it("answers --help with the registry's texts, named contextscope", () => {
    const main = runBin(["--help"]);
    expect(main.code).toBe(0);
    expect(main.stdout).toBe(mainUsage("contextscope"));
    expect(main.stdout).toContain("Usage: contextscope <command>");
    const none = runBin([]);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(mainUsage("contextscope"));
    for (const command of COMMANDS) {
      const help = runBin([command.name, "--help"]);
      expect(help.code).toBe(0);
      expect(help.stdout).toBe(commandUsage(command, "contextscope"));
    }
  });

  it.each(["requests", "prefix"])("%s prints the same bytes as the in-process CLI", async (command) => {
    const session = fixtureCase("pi/print-openai-autocompact").sessionPath;
    const built = runBin([command, session]);
    const inProcess = await runCliCaptured([command, session]);
    expect(built.code).toBe(0);
    expect(inProcess.code).toBe(0);
    expect(built.stdout.length).toBeGreaterThan(100);
    expect(built.stdout).toBe(inProcess.stdout);
    expect(built.stderr).toBe(inProcess.stderr);
  });

  it("loads only the command that runs: what every command loads holds no command, no price data", () => {
    // The bin imports the process chunk for any command; the command's own chunk comes after.
    const common = staticClosure([chunkOf("process")]);
    expect(common.files.size).toBeGreaterThan(1);
    expect(common.packages.has("@pydantic/genai-prices")).toBe(false);
    expect([...common.packages].filter((name) => /^node:(?:https?|child_process)$/.test(name))).toEqual([]);
    const prefix = staticClosure([chunkOf("process"), chunkOf("prefix")]);
    expect(prefix.packages.has("@pydantic/genai-prices")).toBe(true);
    // The capture proxy (node:http, node:https) and the capture command's child process are capture's own.
    expect([...prefix.packages].filter((name) => /^node:(?:https?|child_process)$/.test(name))).toEqual([]);
    expect(staticClosure([chunkOf("process"), chunkOf("capture")]).packages.has("node:https")).toBe(true);
    // check prices nothing: the price dataset (some 100 ms of CPU to evaluate) stays unloaded.
    expect(staticClosure([chunkOf("process"), chunkOf("check")]).packages.has("@pydantic/genai-prices")).toBe(false);
  });

  it("exits 1 on an unknown command, naming it", () => {
    const run = runBin(["no-such-command"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('unknown command "no-such-command"');
  });
});

describe("compiled CLI on worker threads", () => {
  let dir = "";
  let session = "";
  let large = "";
  let folder: ReturnType<typeof makeScanFolder>;
  beforeAll(async () => {
    // Large enough (several M characters of distinct text) for the token pool to start its threads.
    const generated = await generatePiSession({ minBytes: 5 * 1024 * 1024, minTurns: 0, seed: 3 });
    session = generated.file;
    dir = path.dirname(session);
    // Over 8 MB: prefix starts its token threads before it reads the file.
    large = (await generatePiSession({ minBytes: 9 * 1024 * 1024, minTurns: 0, seed: 4 })).file;
    folder = makeScanFolder();
  }, 120_000);
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(path.dirname(large), { recursive: true, force: true });
    rmSync(folder.root, { recursive: true, force: true });
  });

  it("prefix with exact tokens counted on 2 threads prints what one thread prints", () => {
    const threaded = runBin(["prefix", session, "--jobs", "2"]);
    const single = runBin(["prefix", session, "--jobs", "1"]);
    expect(threaded.code).toBe(0);
    expect(single.code).toBe(0);
    expect(threaded.stdout.split("\n").length).toBeGreaterThan(100);
    expect(threaded.stdout).toBe(single.stdout);
  }, 300_000);

  it("prefix with token threads started before the file is read prints what one thread prints", () => {
    const threaded = runBin(["prefix", large, "--jobs", "2"]);
    const single = runBin(["prefix", large, "--jobs", "1"]);
    expect(threaded.code).toBe(0);
    expect(threaded.stdout.split("\n").length).toBeGreaterThan(300);
    expect(threaded.stdout).toBe(single.stdout);
  }, 300_000);

  it("scan on 2 threads prints the same lines as one after another (order aside)", () => {
    const sort = (text: string) => text.split("\n").filter(Boolean).sort();
    const threaded = runBin(["scan", folder.root, "--jobs", "2"]);
    const single = runBin(["scan", folder.root, "--jobs", "1"]);
    expect(threaded.code).toBe(0);
    expect(sort(threaded.stdout)).toHaveLength(3);
    expect(sort(threaded.stdout)).toEqual(sort(single.stdout));
    // stderr is not a terminal here: no progress bar, only the skipped file.
    expect(threaded.stderr).toBe(`skipped: ${folder.other}: not a session file of a supported agent\n`);
  }, 300_000);
});
