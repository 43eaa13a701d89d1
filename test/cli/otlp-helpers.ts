// Helpers of the OTLP export's tests: the spans of an OTLP/JSON document by name, their
// attributes as plain values, a recording's usage read from the provider's own answers
// (responses/NNN.txt, server-sent events) without the app's model, and a small OTLP/HTTP
// receiver that keeps what it is sent.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import type { FixtureCase } from "../support/fixtures";

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
}

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean; arrayValue?: { values: AnyValue[] } };

function plain(value: AnyValue): unknown {
  if (value.arrayValue) return value.arrayValue.values.map(plain);
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.doubleValue ?? value.boolValue;
}

/** Every span of an OTLP/JSON ExportTraceServiceRequest, attributes as plain values. */
export function spansOf(document: unknown): OtlpSpan[] {
  const resourceSpans = (document as { resourceSpans: { scopeSpans: { spans: (Omit<OtlpSpan, "attributes"> & { attributes: { key: string; value: AnyValue }[] })[] }[] }[] }).resourceSpans;
  return resourceSpans.flatMap((resource) =>
    resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => ({ ...span, attributes: Object.fromEntries(span.attributes.map((a) => [a.key, plain(a.value)])) }))),
  );
}

export interface RecordedCall {
  seq: number;
  /** The provider's id of the answer (Anthropic's message id, OpenAI's response id). */
  id: string | null;
  /** Every input token the provider billed, cached or not (the convention's input_tokens). */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

function sseData(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

/** The usage of an Anthropic Messages stream: message_start's input side, the last message_delta's output. */
function anthropicCall(seq: number, events: Record<string, unknown>[]): RecordedCall {
  const start = events.find((event) => event.type === "message_start")!.message as { id: string; usage: Record<string, number> };
  const deltas = events.filter((event) => event.type === "message_delta");
  const last = (deltas.at(-1)?.usage ?? {}) as Record<string, number>;
  const input = start.usage.input_tokens ?? 0;
  const cacheRead = last.cache_read_input_tokens ?? start.usage.cache_read_input_tokens ?? 0;
  const cacheWrite = last.cache_creation_input_tokens ?? start.usage.cache_creation_input_tokens ?? 0;
  return { seq, id: start.id, input: input + cacheRead + cacheWrite, output: last.output_tokens ?? start.usage.output_tokens ?? 0, cacheRead, cacheWrite };
}

/** The usage of an OpenAI Responses stream (response.completed): its input_tokens already count the cached ones. */
function responsesCall(seq: number, events: Record<string, unknown>[]): RecordedCall {
  const response = events.find((event) => event.type === "response.completed")!.response as { id: string; usage: { input_tokens: number; output_tokens: number; input_tokens_details?: { cached_tokens?: number } } };
  const usage = response.usage;
  return { seq, id: response.id, input: usage.input_tokens, output: usage.output_tokens, cacheRead: usage.input_tokens_details?.cached_tokens ?? 0, cacheWrite: 0 };
}

/** The main provider calls of a recording (meta kind "main"), with the usage its answers carry. */
export function recordedMainCalls(recording: FixtureCase): RecordedCall[] {
  return recording.requestNumbers().flatMap((seq) => {
    if ((recording.meta(seq) as { kind?: string }).kind !== "main") return [];
    const events = sseData(readFileSync(recording.path(`responses/${String(seq).padStart(3, "0")}.txt`), "utf8"));
    return [events.some((event) => event.type === "message_start") ? anthropicCall(seq, events) : responsesCall(seq, events)];
  });
}

export interface Received {
  headers: IncomingHttpHeaders;
  path: string;
  body: Buffer;
}

/** An OTLP/HTTP receiver on a free port that answers `status` and keeps every request. */
export async function startReceiver(status = 200): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, path: request.url ?? "", body: Buffer.concat(chunks) });
      response.writeHead(status, { "content-type": String(request.headers["content-type"] ?? "application/json") });
      response.end(status === 200 && request.headers["content-type"] === "application/json" ? "{}" : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
