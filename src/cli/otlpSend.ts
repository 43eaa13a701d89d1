// `export --format otlp --endpoint URL`: posts a session's trace to an OTLP/HTTP receiver with the
// OpenTelemetry JS exporters (protobuf by default, JSON when asked). They read the headers a
// receiver wants from the environment themselves (OTEL_EXPORTER_OTLP_HEADERS and
// OTEL_EXPORTER_OTLP_TRACES_HEADERS, `key=value` pairs: an API key, an Authorization header) and
// retry what OTLP says to retry within their timeout (OTEL_EXPORTER_OTLP_TRACES_TIMEOUT). One
// export is one request: the receiver keeps all of the trace or none of it.
import { ExportResultCode } from "@opentelemetry/core";
import { OTLPTraceExporter as JsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import type { SessionTrace } from "../core/export/otlp/index";
import { readableSpans } from "../app/otlpTrace";
import { CliError } from "./io";
import type { OTLP_PROTOCOLS } from "./otlpUrl";

type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** Sends the trace; throws a CliError naming the URL and the receiver's or the network's answer. */
export async function sendTrace(trace: SessionTrace, url: string, protocol: OtlpProtocol): Promise<void> {
  const exporter = protocol === "http/json" ? new JsonTraceExporter({ url }) : new ProtobufTraceExporter({ url });
  const result = await new Promise<{ code: ExportResultCode; error?: Error }>((resolve) => exporter.export(readableSpans(trace), resolve));
  await exporter.shutdown();
  if (result.code !== ExportResultCode.SUCCESS) {
    const why = result.error?.message ?? "the receiver did not accept it";
    throw new CliError(`export: the trace was not sent to ${url}: ${why}`);
  }
}
