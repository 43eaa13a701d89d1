// The MCP tools about turns: a turn's rebuilt request, its cache break, a compaction simulated at
// it, and two sessions compared. Each is the CLI command that computes it (`requests`, `prefix`,
// `compact`, `compare`) run in-process on a file inside the server's folders (folders.ts).
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { redactRequestBody } from "../../app/shareExport";
import { POLICY_IDS } from "../../core/session/simulate/index";
import { compactCommand } from "../commands/compact";
import { compareCommand } from "../commands/compare";
import { prefixCommand } from "../commands/prefix";
import { requestsCommand } from "../commands/requests";
import { commandOutput } from "./commandOutput";
import type { SessionFolders } from "./folders";
import { jsonResult, READ_ONLY, REDACT_ARG, redacted, SESSION_ARG } from "./toolResult";

const FILE_ARG = z.string().describe("the session file (inside the server's folders)");
const TURN_ARG = z.number().int().min(1).describe("the turn, 1-based, on the default branch");

/** `--session <id>` when a database session is named. */
function sessionArgs(sessionId: string | undefined): string[] {
  return sessionId === undefined ? [] : ["--session", sessionId];
}

/**
 * The turn's line of `requests --turn N`; redacted (the default), its request masked as Export
 * masks it, with the review list of what was masked.
 */
export async function turnRequest(file: string, turn: number, redact: boolean, sessionId?: string): Promise<Record<string, unknown>> {
  const { lines } = await commandOutput(requestsCommand, [file, "--turn", String(turn), ...sessionArgs(sessionId)]);
  const line = lines.find((item) => item.turn === turn);
  if (!line) throw new Error(`${file}: turn ${turn} has no request`);
  if (!redact) return { ...line, redacted: false };
  const masked = redactRequestBody(line.request, []);
  return { ...line, request: masked.value, redacted: true, redactions: masked.findings.map(({ id, label, masked: shown }) => ({ id, label, masked: shown })) };
}

function registerRequestTools(server: McpServer, folders: SessionFolders): void {
  server.registerTool(
    "get_request",
    {
      description:
        "The provider request a turn sent, rebuilt from the session file (as `contextscope requests --turn N`), with the recorded usage priced and the request's tokens by kind. Secrets are masked unless redact is false.",
      inputSchema: { file: FILE_ARG, turn: TURN_ARG, redact: z.boolean().optional().describe("mask secrets (default true)"), session: SESSION_ARG },
      annotations: READ_ONLY,
    },
    async ({ file, turn, redact, session }) => jsonResult(await turnRequest(folders.resolve(file), turn, redact ?? true, session)),
  );

  server.registerTool(
    "explain_break",
    {
      description:
        "Where and why a turn's request stopped sharing its prefix with the previous turn's (as `contextscope prefix`): the byte and token offset, the JSON path and cause of the first difference, the provider's own cache verdict when the file records one, and the tokens billed again. Without a turn: every turn that breaks.",
      inputSchema: {
        file: FILE_ARG,
        turn: TURN_ARG.optional(),
        tokenizer: z.enum(["auto", "estimate", "o200k"]).optional().describe("token counts as for prefix (default auto)"),
        session: SESSION_ARG,
      },
      annotations: READ_ONLY,
    },
    async ({ file, turn, tokenizer, session }) => {
      const real = folders.resolve(file);
      const { lines } = await commandOutput(prefixCommand, [real, "--jobs", "1", "--tokenizer", tokenizer ?? "auto", ...sessionArgs(session)]);
      const explained = lines.map(explainLine);
      if (turn === undefined) return jsonResult({ file: real, turns: lines.length, breaks: explained.filter((line) => line.breaks) });
      const line = explained.find((item) => item.turn === turn);
      if (!line) throw new Error(`${file}: turn ${turn} does not exist (the branch has ${lines.length} turns)`);
      return jsonResult({ file: real, ...line });
    },
  );
}

/** A `prefix` line as an explanation: the break's offset, cause, verdict and what it bills again. */
function explainLine(line: Record<string, unknown>): Record<string, unknown> & { turn: unknown; breaks: boolean } {
  const cost = line.cost as { break?: { rebilledTokens?: number; dollars?: number | null } | null } | undefined;
  return {
    turn: line.turn,
    breaks: line.cause !== null,
    offsetBytes: line.sharedBytes,
    offsetTokens: line.sharedTokens,
    bytes: line.bytes,
    tokens: line.tokens,
    breakPath: line.breakPath,
    cause: line.cause,
    serverVerdict: line.serverVerdict,
    serverMissedTokens: line.serverMissedTokens,
    serverAgreement: line.serverAgreement,
    unexplainedMiss: line.unexplainedMiss,
    tokensBilledAgain: cost?.break?.rebilledTokens ?? 0,
    breakCost: cost?.break ?? null,
    predictedCachedTokens: line.predictedCachedTokens,
  };
}

const PARAM_VALUE = z.union([z.string(), z.number(), z.boolean(), z.null()]);

function registerCompactionTools(server: McpServer, folders: SessionFolders): void {
  server.registerTool(
    "simulate_compaction",
    {
      description: `Simulate compaction after a turn under a policy (as \`contextscope compact\`): what is kept, summarised and dropped, the summariser request, the request after, the verdict and findings. Policies: ${POLICY_IDS.join(", ")}.`,
      inputSchema: {
        file: FILE_ARG,
        policy: z.enum(POLICY_IDS as [string, ...string[]]),
        turn: TURN_ARG.optional().describe("simulate after this turn (default: the last)"),
        manual: z.boolean().optional().describe("a manual compaction: skip the trigger"),
        focus: z.string().optional().describe("custom instructions, as `/compact <focus>`"),
        reserveTokens: z.number().int().min(0).optional(),
        keepRecentTokens: z.number().int().min(0).optional(),
        contextWindow: z.number().int().min(1).optional(),
        maxOutputTokens: z.number().int().min(1).optional(),
        params: z.record(z.string(), PARAM_VALUE).optional().describe("any policy parameter (docs/compaction-simulator.md)"),
        redact: REDACT_ARG,
        session: SESSION_ARG,
      },
      annotations: READ_ONLY,
    },
    async (args) => {
      const argv = [folders.resolve(args.file), "--policy", args.policy, ...sessionArgs(args.session)];
      if (args.turn !== undefined) argv.push("--turn", String(args.turn));
      if (args.manual === true) argv.push("--manual");
      if (args.focus !== undefined) argv.push("--focus", args.focus);
      if (args.reserveTokens !== undefined) argv.push("--reserve-tokens", String(args.reserveTokens));
      if (args.keepRecentTokens !== undefined) argv.push("--keep-recent-tokens", String(args.keepRecentTokens));
      if (args.contextWindow !== undefined) argv.push("--context-window", String(args.contextWindow));
      if (args.maxOutputTokens !== undefined) argv.push("--max-output-tokens", String(args.maxOutputTokens));
      for (const [name, value] of Object.entries(args.params ?? {})) argv.push("--param", `${name}=${String(value)}`);
      const { lines } = await commandOutput(compactCommand, argv);
      return jsonResult(redacted(lines[0] ?? null, args.redact));
    },
  );

  server.registerTool(
    "compare_sessions",
    {
      description:
        "Compare two sessions (or two branches of one: the same file with leaf and leafB), as `contextscope compare`: turns aligned by user message, where each pair's requests first differ, and the totals side by side.",
      inputSchema: {
        fileA: FILE_ARG,
        fileB: FILE_ARG,
        leaf: z.string().optional().describe("side A's branch: the path ending at this entry"),
        leafB: z.string().optional().describe("side B's branch"),
        redact: REDACT_ARG,
      },
      annotations: READ_ONLY,
    },
    async ({ fileA, fileB, leaf, leafB, redact }) => {
      const argv = [folders.resolve(fileA), folders.resolve(fileB)];
      if (leaf !== undefined) argv.push("--leaf", leaf);
      if (leafB !== undefined) argv.push("--leaf-b", leafB);
      const { lines } = await commandOutput(compareCommand, argv);
      const comparison = { pairs: lines.filter((line) => line.kind === "pair"), firstDifference: lines.find((line) => line.kind === "first-difference") ?? null, totals: lines.find((line) => line.kind === "totals") ?? null };
      return jsonResult(redacted(comparison, redact));
    },
  );
}

export function registerTurnTools(server: McpServer, folders: SessionFolders): void {
  registerRequestTools(server, folders);
  registerCompactionTools(server, folders);
}
