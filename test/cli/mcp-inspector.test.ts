// `contextscope mcp` driven by the MCP Inspector's own command-line client (a program we did not
// write, fetched with npx): it must list the tools, and its get_request must return the request
// `contextscope requests --turn N` prints. Version 0.15.0 is the newest Inspector that runs on
// Node 20 (later ones require Node 22). When npx cannot reach the registry the tests are skipped
// with a loud note saying so; any other failure fails them.
import { execFile } from "node:child_process";
import path from "node:path";
import { describe, expect, it, type TestContext } from "vitest";
import { runCliCaptured } from "./cli-helpers";
import { fixtureCase } from "../support/fixtures";

const INSPECTOR = "@modelcontextprotocol/inspector@0.15.0";
const CLAUDE = fixtureCase("claude/print-autocompact-manualcompact");
const FOLDER = path.join(CLAUDE.dir, "session");
const TSX = path.resolve("node_modules/.bin/tsx");
const MAIN = path.resolve("src/cli/main.ts");
/** npm's codes for a registry it cannot reach. */
const UNREACHABLE = /\b(ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNREFUSED|ECONNRESET|ENETUNREACH|EHOSTUNREACH|E401|E403|E404|ERR_SOCKET_TIMEOUT)\b/;

interface InspectorRun {
  code: number;
  stdout: string;
  stderr: string;
}

function inspector(args: string[]): Promise<InspectorRun> {
  return new Promise((resolve) => {
    execFile("npx", ["-y", INSPECTOR, "--cli", TSX, MAIN, "mcp", FOLDER, ...args], { maxBuffer: 64 * 1024 * 1024, timeout: 280_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** The Inspector's output parsed; skipped (loudly) when npx could not fetch it, failed otherwise. */
async function parsedOrSkip(run: InspectorRun, context: TestContext): Promise<any> {
  if (run.code !== 0 && UNREACHABLE.test(run.stderr)) {
    const note = `MCP Inspector test SKIPPED: npx could not fetch ${INSPECTOR} from the registry (${UNREACHABLE.exec(run.stderr)![1]})`;
    console.warn(`\n*** ${note} ***\n`);
    context.skip(note);
  }
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe("mcp: the MCP Inspector's CLI", () => {
  it("lists the tools", async (context) => {
    const listed = await parsedOrSkip(await inspector(["--method", "tools/list"]), context);
    expect((listed.tools as { name: string }[]).map((tool) => tool.name).sort()).toEqual(
      ["compare_sessions", "explain_break", "get_request", "list_sessions", "search_sessions", "session_cost", "simulate_compaction"].sort(),
    );
  }, 300_000);

  it("get_request returns the request `requests --turn N` prints", async (context) => {
    const file = CLAUDE.sessionPath;
    const called = await parsedOrSkip(await inspector(["--method", "tools/call", "--tool-name", "get_request", "--tool-arg", `file=${file}`, "--tool-arg", "turn=3", "--tool-arg", "redact=false"]), context);
    expect(called.isError ?? false).toBe(false);
    const { redacted, ...line } = JSON.parse(called.content[0].text);
    expect(redacted).toBe(false);
    const printed = await runCliCaptured(["requests", file, "--turn", "3"]);
    expect(line).toEqual(printed.lines[0]);
  }, 300_000);
});
