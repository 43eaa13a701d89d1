// `export --format otlp`: the whole session (every thread) as one OpenTelemetry trace, written as
// OTLP/JSON to standard output or a file (`--out`, written whole or not at all), or posted to an
// OTLP/HTTP receiver (`--endpoint`). The request contents are opt-in (`--contents`), redacted
// unless `--redact off`.
import { sessionTrace } from "../core/export/otlp/index";
import { datasetPriceTable } from "../core/pricing/dataset";
import { listOption } from "./args";
import { loadAnySession } from "./inputs";
import { CliError, type CliIo } from "./io";
import { OTLP_PROTOCOLS, tracesUrl } from "./otlpUrl";
import type { CliOptionSpec, CliOptionValues } from "./registry";
import { WITH_OPTION, withThreads } from "./threadOptions";
import { checkLeaf, reportFindings, viewPipelineOptions } from "./viewOptions";
import { writeWhole } from "./writeWhole";

export const OTLP_OPTIONS: CliOptionSpec[] = [
  { name: "out", value: "file", description: "otlp, sts: write the file here instead of standard output (whole or not at all)" },
  { name: "endpoint", value: "URL", description: "otlp: post the trace to this OTLP/HTTP receiver (a URL without a path gets /v1/traces)" },
  { name: "protocol", value: OTLP_PROTOCOLS.join("|"), description: "otlp with --endpoint: the body's encoding (default http/protobuf)", choices: OTLP_PROTOCOLS },
  { name: "contents", description: "otlp: add each request's messages, system instructions and tool definitions (redacted unless --redact off)" },
  WITH_OPTION,
];

export async function runOtlpExport(file: string, options: CliOptionValues, io: CliIo): Promise<number> {
  const endpoint = options.endpoint as string | undefined;
  if (endpoint !== undefined && options.out !== undefined) throw new CliError("export: --endpoint and --out exclude each other");
  // A bad URL is refused before the session is read.
  const url = endpoint === undefined ? null : tracesUrl(endpoint);
  const main = withThreads(await loadAnySession(io, file, (options.session as string | undefined) ?? null), options, io);
  const pipeline = viewPipelineOptions(options, io, main);
  checkLeaf(main, pipeline, "export", file);
  const params = { redact: options.redact !== "off", unmasked: listOption(options, "unmask"), contents: options.contents === true };
  if (url !== null) {
    const trace = sessionTrace(main, { pipeline, prices: datasetPriceTable(), contents: params.contents ? params : null });
    reportFindings(io, trace.findings);
    // The OpenTelemetry packages load only when a trace is exported: they cost every command start-up time.
    const { sendTrace } = await import("./otlpSend");
    await sendTrace(trace, url, (options.protocol as (typeof OTLP_PROTOCOLS)[number] | undefined) ?? "http/protobuf");
    io.stderr(`sent ${trace.spans.length} spans (trace ${trace.traceId}) to ${url}\n`);
    return 0;
  }
  // The page's Export panel offers this same file.
  const { exportTraceFile } = await import("../app/otlpTrace");
  const written = exportTraceFile(main, pipeline, params, datasetPriceTable());
  reportFindings(io, written.findings);
  if (typeof options.out === "string") writeWhole(options.out, `${written.text}\n`);
  else io.stdout(`${written.text}\n`);
  return 0;
}
