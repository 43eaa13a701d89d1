// `capture`: records what an agent really sends. Starts the recording proxy on 127.0.0.1
// (src/cli/capture/proxy.ts), starts the agent command as a child with its providers' base URL
// variables pointing at the proxy, and when the agent exits, closes the proxy once every exchange
// is written and exits with the agent's status. The recording is read by `verify` and `captures`.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import path from "node:path";
import { integerOption } from "../args";
import { startCaptureProxy } from "../capture/proxy";
import { CliError, type CliIo } from "../io";
import type { CliCommand, CliOptionValues } from "../registry";

const NAME = "capture";

/** The variables that point each provider SDK at the proxy (OpenAI's base URL includes its version). */
function baseUrlVariables(proxyUrl: string): Record<string, string> {
  return { ANTHROPIC_BASE_URL: proxyUrl, OPENAI_BASE_URL: `${proxyUrl}/v1`, GOOGLE_GEMINI_BASE_URL: proxyUrl };
}

function defaultOut(): string {
  return `contextscope-capture-${new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19)}`;
}

function upstreamOption(options: CliOptionValues): string | null {
  const value = options.upstream;
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    throw new CliError(`${NAME}: --upstream must be an http:// or https:// URL (got "${value}")`);
  }
  return value;
}

/** Runs the agent with the variables set and resolves with its exit status (128 + signal number when a signal ended it). */
function runAgent(command: string[], variables: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: "inherit", env: { ...process.env, ...variables } });
    // Ctrl-C and a termination request go to the agent; the proxy stays up until it has exited.
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on("SIGINT", forward);
    process.on("SIGTERM", forward);
    const stop = () => {
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
    };
    child.on("error", (error) => {
      stop();
      reject(new CliError(`${NAME}: cannot start ${command[0]}: ${error.message}`));
    });
    child.on("exit", (code, signal) => {
      stop();
      resolve(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });
}

async function run(positionals: string[], options: CliOptionValues, io: CliIo): Promise<number> {
  const port = integerOption(options, "port", NAME, 0) ?? 0;
  const out = path.resolve(typeof options.out === "string" ? options.out : defaultOut());
  const proxy = await startCaptureProxy({ port, out, upstream: upstreamOption(options) }).catch((error: Error) => {
    throw new CliError(`${NAME}: cannot listen on 127.0.0.1:${port}: ${error.message}`);
  });
  io.stderr(`${NAME}: proxy ${proxy.url}, recording to ${out}\n`);
  let status: number;
  try {
    status = await runAgent(positionals, baseUrlVariables(proxy.url));
  } finally {
    await proxy.close();
  }
  io.stderr(`${NAME}: ${proxy.recording.count} request(s) recorded in ${out}; agent exited with ${status}\n`);
  return status;
}

export const captureCommand: CliCommand = {
  name: NAME,
  summary: "run an agent behind a recording proxy and write every request it sends, byte for byte (credentials never written)",
  positionals: ["<agent-command>…"],
  options: [
    { name: "port", value: "N", description: "port of the proxy on 127.0.0.1 (default: any free port)" },
    { name: "out", value: "dir", description: "folder of the recording (default: ./contextscope-capture-<time>)" },
    { name: "upstream", value: "url", description: "send every request here (a gateway, a test server); default: the provider's own address, chosen by path" },
  ],
  details: [
    "Give the agent command after --, e.g.  capture --out rec -- claude -p \"hello\"",
    "The agent runs with ANTHROPIC_BASE_URL, OPENAI_BASE_URL (…/v1) and GOOGLE_GEMINI_BASE_URL set to the proxy;",
    "docs/fidelity.md says what each agent needs besides. Without --upstream: /v1/messages goes to api.anthropic.com,",
    "other /v1/ paths to api.openai.com, /v1beta/ and model:generateContent paths to generativelanguage.googleapis.com.",
    "Written per request: requests/NNN.json (the body byte for byte), requests/NNN.meta.json (method, path, status,",
    "timing, guessed kind main|summary|title, headers with credentials redacted), responses/NNN.txt (response bytes).",
    "Exit status: the agent's.",
  ].join("\n"),
  tokenTables: () => [],
  run,
};
