// The recording proxy of `capture`: an HTTP server on 127.0.0.1 that forwards every request
// unchanged to its upstream and passes the response back chunk by chunk as it arrives (server-sent
// events reach the agent when the provider sends them), then writes the exchange to the recording.
// The request body is read whole before it is forwarded (it is written byte for byte, and agents
// send it whole); the response is never held back.
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { Recording, type RecordedExchange } from "./recording";
import { redactHeaders, redactPath, upstreamUrl } from "./upstream";

export interface CaptureProxyOptions {
  /** 0: any free port. */
  port: number;
  /** The folder the recording is written to. */
  out: string;
  /** Every request goes here (a gateway, a test server); null: the provider's own address by path. */
  upstream: string | null;
}

export interface CaptureProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  recording: Recording;
  /** Stops accepting requests and resolves when every exchange in flight is written. */
  close(): Promise<void>;
}

// Connections to the upstream are kept open between requests, as the agent's own client would.
const AGENTS = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/** Hop-by-hop headers, which belong to one connection and are not forwarded. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"]);

function forwardHeaders(headers: http.IncomingHttpHeaders, host: string): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  out.host = host;
  return out;
}

function readBody(request: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

function stringHeaders(headers: http.IncomingHttpHeaders): Record<string, string | string[] | undefined> {
  return headers;
}

/** Forwards one request and streams the answer back; resolves with the exchange to write. */
async function exchange(recording: Recording, upstream: string | null, request: http.IncomingMessage, response: http.ServerResponse): Promise<RecordedExchange> {
  const seq = recording.next();
  const started = performance.now();
  const record: RecordedExchange = {
    seq,
    time: new Date().toISOString(),
    method: request.method ?? "GET",
    path: redactPath(request.url ?? "/"),
    upstream: null,
    headers: redactHeaders(stringHeaders(request.headers)),
    body: Buffer.alloc(0),
    status: null,
    responseHeaders: {},
    response: Buffer.alloc(0),
    firstByteMs: null,
    totalMs: 0,
    error: null,
  };
  record.body = await readBody(request);
  const target = upstreamUrl(request.url ?? "/", upstream);
  if (target === null) {
    record.error = "no upstream for this path (give --upstream)";
    response.writeHead(502, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `contextscope capture: ${record.error}` } }));
    record.status = 502;
    record.totalMs = performance.now() - started;
    return record;
  }
  record.upstream = target.origin;
  const secure = target.protocol === "https:";
  const client = secure ? https : http;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const outgoing = client.request(target, { method: record.method, agent: secure ? AGENTS.https : AGENTS.http, headers: forwardHeaders(request.headers, target.host) }, (answer) => {
      record.status = answer.statusCode ?? null;
      record.responseHeaders = redactHeaders(stringHeaders(answer.headers));
      const headers: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
      response.writeHead(answer.statusCode ?? 502, headers);
      response.flushHeaders();
      answer.on("data", (chunk: Buffer) => {
        if (record.firstByteMs === null) record.firstByteMs = performance.now() - started;
        chunks.push(chunk);
        response.write(chunk);
      });
      answer.on("end", () => {
        response.end();
        record.response = Buffer.concat(chunks);
        record.totalMs = performance.now() - started;
        resolve(record);
      });
      answer.on("error", (error) => {
        record.error = error.message;
        record.response = Buffer.concat(chunks);
        record.totalMs = performance.now() - started;
        response.destroy(error);
        resolve(record);
      });
    });
    outgoing.on("error", (error) => {
      record.error = error.message;
      record.totalMs = performance.now() - started;
      if (!response.headersSent) {
        record.status = 502;
        response.writeHead(502, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `contextscope capture: upstream ${target.origin}: ${error.message}` } }));
      } else response.destroy(error);
      resolve(record);
    });
    // The agent gave up (Ctrl-C, a timeout): the upstream call is abandoned with it.
    response.on("close", () => {
      if (!response.writableFinished) outgoing.destroy();
    });
    outgoing.end(record.body);
  });
}

export function startCaptureProxy(options: CaptureProxyOptions): Promise<CaptureProxy> {
  const recording = new Recording(options.out);
  const pending = new Set<Promise<void>>();
  const server = http.createServer({ noDelay: true }, (request, response) => {
    const done = exchange(recording, options.upstream, request, response)
      .then((record) => recording.write(record))
      .catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(502).end();
        process.stderr.write(`contextscope capture: ${(error as Error).message}\n`);
      })
      .finally(() => pending.delete(done));
    pending.add(done);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        recording,
        close: async () => {
          await new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          });
          await Promise.all([...pending]);
        },
      });
    });
  });
}
