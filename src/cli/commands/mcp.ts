// `mcp`: a Model Context Protocol server on standard input and output, read-only, over the
// sessions folders named on the command line (src/cli/mcp/server.ts). An agent (Claude Code,
// Codex, opencode, …) starts it and calls its tools; it runs until the client closes the pipe.
// Nothing else may write to standard output while it runs: that stream carries the protocol.
import { orCliError, type CliIo } from "../io";
import { type CliCommand, type CliOptionValues, withoutTokenTables } from "../registry";

const NAME = "mcp";

async function run(positionals: string[], _options: CliOptionValues, io: CliIo): Promise<number> {
  // The protocol SDK (and zod) load only for this command: they cost every other command start-up time.
  const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([import("@modelcontextprotocol/sdk/server/stdio.js"), import("../mcp/server")]);
  const server = orCliError(NAME, () => createMcpServer(positionals));
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once("end", resolve);
  });
  await server.connect(transport);
  io.stderr(`contextscope mcp: serving ${positionals.join(", ")} on stdio (read-only)\n`);
  await closed;
  await server.close();
  return 0;
}

// Each tool loads the tables its command needs.
export const mcpCommand: CliCommand = withoutTokenTables({
  name: NAME,
  summary: "serve the sessions under folders to an agent as a read-only Model Context Protocol server on stdio",
  positionals: ["<folder>…"],
  options: [],
  details: [
    "Tools: list_sessions, search_sessions, get_request (redacted unless redact:false), explain_break,",
    "simulate_compaction, session_cost, compare_sessions. Resources: each turn's request at",
    "contextscope://session/<file>/turn/<n>. Every path outside the named folders is refused (links resolved).",
    "Add it to Claude Code: claude mcp add contextscope -- npx contextscope mcp <folder>  (docs/mcp.md).",
  ].join("\n"),
  run,
});
