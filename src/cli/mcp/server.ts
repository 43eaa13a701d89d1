// The read-only MCP server over the sessions folders a user names: the tools (sessionTools.ts,
// turnTools.ts) and one resource per turn of each session, its rebuilt request, redacted, at
// `contextscope://session/<file>/turn/<n>` (<file>: the session's real path, URI-encoded).
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { countTurns } from "../../core/session/pipeline";
import { SessionFolders } from "./folders";
import { readSession } from "./sessionFacts";
import { registerSessionTools } from "./sessionTools";
import { registerTurnTools, turnRequest } from "./turnTools";
import { version } from "../../../package.json";

const TURN_URI_TEMPLATE = "contextscope://session/{file}/turn/{turn}";

function turnUri(file: string, turn: number): string {
  return `contextscope://session/${encodeURIComponent(file)}/turn/${turn}`;
}

function registerTurnResources(server: McpServer, folders: SessionFolders): void {
  const list = async () => {
    const resources = [];
    for (const job of folders.sessions()) {
      let turns = 0;
      try {
        turns = countTurns(await readSession(job.file), { leafId: null, api: null, header: null, notes: false });
      } catch {
        continue; // Not readable: list_sessions names its error.
      }
      for (let turn = 1; turn <= turns; turn++) {
        resources.push({ uri: turnUri(job.file, turn), name: `${job.file} turn ${turn}`, mimeType: "application/json" });
      }
    }
    return { resources };
  };
  server.registerResource(
    "turn-request",
    new ResourceTemplate(TURN_URI_TEMPLATE, { list }),
    { description: "A turn's rebuilt provider request (secrets masked), as get_request returns it", mimeType: "application/json" },
    async (uri, variables) => {
      const file = folders.resolve(decodeURIComponent(String(variables.file)));
      const turn = Number(variables.turn);
      if (!Number.isInteger(turn) || turn < 1) throw new Error(`${uri.href}: the turn must be a positive integer`);
      const request = await turnRequest(file, turn, true);
      return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(request, null, 2) }] };
    },
  );
}

/** The server over `folders` (each must be a folder); connect it to a transport to serve. */
export function createMcpServer(folders: readonly string[]): McpServer {
  const named = new SessionFolders(folders);
  const server = new McpServer({ name: "contextscope", version });
  registerSessionTools(server, named);
  registerTurnTools(server, named);
  registerTurnResources(server, named);
  return server;
}
