// The drift harness, run by hand (never in CI): `npm run drift -- <agent>@<version> [--keep] [--direct]`.
// It installs that version of the agent from npm into a temporary prefix, drives the scripted
// conversation (conversation.ts) through it — one headless invocation per prompt, each continuing
// the session, every one started behind `contextscope capture` so each request the agent sends
// is recorded on its way to the scripted provider (provider.ts) — then runs `contextscope verify`
// on the session file the agent wrote against those captures, and prints how many requests the
// rebuild equals, and the first difference. A new agent version that writes or sends something new
// shows up here before a user's file shows it. `--keep` leaves the temporary folder (its path is
// printed); `--direct` runs the agent against the provider without the proxy (no verification:
// for checking a driver). Agents: see agents.ts.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DRIVERS, type AgentDriver, type DriveContext } from "./agents";
import { SCRIPTED_TURNS } from "./conversation";
import { ScriptedProvider } from "./provider";
import { writeWorkspace } from "./workspace";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const TSX = path.join(REPO, "node_modules", ".bin", "tsx");
const CLI = path.join(REPO, "src", "cli", "main.ts");
/** One invocation may run several model calls and a compaction; a hung agent is stopped after this. */
const INVOCATION_TIMEOUT_MS = 240_000;

function usage(message: string): never {
  console.error(`${message}\nusage: npm run drift -- <agent>@<version> [--keep] [--direct]\nagents: ${DRIVERS.map((driver) => driver.id).join(", ")}`);
  process.exit(2);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Stops with a message when the `node` on PATH (which runs the agent's executable) is older than the agent needs. */
function checkNode(driver: AgentDriver): void {
  if (driver.minNodeMajor === undefined) return;
  const found = spawnSync("node", ["--version"], { encoding: "utf8" }).stdout?.trim() ?? "";
  const major = Number(/^v(\d+)\./.exec(found)?.[1] ?? 0);
  if (major < driver.minNodeMajor) usage(`${driver.id} needs Node ${driver.minNodeMajor} or newer first on PATH (found ${found || "none"})`);
}

function install(driver: AgentDriver, version: string, prefix: string): string {
  console.log(`installing ${driver.packageName}@${version} …`);
  const packages = [`${driver.packageName}@${version}`, ...(driver.companions?.(version) ?? [])];
  const result = spawnSync("npm", ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel", "error", ...(driver.installFlags ?? []), ...packages], { stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm install ${driver.packageName}@${version} failed`);
  const bin = path.join(prefix, "node_modules", ".bin", driver.bin);
  if (!existsSync(bin)) throw new Error(`${driver.packageName}@${version} installed no ${driver.bin} executable`);
  return bin;
}

/** Runs one command to its end (or the timeout); resolves with its exit code. */
function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; log: string }): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    const output: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), INVOCATION_TIMEOUT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      const text = Buffer.concat(output).toString("utf8").trim();
      if (code !== 0 && text) console.log(`    ${options.log}: exit ${code}\n${text.split("\n").slice(-8).map((line) => `      ${line}`).join("\n")}`);
      resolve(code);
    });
  });
}

/** Copies each invocation's captures into one folder, numbered on in arrival order. */
function mergeCaptures(folders: string[], into: string): number {
  mkdirSync(into, { recursive: true });
  let next = 0;
  for (const folder of folders) {
    if (!existsSync(folder)) continue;
    const groups = new Map<number, string[]>();
    const walk = (at: string, relative: string) => {
      for (const entry of readdirSync(at, { withFileTypes: true })) {
        const rel = path.join(relative, entry.name);
        if (entry.isDirectory()) walk(path.join(at, entry.name), rel);
        const number = /^(\d+)\./.exec(entry.name);
        if (entry.isFile() && number) groups.set(Number(number[1]), [...(groups.get(Number(number[1])) ?? []), rel]);
      }
    };
    walk(folder, "");
    for (const number of [...groups.keys()].sort((a, b) => a - b)) {
      next += 1;
      for (const rel of groups.get(number)!) {
        const name = path.basename(rel).replace(/^\d+/, String(next).padStart(3, "0"));
        const target = path.join(into, path.dirname(rel), name);
        mkdirSync(path.dirname(target), { recursive: true });
        cpSync(path.join(folder, rel), target);
      }
    }
  }
  return next;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const target = args.find((arg) => !arg.startsWith("--")) ?? usage("which agent?");
  const at = target.lastIndexOf("@");
  const id = at > 0 ? target.slice(0, at) : target;
  const version = at > 0 ? target.slice(at + 1) : "latest";
  const driver = DRIVERS.find((candidate) => candidate.id === id) ?? usage(`unknown agent ${id}`);
  const keep = args.includes("--keep");
  const direct = args.includes("--direct");
  checkNode(driver);

  const root = mkdtempSync(path.join(tmpdir(), `drift-${driver.id}-`));
  const provider = new ScriptedProvider(driver.provider);
  try {
    const bin = install(driver, version, path.join(root, "agent"));
    const providerUrl = await provider.start();
    const proxyPort = await freePort();
    const context: DriveContext = { home: path.join(root, "home"), workspace: path.join(root, "lighthouse-notes"), proxyUrl: direct ? providerUrl : `http://127.0.0.1:${proxyPort}` };
    mkdirSync(context.home, { recursive: true });
    writeWorkspace(context.workspace);
    driver.configure(context);
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: context.home, TMPDIR: path.join(root, "tmp"), LANG: "C.UTF-8", ...driver.env(context) };
    mkdirSync(env.TMPDIR!, { recursive: true });
    if (direct) Object.assign(env, { ANTHROPIC_BASE_URL: providerUrl, OPENAI_BASE_URL: `${providerUrl}/v1`, GOOGLE_GEMINI_BASE_URL: providerUrl });

    const prompts: string[] = [];
    SCRIPTED_TURNS.forEach((turn, index) => {
      prompts.push(turn.prompt);
      if (driver.manualCompaction?.afterTurn === index) prompts.push(driver.manualCompaction.prompt);
    });
    const captureFolders: string[] = [];
    for (const [index, prompt] of prompts.entries()) {
      const agentArgs = driver.argv(prompt, index === 0);
      const out = path.join(root, "captures", String(index + 1).padStart(2, "0"));
      captureFolders.push(out);
      console.log(`  ${String(index + 1).padStart(2)}. ${prompt}`);
      const label = `${driver.bin} ${JSON.stringify(prompt)}`;
      if (direct) await run(bin, agentArgs, { cwd: context.workspace, env, log: label });
      else await run(TSX, [CLI, "capture", "--port", String(proxyPort), "--out", out, "--upstream", providerUrl, "--", bin, ...agentArgs], { cwd: context.workspace, env, log: label });
    }
    const answered = provider.answered;
    console.log(`\nprovider: ${answered.length} requests (${answered.filter((row) => row.kind === "step").length} conversation steps, ${answered.filter((row) => row.kind === "summary").length} summaries or titles)`);
    const sessionFiles = driver.sessionFiles(context);
    console.log(`session files: ${sessionFiles.length === 0 ? "none found" : sessionFiles.map((file) => path.relative(root, file)).join(", ")}`);
    if (direct || sessionFiles.length === 0) return;

    // Each invocation's proxy wrote requests/NNN.json, NNN.meta.json and responses/NNN.txt under its own folder.
    const merged = path.join(root, "capture");
    const captured = mergeCaptures(captureFolders, merged);
    const requests = path.join(merged, "requests");
    console.log(`captured: ${captured} requests\n`);
    const verify = spawnSync(TSX, [CLI, "verify", ...sessionFiles, "--captures", requests], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
    const lines = verify.stdout.trim().split("\n").filter(Boolean);
    const firstDifference = lines.find((line) => line.includes('"verdict":"differs"'));
    const summary = lines.find((line) => line.startsWith('{"kind":"summary"'));
    console.log(`${driver.id}@${version}: ${summary ? (JSON.parse(summary) as { text: string }).text : "verify printed no summary"}`);
    if (firstDifference) console.log(`first difference: ${firstDifference}`);
    if (verify.stderr.trim()) console.log(verify.stderr.trim().split("\n").slice(0, 10).join("\n"));
  } finally {
    await provider.stop();
    if (keep) console.log(`kept: ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

await main();
