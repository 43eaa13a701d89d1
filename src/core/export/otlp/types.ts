// A session as trace data, before any wire format: the spans the OTLP export writes, with the
// attributes of the OpenTelemetry GenAI semantic conventions and our own `contextscope.*` ones.
// Plain values only, so the core stays free of the OpenTelemetry packages (the CLI and the
// worker hand these to them).
import type { RedactionFinding } from "../../redact/types";

/** An attribute value as OTLP carries it: integers and doubles are told apart by the writer. */
type TraceValue = string | number | boolean | string[];

export type TraceAttributes = Record<string, TraceValue>;

interface TraceEvent {
  name: string;
  /** Epoch milliseconds. */
  timeMs: number;
  attributes: TraceAttributes;
}

export interface TraceSpan {
  /** 16 lowercase hex digits. */
  spanId: string;
  parentSpanId: string | null;
  name: string;
  /** `client` for a provider call (the convention's inference span), `internal` otherwise. */
  kind: "client" | "internal";
  /** Epoch milliseconds. */
  startMs: number;
  endMs: number;
  attributes: TraceAttributes;
  events: TraceEvent[];
  /** Set when the call failed (the reply's stop reason says so): the span's status is then an error. */
  error: string | null;
}

export interface SessionTrace {
  /** 32 lowercase hex digits, derived from the session's id: the same session gives the same trace. */
  traceId: string;
  /** The resource's attributes (service name, the agent). */
  resource: TraceAttributes;
  spans: TraceSpan[];
  /** What redaction masked in the opt-in message contents (empty without them). */
  findings: RedactionFinding[];
}
