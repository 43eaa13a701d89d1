// `export`: the request of one turn as the app's Export gives it — the Request view's JSON text
// (as sent, or rewritten by --provider / --notes / --header), or a curl command with a
// placeholder key. Redacted by default; the masked values are listed on stderr. `--format otlp`
// exports the whole session as an OpenTelemetry trace instead (../otlpExport.ts), `--format sts` as
// a Hugging Face session trace (../stsExport.ts).
import { exportRequest } from "../../app/shareExport";
import { listOption } from "../args";
import { loadAnySession } from "../inputs";
import type { CliIo } from "../io";
import { OTLP_OPTIONS, runOtlpExport } from "../otlpExport";
import type { CliCommand, CliOptionValues } from "../registry";
import { runStsExport } from "../stsExport";
import { analyzeForCommand, checkLeaf, reportFindings, requiredTurn, VIEW_OPTIONS, viewPipelineOptions } from "../viewOptions";

const NAME = "export";

async function run(positionals: string[], options: CliOptionValues, io: CliIo): Promise<number> {
  const file = positionals[0]!;
  if (options.format === "otlp") return runOtlpExport(file, options, io);
  if (options.format === "sts") return runStsExport(file, options, io);
  const session = await loadAnySession(io, file, (options.session as string | undefined) ?? null);
  const pipelineOptions = viewPipelineOptions(options, io, session);
  checkLeaf(session, pipelineOptions, NAME, file);
  const analysis = analyzeForCommand(session, pipelineOptions, file);
  const turn = requiredTurn(options, NAME, analysis);
  const result = exportRequest(session, pipelineOptions, {
    target: { kind: "turn", turn },
    format: options.format === "curl" ? "curl" : "json",
    redact: options.redact !== "off",
    unmasked: listOption(options, "unmask"),
  });
  for (const warning of result.warnings) io.stderr(`warning: ${warning}\n`);
  reportFindings(io, result.findings);
  io.stdout(`${result.text}\n`);
  return 0;
}

export const exportCommand: CliCommand = {
  name: NAME,
  summary: "print one turn's request as the app exports it (JSON as in the Request view, or curl), or the session as an OpenTelemetry trace or a Hugging Face session trace; redacted by default",
  positionals: ["<session-file>"],
  options: [
    { name: "format", value: "json|curl|otlp|sts", description: "JSON text (default), a curl command with a placeholder key, or the whole session as OTLP/JSON or as a Hugging Face session trace (no --turn)", choices: ["json", "curl", "otlp", "sts"] },
    ...VIEW_OPTIONS,
    ...OTLP_OPTIONS,
  ],
  details: [
    "Output: the request body as two-space indented JSON (byte for byte the app's Request view and",
    "JSON export), or a curl command reading the key from $OPENAI_API_KEY / $ANTHROPIC_API_KEY /",
    "$GEMINI_API_KEY. stderr lists each masked value: `redacted: <label>: <masked> [<finding-id>]`.",
    "--format otlp: one OpenTelemetry trace (GenAI semantic conventions) for the whole session: an invoke_agent",
    "span per thread, a chat span per provider call with its recorded usage, execute_tool spans, and our findings",
    "under contextscope.* (docs/otlp.md). --endpoint posts it (headers from OTEL_EXPORTER_OTLP_HEADERS).",
    "--format sts: the main thread's conversation as a Hugging Face session trace (STS JSONL: a session header,",
    "then one message per line, each once, answers with their model and usage; docs/sts.md).",
  ].join("\n"),
  run,
};
