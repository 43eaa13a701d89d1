// The MCP tools about whole sessions: list them, search their user prompts, price them. Each one
// reads only files inside the server's folders (folders.ts) and answers with JSON text.
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { sessionCostInputs } from "../../app/sessionPrices";
import { analyzeSession } from "../../core/session/pipeline";
import { wholeSessionCost } from "../../core/pricing/index";
import { datasetPriceTable } from "../../core/pricing/dataset";
import { wholeSessionTotals } from "../../core/session/index";
import type { SessionFolders } from "./folders";
import { jsonResult, READ_ONLY, REDACT_ARG, redacted, SESSION_ARG } from "./toolResult";
import { readSession, sessionRow, userPromptHits } from "./sessionFacts";

export function registerSessionTools(server: McpServer, folders: SessionFolders): void {
  server.registerTool(
    "list_sessions",
    {
      description: "List the agent sessions under the server's folders: file, agent, turns, compactions, first and last time, title and project where the file records them.",
      inputSchema: {},
      annotations: READ_ONLY,
    },
    async () => {
      const rows = [];
      for (const job of folders.sessions()) {
        try {
          rows.push(sessionRow(job.file, await readSession(job.file)));
        } catch (error) {
          rows.push({ file: job.file, error: (error as Error).message });
        }
      }
      return jsonResult({ folders: folders.named, sessions: rows });
    },
  );

  server.registerTool(
    "search_sessions",
    {
      description: "Find the sessions whose user prompts contain a text (case-insensitive): per session, the turns and a snippet around each match.",
      inputSchema: {
        query: z.string().min(1).describe("the text to find in user prompts"),
        limit: z.number().int().min(1).max(200).optional().describe("matches listed per session (default 20)"),
        redact: REDACT_ARG,
      },
      annotations: READ_ONLY,
    },
    async ({ query, limit, redact }) => {
      const results = [];
      for (const job of folders.sessions()) {
        try {
          const hits = userPromptHits(await readSession(job.file), query, limit ?? 20);
          if (hits.length > 0) results.push({ file: job.file, hits: hits.map(({ turn, snippet, match, count }) => ({ turn, snippet, match, count })) });
        } catch {
          // A file the readers cannot read has no prompts to match; list_sessions names its error.
        }
      }
      return jsonResult({ query, sessions: redacted(results, redact) });
    },
  );

  server.registerTool(
    "session_cost",
    {
      description:
        "A session's cost in US dollars from the built-in price table: every provider call of every thread with the usage the file records (input, cache read, cache write, output tokens), per thread and in total, and the models no price row covers.",
      inputSchema: { file: z.string().describe("the session file (inside the server's folders)"), session: SESSION_ARG },
      annotations: READ_ONLY,
    },
    async ({ file, session: sessionId }) => {
      const real = folders.resolve(file);
      const session = await readSession(real, sessionId ?? null);
      const pipeline = { leafId: null, api: null, header: null, notes: false };
      const inputs = sessionCostInputs(session, pipeline, analyzeSession(session, pipeline));
      const cost = wholeSessionCost(inputs, datasetPriceTable());
      return jsonResult({ file: real, ...wholeSessionTotals(inputs, cost), threads: cost.threads });
    },
  );
}
