// What every MCP tool of the server shares: its answer as JSON text, the read-only annotations,
// and the argument naming one session of a database.
import { z } from "zod";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { redactRequestBody } from "../../app/shareExport";

/** The tools read session files and nothing else. */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const SESSION_ARG = z.string().optional().describe("opencode or hermes-agent database: the session to read (default: the most recently updated one)");

export const REDACT_ARG = z.boolean().optional().describe("mask secrets in the session texts of the answer (default true)");

/** The answer with every secret in it masked as Export masks a request, unless `redact` is false. */
export function redacted(value: unknown, redact: boolean | undefined): unknown {
  return redact === false ? value : redactRequestBody(value, []).value;
}

export function jsonResult(value: unknown): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }] };
}
