// A session's trace data (src/core/export/otlp) as OpenTelemetry SDK spans, and the OTLP/JSON
// file of them. The wire format is the OpenTelemetry JS packages' own: the spans are handed to
// their serializer (the same one their OTLP/HTTP JSON exporter sends), so the file a user saves
// from the page, the CLI's `export --format otlp` and what `--endpoint` posts are the same data.
import { SpanKind, SpanStatusCode, TraceFlags, type Attributes } from "@opentelemetry/api";
import { hrTimeDuration, millisToHrTime } from "@opentelemetry/core";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import { sessionTrace, type SessionTrace, type TraceSpan } from "../core/export/otlp/index";
import type { PipelineOptions, Session } from "../core/model";
import type { PriceTable } from "../core/pricing/types";
import type { RedactionFinding } from "../core/redact/types";

/** The instrumentation scope the spans name: this tool, at the version the file was written with. */
const SCOPE = { name: "contextscope", version: "0.1.0" };

function readableSpan(trace: SessionTrace, span: TraceSpan, resource: ReadableSpan["resource"]): ReadableSpan {
  const startTime = millisToHrTime(span.startMs);
  const endTime = millisToHrTime(span.endMs);
  const context = { traceId: trace.traceId, spanId: span.spanId, traceFlags: TraceFlags.SAMPLED };
  return {
    name: span.name,
    kind: span.kind === "client" ? SpanKind.CLIENT : SpanKind.INTERNAL,
    spanContext: () => context,
    ...(span.parentSpanId !== null ? { parentSpanContext: { traceId: trace.traceId, spanId: span.parentSpanId, traceFlags: TraceFlags.SAMPLED } } : {}),
    startTime,
    endTime,
    status: span.error !== null ? { code: SpanStatusCode.ERROR, message: span.error } : { code: SpanStatusCode.UNSET },
    attributes: span.attributes as Attributes,
    links: [],
    events: span.events.map((event) => ({ name: event.name, time: millisToHrTime(event.timeMs), attributes: event.attributes as Attributes })),
    duration: hrTimeDuration(startTime, endTime),
    ended: true,
    resource,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/** The trace's spans as the OpenTelemetry SDK's finished spans, ready for its exporters. */
export function readableSpans(trace: SessionTrace): ReadableSpan[] {
  const resource = resourceFromAttributes(trace.resource);
  return trace.spans.map((span) => readableSpan(trace, span, resource));
}

/** The OTLP/JSON text of the trace: one `ExportTraceServiceRequest`, as an OTLP/HTTP JSON exporter posts it. */
function otlpJsonText(trace: SessionTrace): string {
  const bytes = JsonTraceSerializer.serializeRequest(readableSpans(trace));
  return new TextDecoder().decode(bytes);
}

/** The file name the page offers: the session's, with the OTLP suffix. */
function otlpFileName(sessionFileName: string): string {
  const base = sessionFileName.replace(/\.[^./\\]+$/, "") || "session";
  return `${base}.otlp.json`;
}

export interface TraceExportParams {
  redact: boolean;
  unmasked: string[];
  /** Write each request's messages, system instructions and tool definitions too. */
  contents: boolean;
}

export interface TraceExport {
  fileName: string;
  text: string;
  spans: number;
  findings: RedactionFinding[];
}

/** The whole session (every thread) as the OTLP/JSON file the page offers and the CLI writes. */
export function exportTraceFile(session: Session, options: PipelineOptions, params: TraceExportParams, prices: PriceTable): TraceExport {
  const trace = sessionTrace(session, { pipeline: { ...options, thread: null }, prices, contents: params.contents ? { redact: params.redact, unmasked: params.unmasked } : null });
  return { fileName: otlpFileName(session.fileName), text: otlpJsonText(trace), spans: trace.spans.length, findings: trace.findings };
}
